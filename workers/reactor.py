"""The reactor: turns appended events into follow-up jobs.

It reads the partition feeds of its shards (application/shards.py; every feed
with one shard) through a Redis consumer group (each entry is delivered to one
reactor of the group, like a Kafka partition to one consumer) and, for each game that moved, enqueues the jobs the job table
(workers/table.py) says are due: the final scoring of a game that reached
its end, the turn of the bot that is to act. Job ids are deterministic, so a
redelivered entry never schedules twice. The reactor process (workers/process.py)
runs it in one loop (workers/loop.py) with the table's followers (workers/follower.py).

Crash safety: an entry is acknowledged only after its job is enqueued. A
reactor that dies leaves its entries pending; the others take them over with
XAUTOCLAIM once they have been idle ``min_idle_ms``, and a reactor starting up
takes over at once every entry pending for a second or more (its dead
predecessor's). A reactor whose Redis went away reads its own pending entries
again first when Redis is back (a restart keeps them, AOF). A
periodic sweep over the active games repairs what no entry will announce any
more: a job whose worker died mid-run, a failed job, a feed entry trimmed
before it was read. Reactors of other shards never see this one's feeds, its
games in the sweep, or its queue.
"""
from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from datetime import datetime
from typing import Protocol

import redis

from errors import GameNotFound
from application.service import GameService
from application.shards import Shards
from workers import table
import settings

log = logging.getLogger("delve.reactor")
GROUP = "reactors"
STARTUP_IDLE_MS = 1000  # a live reactor acknowledges within milliseconds: older entries are a dead one's


class Scheduler(Protocol):
    def schedule(self, kind: str, game_id: str, version: int, at: datetime | None = None) -> str:
        """Enqueue job ``kind`` (a name in workers/table.py) unless its id is live already; at ``at`` if given."""


class Reactor:
    def __init__(self, service: GameService, scheduler: Scheduler, *, group: str = GROUP,
                 consumer: str | None = None, feeds: list[str] | None = None, count: int = 200,
                 min_idle_ms: int = 5_000, reclaim_every: float = 5.0, sweep_every: float = 30.0,
                 start_id: str = "0", games: set[str] | None = None, shards: Shards | None = None):
        self.service = service
        self.store = service.store
        self.scheduler = scheduler
        self.group = group
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        self.feeds = feeds or (shards.feeds(self.store) if shards else self.store.feeds())
        self.count = count
        self.min_idle_ms = min_idle_ms
        self.reclaim_every = reclaim_every
        self.sweep_every = sweep_every
        self.start_id = start_id  # "0": a new group also sees games created before it existed
        self.games = games  # only these games (an in-process driver's); None = all
        self.shards = shards  # only the feeds and games of these shards (application/shards.py); None = all
        self._ready = False
        self._own_pending = True  # read this consumer's pending entries again (start, Redis back)
        self._started = True  # the first reclaim takes over anything pending for STARTUP_IDLE_MS
        self._last_reclaim = self._last_sweep = float("-inf")
        self._swept: dict[str, int] = {}

    @classmethod
    def from_env(cls, service: GameService, scheduler: Scheduler, **kw) -> "Reactor":
        """DELVE_REACTOR_GROUP, DELVE_REACTOR_MIN_IDLE_MS, DELVE_REACTOR_SWEEP_SECONDS tune it."""
        kw.setdefault("group", settings.get("DELVE_REACTOR_GROUP"))
        kw.setdefault("min_idle_ms", settings.get("DELVE_REACTOR_MIN_IDLE_MS"))
        kw.setdefault("reclaim_every", min(5.0, kw["min_idle_ms"] / 1000))
        kw.setdefault("sweep_every", settings.get("DELVE_REACTOR_SWEEP_SECONDS"))
        return cls(service, scheduler, **kw)

    # -- the loop ------------------------------------------------------------------

    def step(self, block_ms: int | None = None) -> int:
        """Handle what is available now (waiting up to ``block_ms`` for it); returns entries handled.

        Consumer groups that vanished (a Redis restarted without its data)
        are created again on the next step.
        """
        try:
            return self._step(block_ms)
        except redis.ResponseError as exc:
            if "NOGROUP" not in str(exc):
                raise
            log.warning("the consumer groups are gone (Redis lost its data?); creating them again")
            self._ready = False
            return 0
        except redis.RedisError:
            self._own_pending = True  # entries read before the outage are still ours, unacknowledged
            raise

    def _step(self, block_ms: int | None) -> int:
        if not self._ready:
            self.ensure_groups()
            self._ready = True
            log.info("reactor %s reading %d feeds as group %r", self.consumer, len(self.feeds), self.group)
        now = time.monotonic()
        done = 0
        if self._own_pending:
            done += self.reread_own()
            self._own_pending = False
        if now - self._last_reclaim >= self.reclaim_every:
            self._last_reclaim = now
            done += self.reclaim(min(STARTUP_IDLE_MS, self.min_idle_ms) if self._started else self.min_idle_ms)
            self._started = False
        if self.sweep_every and now - self._last_sweep >= self.sweep_every:
            self._last_sweep = now
            self.sweep()
            self.forget_dead_consumers()
        resp = self.store.groups.read(self.group, self.consumer, self.feeds, self.count,
                                     None if done or not block_ms else block_ms)
        for feed, entries in resp:
            done += self._process(feed, entries)
        return done

    # -- consumer group ------------------------------------------------------------

    def ensure_groups(self) -> None:
        for feed in self.feeds:
            self.store.groups.ensure(feed, self.group, self.start_id)

    def reread_own(self) -> int:
        """Handle again the entries delivered to this consumer and not acknowledged (a Redis outage
        cut their handling short; the restarted Redis still holds them as pending)."""
        done = 0
        for feed, entries in self.store.groups.read(self.group, self.consumer, self.feeds, self.count, None,
                                                   pending=True):
            live = [(eid, f) for eid, f in entries if f]
            self.store.groups.ack(feed, self.group, [eid for eid, f in entries if not f])  # trimmed since: the sweep's
            if live:
                log.info("handling again %d entries of %s read before an outage", len(live), feed)
                done += self._process(feed, live)
        return done

    def reclaim(self, min_idle_ms: int | None = None) -> int:
        """Take over entries other consumers (dead ones) left pending for ``min_idle_ms``."""
        done = 0
        for feed in self.feeds:
            start = "0-0"
            while True:
                start, live, gone = self.store.groups.claim(feed, self.group, self.consumer,
                                                            self.min_idle_ms if min_idle_ms is None else min_idle_ms,
                                                            start, self.count)
                # Nothing can be done for entries trimmed from the feed but the sweep.
                self.store.groups.ack(feed, self.group, gone)
                if live:
                    log.info("reclaimed %d pending entries of %s", len(live), feed)
                    done += self._process(feed, live)
                if start == "0-0":
                    break
        return done

    def forget_dead_consumers(self, idle_ms: int = 3_600_000) -> None:
        """Drop consumers idle for an hour with nothing pending: every restart leaves one behind."""
        for feed in self.feeds:
            for c in self.store.groups.consumers(feed, self.group):
                if c["name"] != self.consumer and not c["pending"] and c["idle"] > idle_ms:
                    self.store.groups.drop_consumer(feed, self.group, c["name"])

    def _process(self, feed: str, entries: list) -> int:
        latest: dict[str, int] = {}
        for _eid, f in entries:
            latest[f["game_id"]] = max(latest.get(f["game_id"], 0), int(f["to_seq"]))
        for game_id, seq in latest.items():
            if self.mine(game_id):
                self._guarded(game_id, seq)
        self.store.groups.ack(feed, self.group, [eid for eid, _ in entries])
        return len(entries)

    def mine(self, game_id: str) -> bool:
        """Whether this reactor handles the game (one of its games, of its shards)."""
        return (self.games is None or game_id in self.games) and (self.shards is None or self.shards.owns(game_id))

    def _guarded(self, game_id: str, seen: int | None) -> dict[str, str]:
        try:
            return self.handle(game_id, seen)
        except redis.RedisError:
            raise  # leave the entry pending: it is redelivered once Redis is back
        except Exception:  # a broken game must not stop every other game's bots
            log.exception("reactor: game %s could not be handled", game_id)
            return {}

    # -- what follows an event -------------------------------------------------------

    def handle(self, game_id: str, seen: int | None = None) -> dict[str, str]:
        """Schedule the jobs the table says ``game_id`` needs now.

        Returns the scheduler's outcome per job kind (``{"bot": "enqueued"}``;
        empty when nothing is due). ``seen`` is the last seq the feed entry
        announced. When the game is already further, a later entry will
        announce it, so this one is skipped.
        """
        try:
            if seen is not None and self.store.version(game_id) > seen:
                return {}
            g = self.service.load(game_id)
        except GameNotFound:
            log.warning("reactor: game %s is gone", game_id)
            return {}
        outcomes = {}
        for kind in table.due(g):
            outcomes[kind.name] = self.scheduler.schedule(kind.name, game_id, g.version,
                                                          at=kind.when(g) if kind.when else None)
            if outcomes[kind.name] == "replaced":
                log.warning("reactor: %s job of game %s at version %d replaced (its worker died or it failed)",
                            kind.name, game_id, g.version)
        return outcomes

    def sweep(self) -> None:
        """Re-handle the active games that did not move since the last sweep, and new ones."""
        _, ids = self.store.indexes.page("status:active")
        ids = [gid for gid in ids if self.mine(gid)]
        versions = {gid: int(v) for gid, v in self.store.reads.meta_field(ids, "version").items()}
        for gid, version in versions.items():
            if self._swept.get(gid, version) == version:
                self._guarded(gid, None)
        self._swept = versions
