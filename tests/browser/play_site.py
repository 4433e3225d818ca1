"""A Delve site that runs in real time, for the browser tests that play: the app
served over HTTP from a thread, and its bots, clocks and tournaments run by the
reactor and jobs (workers/inprocess.py) in a second thread, as `delve serve`
runs them, with clock deadlines kept until their time. Nothing is set up in
advance: the tests create players, games and tournaments from the pages.
"""
from __future__ import annotations

import threading
import traceback
import time
import uuid
from dataclasses import dataclass

import redis as redis_lib

from application.service import GameService
from events.store import RedisEventStore
from server.app import create_app
from tests.browser.site import ADMIN, _Server
from workers.inprocess import InProcessDriver

IDLE_S = 0.05  # the workers' pause when nothing happened


class _Workers(threading.Thread):
    """The reactor, tournament reactor and jobs, stepped until stopped."""

    def __init__(self, service: GameService):
        super().__init__(daemon=True, name="delve-browser-workers")
        self.driver = InProcessDriver(service, tournaments=True, timed=True)  # before any game: it reads what follows
        self.halt = threading.Event()
        self.errors: list[str] = []

    def run(self) -> None:
        while not self.halt.is_set():
            try:
                busy = self.driver.step()
            except Exception:  # keep the site running; the tests report what broke
                self.errors.append(traceback.format_exc())
                busy = False
            if not busy:
                self.halt.wait(IDLE_S)

    def stop(self) -> None:
        self.halt.set()
        self.join(timeout=10)
        self.driver.close()


@dataclass
class PlaySite:
    url: str
    service: GameService
    workers: _Workers

    def problems(self) -> list[str]:
        """What broke in the workers (tracebacks) and the jobs that failed."""
        return [*self.workers.errors[:3], *(f"{k}: {v}" for k, v in self.workers.driver.errors.items())]

    def summary(self, game_id: str) -> dict:
        """The admin's view of a game (the tests' ground truth, never shown to a page)."""
        return self.service.summary(game_id, self.service.authenticate(game_id, ADMIN))


class running_play_site:
    """``with running_play_site(redis_url) as site:`` an empty site whose workers run in real time."""

    def __init__(self, redis_url: str):
        self.redis = redis_lib.Redis.from_url(redis_url)
        self.prefix = f"p{uuid.uuid4().hex[:10]}"
        self.service = GameService(RedisEventStore(self.redis, prefix=self.prefix, snapshot_every=20), admin_token=ADMIN)
        self.app = create_app(self.service, RATE_LIMIT=0, VERIFY_PER_MINUTE=0, SSE_BLOCK_MS=500)
        self.server = _Server(self.app)
        self.workers = _Workers(self.service)

    def __enter__(self) -> PlaySite:
        self.server.start()
        self.workers.start()
        return PlaySite(self.server.url, self.service, self.workers)

    def __exit__(self, *exc) -> None:
        self.workers.stop()
        self.server.stop()
        deadline = time.monotonic() + 30
        for key in self.redis.scan_iter(f"{self.prefix}:*", count=1000):
            self.redis.delete(key)
            if time.monotonic() > deadline:
                break
        self.redis.close()
