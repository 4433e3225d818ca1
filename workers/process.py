"""The reactor process (`delve reactor`, `python -m workers.process`): the reactor, the
tournament reactor, the lost-jobs check and the job table's followers in one loop
(workers/loop.py), store and queue from the environment."""
from __future__ import annotations

import logging

import settings
from application.runtime import service_from_env
from workers import table
from workers.follower import Follow
from workers.loop import Loop
from workers.queue import LostJobs, RqScheduler, queue_from_env
from workers.reactor import Reactor
from workers.tournament_reactor import TournamentReactor


def run_from_env() -> None:
    service = service_from_env()
    scheduler = RqScheduler(queue_from_env())
    Loop([Reactor.from_env(service, scheduler), TournamentReactor.from_env(service, scheduler), LostJobs(scheduler),
          *(Follow(service, f) for f in table.FOLLOWERS)]).run_forever()


if __name__ == "__main__":
    logging.basicConfig(level=settings.get("DELVE_LOG_LEVEL").upper(),
                        format="%(asctime)s reactor %(levelname)s %(message)s")
    run_from_env()
