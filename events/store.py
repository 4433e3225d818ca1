"""The Redis Streams event store: atomic appends, snapshots, reads, export.

One stream per game (entry ID ``<seq>-0``), one meta hash, one snapshot, and
one feed stream per partition that reactors consume. The append is a single
Lua script, so the events, the new version and the feed entry land together
or not at all; a stale ``expected_version`` is an ordinary outcome
(:class:`VersionConflict`), not a crash.
"""
from __future__ import annotations

import json
from collections import OrderedDict
from importlib import resources
from typing import Any, Iterator

import redis

from domain.core import Game, State, canonical_json, fold
from events.envelope import GENESIS, domain_events, seal
from events.keys import Keys

IDEMPOTENCY_TTL = 24 * 3600


class VersionConflict(Exception):
    """``expected_version`` was stale; ``current`` is the version now stored."""

    def __init__(self, current: int):
        super().__init__(f"version conflict: current version is {current}")
        self.current = current


class GameNotFound(Exception):
    pass


class GameExists(Exception):
    pass


class RedisEventStore:
    """Stores game logs in Redis. Takes any ``redis.Redis`` (or a Cluster client)."""

    def __init__(self, r: redis.Redis, *, partitions: int = 16, snapshot_every: int = 50, prefix: str = "delve",
                 cache_size: int = 256):
        self.r = r
        self.cache_size = cache_size
        self._cache: OrderedDict[str, tuple[int, str]] = OrderedDict()
        self.keys = Keys(prefix, partitions)
        self.snapshot_every = snapshot_every
        self._append = r.register_script(resources.files("events").joinpath("append.lua").read_text())

    # -- writing -------------------------------------------------------------

    def create(self, game_id: str, meta: dict[str, str], events: list[dict], *, command_id: str,
               at: str, rules_version: str) -> list[dict]:
        """Write a new game's first events and its meta hash; GameExists if taken."""
        envs = seal(events, game_id=game_id, first_seq=1, prev_hash=GENESIS, seat=None,
                    command_id=command_id, command=None, at=at, rules_version=rules_version)
        status, current = self._run(game_id, -1, envs, meta)
        if status != 1:
            raise GameExists(game_id)
        return envs

    def append(self, game_id: str, expected_version: int, events: list[dict], *, seat: int | None,
               command_id: str, command: dict | None, at: str, rules_version: str,
               meta: dict[str, str] | None = None) -> list[dict]:
        """Append a batch if the stored version is ``expected_version``.

        Raises VersionConflict (with the current version) otherwise, and
        GameNotFound for an unknown game. ``meta`` fields are set atomically
        with the append (status changes, finished_at).
        """
        if not events:
            raise ValueError("an append needs at least one event: the head hash names the last one")
        head = self.r.hget(self.keys.meta(game_id), "head")
        if head is None:
            raise GameNotFound(game_id)
        head = head.decode() if isinstance(head, bytes) else head
        envs = seal(events, game_id=game_id, first_seq=expected_version + 1, prev_hash=head, seat=seat,
                    command_id=command_id, command=command, at=at, rules_version=rules_version)
        # The head read above belongs to whatever version was stored then; the
        # script re-checks the version, so a batch chained to a stale head
        # can never land.
        status, current = self._run(game_id, expected_version, envs, meta or {})
        if status == -1:
            raise GameNotFound(game_id)
        if status == 0:
            raise VersionConflict(current)
        return envs

    def _run(self, game_id: str, expected: int, envs: list[dict], meta: dict[str, str]) -> tuple[int, int]:
        k = self.keys
        head = envs[-1]["hash"] if envs else ""
        flat_meta = [x for kv in meta.items() for x in kv]
        types = ",".join(sorted({e["type"] for e in envs}))
        res = self._append(
            keys=[k.meta(game_id), k.events(game_id), k.feed_of(game_id)],
            args=[expected, head, game_id, types, len(meta), *flat_meta, *(canonical_json(e) for e in envs)],
        )
        return int(res[0]), int(res[1])

    # -- reading -------------------------------------------------------------

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

    def read(self, game_id: str, after: int = 0, limit: int | None = None, upto: int | None = None) -> list[dict]:
        """Envelopes with ``after < seq <= upto``, oldest first, at most ``limit``."""
        end = f"{upto}-0" if upto is not None else "+"
        entries = self.r.xrange(self.keys.events(game_id), min=f"{after + 1}-0", max=end, count=limit)
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

    # -- state -----------------------------------------------------------------

    def load(self, game: Game, game_id: str, upto: int | None = None) -> tuple[State, int]:
        """The folded state at ``upto`` (default: now).

        Starts from the newest of: this process's cached state, the snapshot,
        the initial state; then folds the events after it. Events never
        change once written, so a cached (game, version) state is valid
        forever, in every process.
        """
        state, version = None, 0
        cached = self._cache.get(game_id)
        if cached is not None and (upto is None or cached[0] <= upto):
            version, state = cached[0], game.load_state(json.loads(cached[1]))
        else:
            raw = self.r.get(self.keys.snap(game_id))
            if raw is not None:
                snap = json.loads(raw)
                if upto is None or snap["version"] <= upto:
                    state, version = game.load_state(snap["state"]), snap["version"]
        tail = self.read(game_id, after=version, upto=upto)
        state = fold(game, domain_events(tail), state)
        if tail:
            version = tail[-1]["seq"]
            if upto is None:
                self.remember(game_id, version, game.dump_state(state))
        return state, version

    def remember(self, game_id: str, version: int, dumped: dict) -> None:
        """Cache a state this process holds (``dump_state`` form), LRU-bounded."""
        if self.cache_size <= 0:
            return
        self._cache[game_id] = (version, canonical_json(dumped))
        self._cache.move_to_end(game_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def maybe_snapshot(self, game_id: str, old_version: int, new_version: int, dumped: dict) -> bool:
        """Write a snapshot when the append crossed a multiple of ``snapshot_every``."""
        if new_version // self.snapshot_every == old_version // self.snapshot_every:
            return False
        self.r.set(self.keys.snap(game_id), canonical_json({"version": new_version, "state": dumped}))
        return True

    # -- idempotency -------------------------------------------------------------

    def idem_get(self, game_id: str, key: str) -> dict | None:
        raw = self.r.get(self.keys.idem(game_id, key))
        return json.loads(raw) if raw else None

    def idem_put(self, game_id: str, key: str, response: dict[str, Any]) -> None:
        self.r.set(self.keys.idem(game_id, key), canonical_json(response), ex=IDEMPOTENCY_TTL, nx=True)

    # -- waiting for events ------------------------------------------------------

    def wait(self, game_id: str, after: int, block_ms: int, count: int = 200) -> list[dict]:
        """Envelopes after ``after``, blocking up to ``block_ms`` for the first (XREAD BLOCK).

        A socket timeout that beats the block is the same as "nothing yet".
        """
        try:
            got = self.r.xread({self.keys.events(game_id): f"{after}-0"}, count=count, block=block_ms)
        except redis.TimeoutError:
            return []
        return [parse_entry(fields) for _id, fields in got[0][1]] if got else []

    # -- lobby indexes -------------------------------------------------------------

    def index_game(self, game_id: str, score: float, indexes: list[str], unindexes: list[str]) -> None:
        """Add ``game_id`` to the lobby indexes ``indexes`` (with ``score``) and drop it from ``unindexes``.

        Index names are ``all``, ``game:<id>``, ``status:<s>``; single-key
        commands only, so a Redis Cluster can hold them.
        """
        pipe = self.r.pipeline(transaction=False)
        for index in indexes:
            pipe.zadd(self.keys.lobby(index), {game_id: score})
        for index in unindexes:
            pipe.zrem(self.keys.lobby(index), game_id)
        pipe.execute()

    def indexed(self, index: str, offset: int = 0, limit: int | None = None) -> tuple[int, list[str]]:
        """(size of lobby index ``index``, its ids newest first from ``offset``, at most ``limit``)."""
        key = self.keys.lobby(index)
        end = -1 if limit is None else offset + limit - 1
        pipe = self.r.pipeline(transaction=False)
        pipe.zcard(key)
        pipe.zrevrange(key, offset, end)
        total, ids = pipe.execute()
        return total, [as_text(i) for i in ids]

    def index_rank(self, index: str, game_id: str) -> int | None:
        """Where ``game_id`` stands in lobby index ``index``, newest first (None: not in it)."""
        return self.r.zrevrank(self.keys.lobby(index), game_id)

    def in_index(self, index: str, game_ids: list[str]) -> list[bool]:
        """Whether each of ``game_ids`` is in lobby index ``index``."""
        if not game_ids:
            return []
        return [score is not None for score in self.r.zmscore(self.keys.lobby(index), game_ids)]

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

    # -- feeds and their consumer groups ---------------------------------------------

    def feeds(self) -> list[str]:
        """Every partition feed, by name (what the consumer-group methods take)."""
        return self.keys.all_feeds()

    def feed_of(self, game_id: str) -> str:
        return self.keys.feed_of(game_id)

    def ensure_group(self, feed: str, group: str, start_id: str) -> None:
        """Create consumer group ``group`` on ``feed`` reading from ``start_id`` (no-op if it exists)."""
        try:
            self.r.xgroup_create(feed, group, id=start_id, mkstream=True)
        except redis.ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    def drop_group(self, feed: str, group: str) -> None:
        try:
            self.r.xgroup_destroy(feed, group)
        except redis.ResponseError:
            pass

    def read_group(self, group: str, consumer: str, feeds: list[str], count: int,
                   block_ms: int | None) -> list[tuple[str, list[tuple[str, dict[str, str]]]]]:
        """New entries for ``consumer`` (XREADGROUP ``>``): ``[(feed, [(entry_id, fields)])]``."""
        resp = self.r.xreadgroup(group, consumer, {f: ">" for f in feeds}, count=count, block=block_ms)
        return [(as_text(feed), [(as_text(eid), _fields(f)) for eid, f in entries]) for feed, entries in resp or []]

    def claim(self, feed: str, group: str, consumer: str, min_idle_ms: int, start: str,
              count: int) -> tuple[str, list[tuple[str, dict[str, str]]], list[str]]:
        """XAUTOCLAIM: (next start, live entries taken over, ids of entries trimmed from the feed).

        Trimmed entries come back empty (Redis 6) or listed apart (Redis 7).
        """
        res = self.r.xautoclaim(feed, group, consumer, min_idle_ms, start_id=start, count=count)
        live = [(as_text(eid), _fields(f)) for eid, f in res[1] if f]
        gone = [as_text(eid) for eid, f in res[1] if not f] + [as_text(e) for e in (res[2] if len(res) > 2 else [])]
        return as_text(res[0]), live, gone

    def ack(self, feed: str, group: str, entry_ids: list[str]) -> None:
        if entry_ids:
            self.r.xack(feed, group, *entry_ids)

    def pending(self, feed: str, group: str) -> int:
        """Entries delivered to ``group`` on ``feed`` and not acknowledged yet."""
        return self.r.xpending(feed, group)["pending"]

    def consumers(self, feed: str, group: str) -> list[dict]:
        """``[{name, pending, idle}]`` of ``group`` on ``feed``."""
        return [{"name": as_text(c["name"]), "pending": c["pending"], "idle": c["idle"]}
                for c in self.r.xinfo_consumers(feed, group)]

    def drop_consumer(self, feed: str, group: str, consumer: str) -> None:
        self.r.xgroup_delconsumer(feed, group, consumer)

    # -- housekeeping ------------------------------------------------------------------

    @property
    def prefix(self) -> str:
        """The key prefix (a child process given it as DELVE_PREFIX reads the same data)."""
        return self.keys.prefix

    def account_client(self) -> redis.Redis:
        """The client for what lives beside the games under this prefix, outside any partition
        (players, ratings: ``events.players`` and ``events.ratings`` own those keys)."""
        return self.r

    def mark(self, game_id: str, field: str, value: str) -> None:
        """Set one bookkeeping field of a game's meta that no append depends on (``rated``)."""
        self.r.hset(self.keys.meta(game_id), field, value)

    def ping(self) -> bool:
        return bool(self.r.ping())

    def count_hit(self, bucket: str, ttl_seconds: int) -> int:
        """Count one hit in ``bucket`` (a fixed-window counter that expires) and return the count."""
        key = self.keys.counter(bucket)
        pipe = self.r.pipeline()
        pipe.incr(key)
        pipe.expire(key, ttl_seconds)
        count, _ = pipe.execute()
        return count

    def server_version(self) -> str | None:
        return self.r.info("server").get("redis_version")

    def purge(self) -> int:
        """Delete every key under this store's prefix (a throwaway prefix: tests, benchmarks)."""
        n = 0
        for key in self.r.scan_iter(f"{self.keys.prefix}:*", count=1000):
            n += self.r.delete(key)
        return n


def parse_entry(fields: dict) -> dict:
    """The envelope stored in one stream entry."""
    return json.loads(fields[b"e"] if b"e" in fields else fields["e"])


def _fields(raw: dict) -> dict[str, str]:
    return {as_text(k): as_text(v) for k, v in raw.items()}


def as_text(v: Any) -> str:
    """Redis replies are bytes unless the client decodes them; accept both."""
    return v.decode() if isinstance(v, bytes) else v
