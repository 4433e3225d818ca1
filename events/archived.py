"""Compacted games' logs, read from their archive and unpacked once per process.

A finished game never changes, so the envelopes its archive rebuilds are kept
(LRU-bounded) for every read, wait and replay of it that follows.
"""
from __future__ import annotations

from collections import OrderedDict

import redis

from errors import BadArchive, GameNotFound
from events import archive
from events.keys import Keys
from events.replies import as_text

ARCHIVES_KEPT = 32  # unpacked archives kept per process (finished games never change)


class Archives:
    def __init__(self, r: redis.Redis, keys: Keys):
        self.r, self.keys = r, keys
        self._held: OrderedDict[str, list[dict]] = OrderedDict()

    def holds(self, game_id: str) -> bool:
        """Whether this process already unpacked the game's archive (then it has no stream to read)."""
        return game_id in self._held

    def envelopes(self, game_id: str) -> list[dict]:
        """The envelopes of a compacted game, checked against the game's head."""
        envs = self._held.get(game_id)
        if envs is None:
            pipe = self.r.pipeline(transaction=True)
            pipe.get(self.keys.archive(game_id))
            pipe.hget(self.keys.meta(game_id), "head")
            blob, head = pipe.execute()
            if blob is None:
                raise GameNotFound(game_id)
            envs = archive.unpack(blob)
            if envs and envs[-1]["hash"] != as_text(head):
                raise BadArchive(f"game {game_id}: the archive's chain ends at {envs[-1]['hash'][:12]}, "
                                         f"the game's head is {as_text(head)[:12]}")
            self._held[game_id] = envs
            while len(self._held) > ARCHIVES_KEPT:
                self._held.popitem(last=False)
        self._held.move_to_end(game_id)
        return envs


def window(envs: list[dict], after: int, upto: int | None, limit: int | None) -> list[dict]:
    """Envelopes of a whole log (seq n at index n - 1) with ``after < seq <= upto``, at most ``limit``."""
    end = len(envs) if upto is None else min(upto, len(envs))
    if limit is not None:
        end = min(end, after + limit)
    return envs[max(after, 0):end]
