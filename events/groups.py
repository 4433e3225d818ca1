"""Consumer groups on the partition feeds: the reactor's share-the-work reading (XREADGROUP),
taking over what a dead consumer held (XAUTOCLAIM), acknowledging what was done."""
from __future__ import annotations

import redis
from redis.cluster import RedisCluster

from events import slots
from events.keys import Keys
from events.replies import as_text, fields

Entries = list[tuple[str, list[tuple[str, dict[str, str]]]]]  # [(feed, [(entry_id, fields)])]


class ConsumerGroups:
    def __init__(self, r: redis.Redis, keys: Keys):
        self.r, self.keys = r, keys
        self.cluster = isinstance(r, RedisCluster)

    def ensure(self, feed: str, group: str, start_id: str) -> None:
        """Create consumer group ``group`` on ``feed`` reading from ``start_id`` (no-op if it exists)."""
        try:
            self.r.xgroup_create(feed, group, id=start_id, mkstream=True)
        except redis.ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    def drop(self, feed: str, group: str) -> None:
        try:
            self.r.xgroup_destroy(feed, group)
        except redis.ResponseError:
            pass

    def read(self, group: str, consumer: str, feeds: list[str], count: int, block_ms: int | None,
             pending: bool = False) -> Entries:
        """New entries for ``consumer`` (XREADGROUP ``>``); with ``pending``, those delivered to it and
        not acknowledged yet (``0``; one trimmed from the feed since comes with no fields)."""
        since = "0" if pending else ">"
        if self.cluster:
            resp = slots.read_each(self.r, feeds, block_ms, lambda pipe, feed: pipe.xreadgroup(
                group, consumer, {feed: since}, count=count))
        else:
            resp = self.r.xreadgroup(group, consumer, {f: since for f in feeds}, count=count, block=block_ms)
        return [(as_text(feed), [(as_text(eid), fields(f) if f else {}) for eid, f in entries])
                for feed, entries in resp or []]

    def claim(self, feed: str, group: str, consumer: str, min_idle_ms: int, start: str,
              count: int) -> tuple[str, list[tuple[str, dict[str, str]]], list[str]]:
        """XAUTOCLAIM: (next start, live entries taken over, ids of entries trimmed from the feed).

        Trimmed entries come back empty (Redis 6) or listed apart (Redis 7).
        """
        res = self.r.xautoclaim(feed, group, consumer, min_idle_ms, start_id=start, count=count)
        live = [(as_text(eid), fields(f)) for eid, f in res[1] if f]
        gone = [as_text(eid) for eid, f in res[1] if not f] + [as_text(e) for e in (res[2] if len(res) > 2 else [])]
        return as_text(res[0]), live, gone

    def ack(self, feed: str, group: str, entry_ids: list[str]) -> None:
        if entry_ids:
            self.r.xack(feed, group, *entry_ids)

    def consumers(self, feed: str, group: str) -> list[dict]:
        """``[{name, pending, idle}]`` of ``group`` on ``feed``."""
        return [{"name": as_text(c["name"]), "pending": c["pending"], "idle": c["idle"]}
                for c in self.r.xinfo_consumers(feed, group)]

    def drop_consumer(self, feed: str, group: str, consumer: str) -> None:
        self.r.xgroup_delconsumer(feed, group, consumer)
