"""The reactor process (`delve reactor`, `python -m workers.process`): the reactor, the
tournament reactor, the lost-jobs check, a timer poller (workers/timers.py) and the job
table's followers in one loop (workers/loop.py), store and queue from the environment.

Each of them works on the shards DELVE_SHARD names (application/shards.py; unset: all):
the feeds of their partitions, and their queues' lost jobs and timers."""
from __future__ import annotations

import logging

import settings
from application.runtime import service_from_env
from application.shards import shards_from_env
from workers import table
from workers.follower import Follow
from workers.loop import Loop
from workers.queue import LostJobs, ShardScheduler, timer_poller
from workers.reactor import Reactor
from workers.timers import POLL_S
from workers.tournament_reactor import TournamentReactor

log = logging.getLogger("delve.reactor")


def run_from_env() -> None:
    service = service_from_env(acknowledged=False)  # its timers and followers append; nobody waits for a 201
    shards = shards_from_env()
    scheduler = ShardScheduler(shards)
    reactor = Reactor.from_env(service, scheduler, shards=shards)
    tournaments = TournamentReactor.from_env(service, scheduler, shards=shards)
    log.info("reactor process for shard(s) %s of %d", ",".join(map(str, shards.mine)), shards.count)
    Loop([reactor, tournaments,
          *(LostJobs(s) for s in scheduler.mine()),
          *(timer_poller(s.queue, lambda: service, f"reactor:{reactor.consumer}") for s in scheduler.mine()),
          *(Follow(service, f, feeds=shards.feeds(f.logs(service))) for f in table.FOLLOWERS)]
         ).run_forever(block_ms=int(POLL_S * 1000))


if __name__ == "__main__":
    logging.basicConfig(level=settings.get("DELVE_LOG_LEVEL").upper(),
                        format="%(asctime)s reactor %(levelname)s %(message)s")
    run_from_env()
