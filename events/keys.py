"""The Redis key layout of DESIGN.md. Every key of a game carries its partition's
hash tag ``{p<k>}`` so the append script touches one Cluster slot only."""
from __future__ import annotations

import zlib
from dataclasses import dataclass


def partition_of(key: str, partitions: int) -> int:
    """The partition of a game (or tournament) id: what names its keys and, modulo
    DELVE_SHARDS, which reactor and queue handle it (application/shards.py)."""
    return zlib.crc32(key.encode()) % partitions


@dataclass(frozen=True)
class Keys:
    prefix: str = "delve"
    partitions: int = 16

    def partition(self, game_id: str) -> int:
        return partition_of(game_id, self.partitions)

    def _g(self, game_id: str) -> str:
        return f"{self.prefix}:{{p{self.partition(game_id)}}}:g:{game_id}"

    def events(self, game_id: str) -> str:
        return self._g(game_id) + ":events"

    def meta(self, game_id: str) -> str:
        return self._g(game_id) + ":meta"

    def snap(self, game_id: str) -> str:
        return self._g(game_id) + ":snap"

    def archive(self, game_id: str) -> str:
        """A finished game's compacted log (``events.archive``), which replaces its stream and snapshot."""
        return self._g(game_id) + ":archive"

    def idem(self, game_id: str, key: str) -> str:
        return self._g(game_id) + f":idem:{key}"

    def feed_of(self, game_id: str) -> str:
        return self.feed(self.partition(game_id))

    def feed(self, partition: int) -> str:
        return f"{self.prefix}:{{p{partition}}}:feed"

    def tracking(self, feed: str, follower: str) -> str:
        """A follower's position in one feed: ``delve:{p<k>}:feed:track:<follower>`` (the feed's slot)."""
        return f"{feed}:track:{follower}"

    def all_feeds(self) -> list[str]:
        return [self.feed(p) for p in range(self.partitions)]

    def lobby(self, index: str) -> str:
        """``delve:games:all``, ``delve:games:status:active``, ``delve:games:game:saboteur``."""
        return f"{self.prefix}:games:{index}"

    def counter(self, bucket: str) -> str:
        """A short-lived counter (the API's rate limit): ``delve:rl:<bucket>``."""
        return f"{self.prefix}:rl:{bucket}"

    def player(self, *parts: str) -> str:
        """A player's account keys, outside any partition: ``delve:players:<id>``, ``...:<id>:games``,
        ``...:<id>:feed``, ``delve:players:token:<digest>``."""
        return ":".join((self.prefix, "players", *parts))

    def ratings(self, *parts: str) -> str:
        """``delve:{ratings}:...``: one hash tag for every ratings key, so a rating update's
        WATCH/MULTI stays in one Redis Cluster slot."""
        return ":".join((self.prefix, "{ratings}", *parts))

    def holds(self, bucket: str) -> str:
        """Counted, expiring holds (an identity's open streams): ``delve:holds:<bucket>``."""
        return f"{self.prefix}:holds:{bucket}"
