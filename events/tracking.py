"""Followers' tracked positions in the partition feeds: each follower reads every feed after
the last entry it applied and applies each entry exactly once (``workers.follower``)."""
from __future__ import annotations

from collections.abc import Callable

import redis
from redis.client import Pipeline
from redis.cluster import RedisCluster

from events import slots
from events.groups import Entries
from events.keys import Keys
from events.replies import as_text, fields
from events.slots import stream_id

Transaction = Pipeline  # what an effect queues its writes on; they commit with the new position


class Tracking:
    def __init__(self, r: redis.Redis, keys: Keys):
        self.r, self.keys = r, keys
        self.cluster = isinstance(r, RedisCluster)

    def read(self, after: dict[str, str], count: int, block_ms: int | None = None) -> Entries:
        """Entries of each feed after the entry id given for it (XREAD)."""
        if self.cluster:
            resp = slots.read_each(self.r, list(after), block_ms,
                                   lambda pipe, feed: pipe.xread({feed: after[feed]}, count=count))
        else:
            resp = self.r.xread(after, count=count, block=block_ms)
        return [(as_text(feed), [(as_text(eid), fields(f)) for eid, f in entries]) for feed, entries in resp or []]

    def positions(self, follower: str, feeds: list[str]) -> dict[str, str]:
        """The last entry id ``follower`` applied in each feed (``0-0``: none yet)."""
        pipe = self.r.pipeline(transaction=False)
        for feed in feeds:
            pipe.get(self.keys.tracking(feed, follower))
        return {feed: as_text(v) if v is not None else "0-0" for feed, v in zip(feeds, pipe.execute())}

    def apply(self, follower: str, feed: str, entry_id: str, effect: Callable[[Transaction], None],
              attempts: int = 50) -> bool:
        """Apply ``effect`` for one feed entry exactly once; False if ``follower`` applied it already.

        The tracking record (the last entry id applied, one key per follower
        and feed) is WATCHed, checked and advanced in the same MULTI/EXEC as
        the writes ``effect`` queues on the transaction it is given: the effect
        and the new position land together or not at all, and a second
        process racing for the same entry finds it recorded and skips it.
        ``effect`` may read through the store, but only
        writes queued on the transaction are atomic.

        On a Redis Cluster the effect's keys may lie in other slots (the
        lobby's do), so there :func:`slots.apply_then_track` runs the effect
        first and advances the position after it: a crash between the two
        applies the effect again, so a follower must be idempotent there (the
        lobby projection is: it re-indexes the game from its meta hash).
        """
        key = self.keys.tracking(feed, follower)
        if self.cluster:
            return slots.apply_then_track(self.r, key, entry_id, effect)
        with self.r.pipeline(transaction=True) as tx:
            for _ in range(attempts):
                try:
                    tx.watch(key)
                    done = tx.get(key)
                    if done is not None and stream_id(done) >= stream_id(entry_id):
                        tx.unwatch()
                        return False
                    tx.multi()
                    effect(tx)
                    tx.set(key, entry_id)
                    tx.execute()
                    return True
                except redis.WatchError:
                    continue  # another process moved this position: look again
        raise RuntimeError(f"follower {follower!r} lost the race for {feed} {entry_id} {attempts} times; "
                           "are many processes running it? it is retried on the next step")
