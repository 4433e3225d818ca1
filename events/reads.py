"""Reading games: meta hashes and envelopes, now or blocking until the next ones come.

A compacted game's envelopes come from its archive (:mod:`events.archived`),
the same ones its stream held.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Iterator

import redis

from domain.core import canonical_json
from errors import GameNotFound
from events.archived import Archives, window
from events.hub import FeedHub, News
from events.keys import Keys
from events.replies import as_text, parse_entry


class Reads:
    def __init__(self, r: redis.Redis, keys: Keys, archives: Archives, hub: FeedHub | None = None):
        self.r, self.keys, self.archives, self.hub = r, keys, archives, hub

    def meta(self, game_id: str) -> dict[str, str]:
        raw = self.r.hgetall(self.keys.meta(game_id))
        if not raw:
            raise GameNotFound(game_id)
        return {as_text(k): as_text(v) for k, v in raw.items()}

    def version(self, game_id: str) -> int:
        v = self.r.hget(self.keys.meta(game_id), "version")
        if v is None:
            raise GameNotFound(game_id)
        return int(v)

    def metas(self, game_ids: list[str]) -> list[dict[str, str] | None]:
        """The meta hash of each game (None for a game that is gone), in one round trip."""
        pipe = self.r.pipeline(transaction=False)
        for gid in game_ids:
            pipe.hgetall(self.keys.meta(gid))
        return [{as_text(k): as_text(v) for k, v in raw.items()} if raw else None for raw in pipe.execute()]

    def meta_field(self, game_ids: list[str], field: str) -> dict[str, str]:
        """One meta field of each game that has it, in one round trip (status, version...)."""
        pipe = self.r.pipeline(transaction=False)
        for gid in game_ids:
            pipe.hget(self.keys.meta(gid), field)
        return {gid: as_text(v) for gid, v in zip(game_ids, pipe.execute()) if v is not None}

    def mark(self, game_id: str, field: str, value: str) -> None:
        """Set one bookkeeping field of a game's meta that no append depends on (``rated``)."""
        self.r.hset(self.keys.meta(game_id), field, value)

    def read(self, game_id: str, after: int = 0, limit: int | None = None, upto: int | None = None) -> list[dict]:
        """Envelopes with ``after < seq <= upto``, oldest first, at most ``limit`` (a compacted game's from its archive)."""
        pipe = self.r.pipeline(transaction=True)  # MULTI: the stream or the archive that replaced it, never neither
        pipe.xrange(self.keys.events(game_id), min=f"{after + 1}-0", max="+" if upto is None else f"{upto}-0",
                    count=limit)
        pipe.exists(self.keys.archive(game_id))
        entries, archived = pipe.execute()
        if archived:
            return window(self.archives.envelopes(game_id), after, upto, limit)
        return [parse_entry(fields) for _id, fields in entries]

    def iter_all(self, game_id: str, batch: int = 500) -> Iterator[dict]:
        after = 0
        while True:
            chunk = self.read(game_id, after=after, limit=batch)
            yield from chunk
            if len(chunk) < batch:
                return
            after = chunk[-1]["seq"]

    def export(self, game_id: str) -> Iterator[str]:
        """NDJSON lines, one canonical envelope each."""
        for env in self.iter_all(game_id):
            yield canonical_json(env) + "\n"

    def wait(self, game_id: str, after: int, block_ms: int, count: int = 200) -> list[dict]:
        """Envelopes after ``after``, waiting up to ``block_ms`` for the first (one wait of :meth:`follow`)."""
        with self.follow(game_id) as follower:
            return follower.wait(after, block_ms, count)[0]

    @contextmanager
    def follow(self, game_id: str) -> Iterator["Follower"]:
        """A follower of the game for a stream's life: its waits share one subscription to the hub."""
        follower = Follower(self, game_id)
        try:
            yield follower
        finally:
            follower.close()


class Follower:
    """Waits, again and again, for a game's next envelopes.

    With a hub (one Redis server) a wait costs no Redis connection: the hub's one
    read of the partition feeds wakes it and most often hands it the new envelopes
    and meta too (events.hub). The subscription lasts from the first wait to
    :meth:`close`, so an append between two waits is seen by the second, and a
    wait that times out with nothing new (a keep-alive) costs no round trip. On a
    Cluster each wait reads the game's own stream with XREAD BLOCK; a socket
    timeout that beats the block is the same as "nothing yet".
    """

    def __init__(self, reads: Reads, game_id: str):
        self.reads, self.game_id = reads, game_id
        self.sub = reads.hub.subscribe(game_id) if reads.hub is not None else None
        self.fresh = True  # the first wait reads: whatever landed before the subscription

    def close(self) -> None:
        if self.sub is not None:
            self.reads.hub.unsubscribe(self.game_id, self.sub)
            self.sub = None

    def wait(self, after: int, block_ms: int, count: int = 200) -> tuple[list[dict], News | None]:
        """Envelopes after ``after`` (at most ``count``), waiting up to ``block_ms`` for the first, and the
        hub's news they came from (its meta, its memo shared by every follower it was handed to), else
        None: they were read here."""
        reads, game_id = self.reads, self.game_id
        if self.sub is None:
            if reads.archives.holds(game_id) or reads.r.exists(reads.keys.archive(game_id)):
                return window(reads.archives.envelopes(game_id), after, None, count), None  # compacted: no stream
            try:
                got = reads.r.xread({reads.keys.events(game_id): f"{after}-0"}, count=count, block=block_ms)
            except redis.TimeoutError:
                return [], None
            return ([parse_entry(fields) for _id, fields in got[0][1]] if got else []), None
        deadline = time.monotonic() + block_ms / 1000
        while True:
            if self.fresh or self.sub.event.is_set():
                self.fresh = False
                self.sub.event.clear()  # before looking: an append from now on sets it again
                news = self.sub.take()
                if news is not None and news.first <= after + 1 <= news.last:
                    return [e for e in news.envs if e["seq"] > after][:count], news
                envs = reads.read(game_id, after=after, limit=count)
                if envs:
                    return envs, None
            left = deadline - time.monotonic()
            if left <= 0 or not self.sub.event.wait(left):
                return [], None
