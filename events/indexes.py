"""The lobby's indexes: sorted sets of game ids, newest first (``all``, ``game:<id>``,
``status:<s>``, ``player:<id>``). Single-key commands only, so a Redis Cluster can hold them."""
from __future__ import annotations

import redis
from redis.client import Pipeline

from events.keys import Keys
from events.replies import as_text


class Indexes:
    def __init__(self, r: redis.Redis, keys: Keys):
        self.r, self.keys = r, keys

    def put(self, game_id: str, score: float, indexes: list[str], unindexes: list[str],
            tx: Pipeline | None = None) -> None:
        """Add ``game_id`` to ``indexes`` (with ``score``) and drop it from ``unindexes``. Given ``tx``
        (a follower's transaction, see ``Tracking.apply``), the writes join it."""
        pipe = tx if tx is not None else self.r.pipeline(transaction=False)
        for index in indexes:
            pipe.zadd(self.keys.lobby(index), {game_id: score})
        for index in unindexes:
            pipe.zrem(self.keys.lobby(index), game_id)
        if tx is None:
            pipe.execute()

    def page(self, index: str, offset: int = 0, limit: int | None = None) -> tuple[int, list[str]]:
        """(size of ``index``, its ids newest first from ``offset``, at most ``limit``)."""
        key = self.keys.lobby(index)
        end = -1 if limit is None else offset + limit - 1
        pipe = self.r.pipeline(transaction=False)
        pipe.zcard(key)
        pipe.zrevrange(key, offset, end)
        total, ids = pipe.execute()
        return total, [as_text(i) for i in ids]

    def rank(self, index: str, game_id: str) -> int | None:
        """Where ``game_id`` stands in ``index``, newest first (None: not in it)."""
        return self.r.zrevrank(self.keys.lobby(index), game_id)

    def contains(self, index: str, game_ids: list[str]) -> list[bool]:
        """Whether each of ``game_ids`` is in ``index``."""
        if not game_ids:
            return []
        return [score is not None for score in self.r.zmscore(self.keys.lobby(index), game_ids)]
