"""Followers: processes that must handle each feed entry exactly once.

A :class:`Follower` (like eventsourcing's ``Follower.policy`` with its
tracking record) is a name and a policy. :class:`Follow` reads every
partition feed after the follower's tracked position and applies the policy
to each entry through ``store.tracking.apply``: the policy's writes and the
new position commit in one Redis transaction, so a redelivered entry (a
restart, a second process, a re-read) is recognised and skipped, and a crash
leaves either both or neither. A policy whose writes cannot join that
transaction (a rating update, a notification, a tournament's appends) is
idempotent instead: a crash before the position moved applies it again, to
no effect. The lobby projection, ratings, notifications and tournament
progress are followers; the job table (workers/table.py) lists them.

A new follower starts at the beginning of each feed (feeds keep about the
last 100 000 entries each). A policy that raises stops its feed at that entry,
logged, and the entry is tried again on the next step: nothing is skipped.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable

import redis

from application.service import GameService
from events.store import RedisEventStore
from events.tracking import Transaction

log = logging.getLogger("delve.follower")


@dataclass(frozen=True)
class FeedEntry:
    """One append as its partition feed announced it."""
    feed: str
    id: str
    game_id: str
    from_seq: int
    to_seq: int
    types: frozenset[str]

    @classmethod
    def parse(cls, feed: str, entry_id: str, fields: dict[str, str]) -> "FeedEntry":
        return cls(feed, entry_id, fields["game_id"], int(fields["from_seq"]), int(fields["to_seq"]),
                   frozenset(t for t in fields.get("types", "").split(",") if t))


Policy = Callable[[GameService, FeedEntry, Transaction], None]
"""``(service, entry, tx)``: read through the service, queue writes on ``tx`` (they commit with the position)."""


def game_logs(service: GameService) -> RedisEventStore:
    """The store whose feeds announce the games' appends."""
    return service.store


@dataclass(frozen=True)
class Follower:
    name: str  # names its tracking records: renaming a follower starts it over
    policy: Policy
    logs: Callable[[GameService], RedisEventStore] = game_logs  # whose feeds it follows


class Follow:
    """Runs one follower over the feeds; ``step`` is what a process loop calls."""

    def __init__(self, service: GameService, follower: Follower, *, feeds: list[str] | None = None,
                 count: int = 200):
        self.service = service
        self.store = follower.logs(service)
        self.follower = follower
        self.feeds = feeds or self.store.feeds()
        self.count = count

    def step(self, block_ms: int | None = None) -> int:
        """Apply the policy to the entries after the tracked positions; returns how many it applied."""
        applied = 0
        positions = self.store.tracking.positions(self.follower.name, self.feeds)
        for feed, entries in self.store.tracking.read(positions, self.count, block_ms):
            for entry_id, fields in entries:
                entry = FeedEntry.parse(feed, entry_id, fields)
                try:
                    if self.store.tracking.apply(self.follower.name, feed, entry_id,
                                                lambda tx: self.follower.policy(self.service, entry, tx)):
                        applied += 1
                except redis.RedisError:
                    raise
                except Exception:
                    log.exception("follower %s: entry %s of %s (game %s) failed; retried on the next step",
                                  self.follower.name, entry_id, feed, entry.game_id)
                    break
        return applied
