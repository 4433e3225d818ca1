"""Run the reactor and the jobs it schedules synchronously, in this process.

For tests, ``delve play --inprocess`` and ``delve tournament``: the very same
reactor (and, for tournaments, the tournament reactor) and followers
(workers/table.py), stepped by the same loop, read the feeds (the reactor
through a private consumer group, created before the games so it sees their
first entry) and the jobs run the same functions an rq worker would, just
without a queue in between.
"""
from __future__ import annotations

import logging
import time
import uuid
from datetime import datetime, timezone
from typing import Callable, Iterable

import redis

from errors import NotDue, Stalled
from application.service import GameService
from application.status import ended
from workers import table
from workers.follower import Follow
from workers.loop import Loop
from workers.reactor import Reactor
from workers.tournament_reactor import TournamentReactor

log = logging.getLogger("delve.inprocess")


class LocalScheduler:
    """Keeps jobs in memory under the ids rq would use, so a repeat is ignored the same way.

    By default ``at`` is ignored: a job due later runs now, and finds its time not come
    (a clock) or its work done. ``timed`` keeps such a job until its time, as rq's
    scheduler does (a site that runs in real time, where a clock must run out)."""

    def __init__(self, timed: bool = False):
        self.pending: dict[str, tuple[str, str, int]] = {}
        self.later: dict[str, tuple[datetime, tuple[str, str, int]]] = {}
        self.timed = timed
        self._seen: set[str] = set()

    def schedule(self, kind: str, game_id: str, version: int, at: datetime | None = None) -> str:
        jid = table.job_id(kind, game_id, version)
        if jid in self._seen:
            return "exists"
        self._seen.add(jid)
        if self.timed and at is not None and at > datetime.now(at.tzinfo):
            self.later[jid] = (at, (kind, game_id, version))
        else:
            self.pending[jid] = (kind, game_id, version)
        return "enqueued"

    def retry(self, kind: str, game_id: str, version: int, due_ms: int) -> None:
        """A timer's job that found its time not come (``NotDue``): kept for ``due_ms`` when timed
        (at least 100 ms on, as the timers do), else dropped as rq's scheduler never ran it early."""
        if self.timed:
            at = datetime.fromtimestamp(max(due_ms / 1000, time.time() + 0.1), timezone.utc)
            self.later[table.job_id(kind, game_id, version)] = (at, (kind, game_id, version))

    def take(self) -> list[tuple[str, str, int]]:
        for jid, (at, job) in list(self.later.items()):
            if at <= datetime.now(at.tzinfo):
                self.pending[jid] = job
                del self.later[jid]
        jobs, self.pending = list(self.pending.values()), {}
        return jobs


class InProcessDriver:
    """``with InProcessDriver(service) as d: ids = create...; d.run(ids)``.

    Create the driver *before* the games: its consumer group starts at the
    end of the feeds, so it reads only what happens from then on.
    """

    def __init__(self, service: GameService, tournaments: bool = False, timed: bool = False):
        """``tournaments``: follow every game of the store (not only those passed to ``run``)
        and the tournament logs too, as the reactor process does; drive it with ``run_until``
        or ``step``. ``timed``: a job scheduled for later (a clock's deadline) waits for its time."""
        self.service = service
        self.scheduler = LocalScheduler(timed)
        self.games: set[str] = set()
        group = f"inprocess-{uuid.uuid4().hex[:12]}"
        self.reactor = Reactor(service, self.scheduler, group=group, start_id="$", reclaim_every=float("inf"),
                               sweep_every=0, games=None if tournaments else self.games)
        self.reactor.ensure_groups()
        # The reactor process's composition: the reactor(s), then the table's followers.
        steppers = [self.reactor]
        if tournaments:
            steppers.append(TournamentReactor(service, self.scheduler, group=group, start_id="$",
                                              reclaim_every=float("inf"), sweep_every=0))
            steppers[-1].ensure_groups()
        self.loop = Loop([*steppers, *(Follow(service, f) for f in table.FOLLOWERS)], "inprocess")
        self.reactors = steppers
        self.errors: dict[str, str] = {}

    def run_until(self, done: Callable[[], bool], on_job: Callable[[str, str, object], None] | None = None,
                  max_steps: int = 10_000_000) -> None:
        """Step the reactors and run the jobs they schedule until ``done()``; ``on_job(kind,
        id, result)`` sees each job's outcome. Raises Stalled when nothing is left to do
        and ``done()`` is still false (a job failed, or a game waits for a human)."""
        for _ in range(max_steps):
            handled = self.loop.step()
            jobs = self.scheduler.take()
            ran, _failed = self._run_jobs(jobs)
            if on_job:
                for kind, key, result in ran:
                    on_job(kind, key, result)
            if not handled and not jobs:
                if done():
                    return
                raise Stalled(set(self.errors), f"nothing left to do and not done; failed jobs: {self.errors or 'none'}")
        raise Stalled(set(self.errors), f"not done after {max_steps} steps")

    def step(self) -> bool:
        """One round: step the reactors and run the jobs due. Whether anything happened."""
        handled = self.loop.step()
        jobs = self.scheduler.take()
        self._run_jobs(jobs)
        return bool(handled or jobs)

    def _run_jobs(self, jobs: list[tuple[str, str, int]]) -> tuple[list[tuple[str, str, object]], set[str]]:
        """Run scheduled jobs: ((kind, key, result) of each that ran, keys of those that failed).
        A failure is logged and kept in ``errors`` (a bot that breaks the rules ends its game,
        not the run); a Redis error ends the run."""
        ran, failed = [], set()
        for kind, key, version in jobs:
            try:
                ran.append((kind, key, table.kind(kind).run(self.service, key, version)))
            except redis.RedisError:
                raise
            except NotDue as exc:
                self.scheduler.retry(kind, key, version, exc.due_ms)
            except Exception as exc:
                log.exception("%s job of %s failed", kind, key)
                self.errors[key] = f"{kind} at version {version}: {exc!r}"
                failed.add(key)
        return ran, failed

    def run(self, game_ids: Iterable[str], on_finished: Callable[[str], None] | None = None) -> None:
        """Play until every game finished (or failed: see ``errors``); raises Stalled otherwise."""
        remaining = set(game_ids)
        self.games.update(remaining)
        while remaining:
            handled = self.loop.step()
            jobs = self.scheduler.take()
            _ran, failed = self._run_jobs(jobs)
            remaining -= failed
            if not handled and not jobs:
                self._collect(set(remaining), remaining, on_finished)
                if remaining:
                    raise Stalled(remaining)
            else:
                self._collect({game_id for _, game_id, _ in jobs} & remaining, remaining, on_finished)
        for _ in range(1000):  # let the followers see the last appends (GameFinished) too
            if not self.loop.step():
                break

    def _collect(self, candidates: set[str], remaining: set[str], on_finished: Callable[[str], None] | None) -> None:
        """Drop the candidates whose game the platform closed (finished or aborted) from ``remaining``."""
        for game_id in candidates:
            if ended(self.service.store.meta(game_id)):
                remaining.discard(game_id)
                if on_finished:
                    on_finished(game_id)

    def close(self) -> None:
        for reactor in self.reactors:
            for feed in reactor.feeds:
                self.service.store.groups.drop(feed, reactor.group)

    def __enter__(self) -> "InProcessDriver":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
