"""The reactor process (`delve reactor`, `python -m workers.process`): the reactor, the
tournament reactor, the lost-jobs check, a timer poller (workers/timers.py) and the job
table's followers in one loop (workers/loop.py), store and queue from the environment."""
from __future__ import annotations

import logging

import settings
from application.runtime import service_from_env
from workers import table
from workers.follower import Follow
from workers.loop import Loop
from workers.queue import LostJobs, RqScheduler, queue_from_env, timer_poller
from workers.reactor import Reactor
from workers.timers import POLL_S
from workers.tournament_reactor import TournamentReactor


def run_from_env() -> None:
    service = service_from_env(acknowledged=False)  # its timers and followers append; nobody waits for a 201
    queue = queue_from_env()
    scheduler = RqScheduler(queue)
    reactor = Reactor.from_env(service, scheduler)
    Loop([reactor, TournamentReactor.from_env(service, scheduler), LostJobs(scheduler),
          timer_poller(queue, lambda: service, f"reactor:{reactor.consumer}"),
          *(Follow(service, f) for f in table.FOLLOWERS)]).run_forever(block_ms=int(POLL_S * 1000))


if __name__ == "__main__":
    logging.basicConfig(level=settings.get("DELVE_LOG_LEVEL").upper(),
                        format="%(asctime)s reactor %(levelname)s %(message)s")
    run_from_env()
