"""The Redis Streams event store: atomic appends, snapshots, reads, export.

One stream per game (entry ID ``<seq>-0``), one meta hash, one snapshot, and
one feed stream per partition that reactors consume. The append is a single
Lua script, so the events, the new version and the feed entry land together
or not at all; a stale ``expected_version`` is an ordinary outcome
(:class:`VersionConflict`), not a crash.
"""
from __future__ import annotations

import json
import logging
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from importlib import resources
from typing import Any, Callable, Iterator, NamedTuple

import orjson
import redis
from redis.client import Pipeline
from redis.cluster import RedisCluster

from domain.core import Game, State, canonical_json, fold
from events import archive, replication, slots
from events.checkpoints import Checkpoints, dumped, dumps, own
from events.envelope import GENESIS, domain_events, first_broken_link, loads, seal
from events.keys import Keys
from events.slots import stream_id

log = logging.getLogger("delve.store")

IDEMPOTENCY_TTL = 24 * 3600
IDEMPOTENCY_LEASE_MS = 10_000  # how long a request may hold a key before another may take it over
PENDING = "pending:"
# The envelope fields the append script places between the ones it fills in ("at" first, "hash" and
# "prev_hash" in the middle); canonical JSON sorts keys, so these are the spans around them.
BEFORE_PREV = ("command", "command_id", "data", "game_id")
AFTER_PREV = ("rules_version", "seat", "seq", "type")
_RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"
# Compaction (KEYS meta, events, snapshot, archive; ARGV version, archive): only if the game is still at
# the version the archive was built from, so no event can slip between the read and the delete.
_COMPACT = """if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[4], ARGV[2])
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HSET', KEYS[1], 'compacted', '1')
return 1"""
# The read of a cached game (KEYS meta, events, archive; ARGV the cached version's entry id):
# {} for no game; {meta, 1} for a compacted one; {meta, 0, entries from that id on}.
_OPEN = """local meta = redis.call('HGETALL', KEYS[1])
if #meta == 0 then return {} end
if redis.call('EXISTS', KEYS[3]) == 1 then return {meta, 1} end
return {meta, 0, redis.call('XRANGE', KEYS[2], ARGV[1], '+')}"""
ARCHIVES_KEPT = 32  # unpacked archives kept per process (finished games never change)
REPLAYS_KEPT = 16  # games whose past states this process keeps checkpoints of (``events.checkpoints``)


class VersionConflict(Exception):
    """``expected_version`` was stale; ``current`` is the version now stored."""

    def __init__(self, current: int):
        super().__init__(f"version conflict: current version is {current}")
        self.current = current


class GameNotFound(Exception):
    pass


class GameExists(Exception):
    pass


class KeyAlreadyUsed(Exception):
    """The idempotency key of an append already names a committed batch (``record``)."""

    def __init__(self, record: dict):
        super().__init__("idempotency key already used")
        self.record = record


class CorruptLog(Exception):
    """A game's stored log does not hold together (chain, count or head): it is never compacted."""


class Cached(NamedTuple):
    """A state this process holds: ``version``, its last event's ``head``, the state as JSON bytes."""

    version: int
    head: str
    state: bytes


class Folded(NamedTuple):
    """A game's state at ``version``, whose last event's hash is ``head``."""

    state: State
    version: int
    head: str


@dataclass(frozen=True)
class Claim:
    """The outcome of claiming an idempotency key: ours (``token``), done (``record``) or held elsewhere."""

    token: str | None = None
    record: dict | None = None
    pending_fingerprint: str | None = None


class RedisEventStore:
    """Stores game logs in Redis. Takes any ``redis.Redis`` (or a Cluster client)."""

    def __init__(self, r: redis.Redis, *, partitions: int = 16, snapshot_every: int = 50, prefix: str = "delve",
                 cache_size: int = 256, wait_replicas: int = 0, wait_timeout_ms: int = 1000):
        self.r = r
        self.cluster = isinstance(r, RedisCluster)
        self.wait_replicas, self.wait_timeout_ms = wait_replicas, wait_timeout_ms  # events/replication.py
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Cached] = OrderedDict()
        self._archives: OrderedDict[str, list[dict]] = OrderedDict()
        self._replays: OrderedDict[str, Checkpoints] = OrderedDict()
        self.rollbacks = 0  # cached or snapshot states found ahead of, or off, what Redis holds
        self.keys = Keys(prefix, partitions)
        self.snapshot_every = snapshot_every
        # Told (game_id, version, at, meta fields written) after each append; the application adds a
        # clock's timer there at once (application/runtime.py). A failure is logged: the write stands.
        self.after_append: Callable[[str, int, str, dict[str, str]], None] | None = None
        lua = resources.files("events")
        self._append = r.register_script(lua.joinpath("sha256.lua").read_text() + lua.joinpath("append.lua").read_text())
        self._release = r.register_script(_RELEASE)
        self._compact = r.register_script(_COMPACT)
        self._open = r.register_script(_OPEN)

    # -- writing -------------------------------------------------------------

    def create(self, game_id: str, meta: dict[str, str], events: list[dict], *, command_id: str,
               rules_version: str) -> list[dict]:
        """Write a new game's first events and its meta hash (``created_at`` = the append time); GameExists if taken."""
        return self._write(game_id, -1, GENESIS, events, seat=None, command_id=command_id, command=None,
                           rules_version=rules_version, meta=meta, stamp=("created_at",), idem=None)

    def append(self, game_id: str, expected_version: int, events: list[dict], *, expected_head: str,
               seat: int | None, command_id: str, command: dict | None, rules_version: str,
               meta: dict[str, str] | None = None, stamp: tuple[str, ...] = (),
               idem: tuple[str, dict] | None = None) -> list[dict]:
        """Append a batch if the stored version is ``expected_version`` and its head ``expected_head``.

        The head check means a command decided on a state Redis no longer
        holds (Redis lost writes, then the game went on along another branch)
        can never land: VersionConflict either way. GameNotFound for an
        unknown game. ``meta`` fields are set atomically with the append,
        ``stamp`` fields to its time (``finished_at``). ``idem`` = (key,
        record): the record is stored with the events, in the same script;
        KeyAlreadyUsed if that key already names a committed batch.
        """
        if not events:
            raise ValueError("an append needs at least one event: the head hash names the last one")
        return self._write(game_id, expected_version, expected_head, events, seat=seat, command_id=command_id,
                           command=command, rules_version=rules_version, meta=meta or {}, stamp=stamp, idem=idem)

    def _write(self, game_id: str, expected: int, head: str, events: list[dict], *, seat: int | None,
               command_id: str, command: dict | None, rules_version: str, meta: dict[str, str],
               stamp: tuple[str, ...], idem: tuple[str, dict] | None) -> list[dict]:
        """Run the append script, then rebuild the envelopes it stored (Python and Lua hash alike)."""
        k = self.keys
        first_seq = max(expected, 0) + 1
        drafts = seal(events, game_id=game_id, first_seq=first_seq, prev_hash=head, seat=seat,
                      command_id=command_id, command=command, at="", rules_version=rules_version)
        spans = [canonical_json({f: env[f] for f in fields})[1:-1]
                 for env in drafts for fields in (BEFORE_PREV, AFTER_PREV)]
        types = ",".join(sorted({e["type"] for e in drafts}))
        keys = [k.meta(game_id), k.events(game_id), k.feed_of(game_id),
                k.idem(game_id, idem[0]) if idem else k.meta(game_id)]
        args = [expected, head, game_id, types, canonical_json(idem[1]) if idem else "", IDEMPOTENCY_TTL,
                len(meta), *(x for kv in meta.items() for x in kv), len(stamp), *stamp, *spans]
        if self.wait_replicas > 0:
            res = replication.run_acknowledged(self._append, self.r, keys, args, self.wait_replicas,
                                               self.wait_timeout_ms, game_id)
        else:
            res = self._append(keys=keys, args=args)
        status = int(res[0])
        if status == -1:
            raise GameNotFound(game_id)
        if status == 2:
            raise KeyAlreadyUsed(json.loads(res[2]))
        if status == 3:
            self._lost(game_id, f"an append expected head {head[:12]} at version {expected}, Redis holds another")
        if status != 1:
            raise GameExists(game_id) if expected < 0 else VersionConflict(int(res[1]))
        envs = seal(events, game_id=game_id, first_seq=first_seq, prev_hash=head, seat=seat,
                    command_id=command_id, command=command, at=as_text(res[2]), rules_version=rules_version)
        if envs[-1]["hash"] != as_text(res[3]):
            raise RuntimeError(f"game {game_id}: the append script and envelope.seal hash differently")
        if self.after_append is not None and meta:
            try:
                self.after_append(game_id, envs[-1]["seq"], envs[-1]["at"], meta)
            except Exception:
                log.warning("game %s: what follows the append at version %d failed", game_id, envs[-1]["seq"],
                            exc_info=True)
        return envs

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
        """Envelopes with ``after < seq <= upto``, oldest first, at most ``limit`` (a compacted game's from its archive)."""
        pipe = self.r.pipeline(transaction=True)  # MULTI: the stream or the archive that replaced it, never neither
        pipe.xrange(self.keys.events(game_id), min=f"{after + 1}-0", max="+" if upto is None else f"{upto}-0",
                    count=limit)
        pipe.exists(self.keys.archive(game_id))
        entries, archived = pipe.execute()
        if archived:
            return _window(self._archived(game_id), after, upto, limit)
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

    def open(self, game_id: str, resolve: Callable[[dict[str, str]], Game]) -> tuple[dict[str, str], Folded]:
        """A game's meta hash and its state now, in one round trip when this process holds the state.

        The meta, the events after the cached version and whether an archive
        replaced them are read by one script (one command: a MULTI of three cost
        the client five replies to parse); ``resolve`` names the game from the
        meta. Without a cached state: the meta, then :meth:`load`.
        """
        cached = self._cache.get(game_id)
        if cached is not None:
            k = self.keys
            got = self._open(keys=[k.meta(game_id), k.events(game_id), k.archive(game_id)],
                             args=[f"{max(cached.version, 1)}-0"])
            if not got:
                self._cache.pop(game_id, None)
                raise GameNotFound(game_id)
            # Decoded inline: a call of as_text per field was a quarter of open's own CPU in a profiled read.
            flat = [v.decode() if type(v) is bytes else v for v in got[0]]
            meta = dict(zip(flat[0::2], flat[1::2]))
            game = resolve(meta)
            envs = _window(self._archived(game_id), cached.version - 1, None, None) if got[1] else \
                [loads(entry[1][1]) for entry in got[2]]
            folded = self._onto(game, game_id, cached, envs, int(meta["version"]))
            if folded is not None:
                if folded.version != cached.version:
                    self.remember(game, game_id, folded.version, folded.head, folded.state)
                return meta, folded
        meta = self.meta(game_id)
        return meta, self.load(resolve(meta), game_id)

    def load(self, game: Game, game_id: str, upto: int | None = None) -> Folded:
        """The folded state at ``upto`` (default: now; a past version comes from :meth:`_past`).

        The state now starts from the newest of: this process's cached state, the snapshot,
        the initial state; then folds the events after it. A cached or
        snapshot state is trusted only if Redis still holds its version with
        the same head hash, checked in the round trip that reads the events
        after it: Redis can lose its last writes (an AOF with ``everysec``, a
        failover to a lagging replica), and a state from a lost branch would
        otherwise be served and decided on.
        """
        if upto is not None:
            return self._past(game, game_id, upto)
        cached = self._cache.get(game_id)
        if cached is not None:
            stored, envs = self._tail(game_id, cached.version)
            folded = self._onto(game, game_id, cached, envs, stored)
            if folded is not None:
                if folded.version != cached.version:
                    self.remember(game, game_id, folded.version, folded.head, folded.state)
                return folded
        snap = self._snapshot(game_id)
        folded = None
        if snap is not None:
            stored, envs = self._tail(game_id, snap.version)
            folded = self._onto(game, game_id, snap, envs, stored)
        if folded is None:
            _stored, envs = self._tail(game_id, 0)
            folded = Folded(fold(game, domain_events(envs)), envs[-1]["seq"] if envs else 0,
                            envs[-1]["hash"] if envs else GENESIS)
        self.remember(game, game_id, folded.version, folded.head, folded.state)
        return folded

    def _past(self, game: Game, game_id: str, upto: int) -> Folded:
        """The state at ``upto`` from this process's checkpoints of the game, extended with the
        events appended since in one round trip that also checks Redis still holds the last
        one it read (else they are rebuilt: Redis lost writes)."""
        held = self._replays.get(game_id)
        if held is not None and held.game is not game:
            held = None
        stored, envs = self._tail(game_id, held.version if held else 0)
        if held is not None:
            if not envs or envs[0]["seq"] != held.version or envs[0]["hash"] != held.head:
                self._lost(game_id, f"a replay's version {held.version} (head {held.head[:12]}) is not in Redis, "
                           f"which holds version {stored}")
                held = None
                stored, envs = self._tail(game_id, 0)
            else:
                envs = envs[1:]
        if held is None:
            held = Checkpoints(game)
        held.extend(envs)
        if held.version:
            self._replays[game_id] = held
            self._replays.move_to_end(game_id)
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)
        version = min(upto, held.version)
        return Folded(held.at(version), version, held.envs[version - 1]["hash"] if version else GENESIS)

    def replayed(self, game_id: str, after: int, limit: int) -> list[dict]:
        """:meth:`read`, answered from the envelopes a replay (``load`` with ``upto``) just checked
        against Redis when this process holds them; else from Redis."""
        held = self._replays.get(game_id)
        if held is not None and after + limit <= held.version:
            return held.envs[after:after + limit]
        return self.read(game_id, after=after, limit=limit)

    def _snapshot(self, game_id: str) -> Cached | None:
        raw = self.r.get(self.keys.snap(game_id))
        if raw is None:
            return None
        snap = orjson.loads(raw)
        if "head" not in snap:
            return None  # a snapshot without a head cannot be checked against the log: fold instead
        return Cached(snap["version"], snap["head"], orjson.dumps(snap["state"]))

    def _tail(self, game_id: str, since: int) -> tuple[int, list[dict]]:
        """(the stored version, the envelopes from ``since`` on) of one moment."""
        pipe = self.r.pipeline(transaction=True)  # MULTI: the version, head and events of one moment
        pipe.hget(self.keys.meta(game_id), "version")
        pipe.xrange(self.keys.events(game_id), min=f"{max(since, 1)}-0", max="+")
        pipe.exists(self.keys.archive(game_id))
        stored, entries, archived = pipe.execute()
        if stored is None:
            self._cache.pop(game_id, None)
            raise GameNotFound(game_id)
        if archived:
            return int(stored), _window(self._archived(game_id), max(since, 1) - 1, None, None)
        return int(stored), [parse_entry(fields) for _id, fields in entries]

    def _onto(self, game: Game, game_id: str, base: Cached, envs: list[dict], stored: int) -> Folded | None:
        """Fold ``envs`` (from ``base``'s own event on) onto ``base``; None if Redis does not hold ``base``."""
        if not envs or envs[0]["seq"] != base.version or envs[0]["hash"] != base.head:
            self._lost(game_id, f"a state at version {base.version} (head {base.head[:12]}) is not in Redis, "
                       f"which holds version {stored}")
            return None
        tail = envs[1:]
        state = fold(game, domain_events(tail), own(game, orjson.loads(base.state)))
        return Folded(state, tail[-1]["seq"] if tail else base.version, tail[-1]["hash"] if tail else base.head)

    def _lost(self, game_id: str, what: str) -> None:
        """Redis lost writes this process saw (rollback): drop the cache, say so, count it for /metrics."""
        self._cache.pop(game_id, None)
        self.rollbacks += 1
        log.warning("game %s: %s; Redis lost acknowledged writes (restart from an older AOF or a failover?). "
                    "Dropped the cached state; serving what Redis holds.", game_id, what)

    def remember(self, game: Game, game_id: str, version: int, head: str, state: State) -> None:
        """Cache a state this process holds with its head hash, LRU-bounded (serialized: the caller keeps its object)."""
        if self.cache_size <= 0:
            return
        self._cache[game_id] = Cached(version, head, dumps(dumped(game, state)))
        self._cache.move_to_end(game_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def maybe_snapshot(self, game: Game, game_id: str, old_version: int, new_version: int, head: str,
                       state: State) -> bool:
        """Write a snapshot when the append crossed a multiple of ``snapshot_every``."""
        if new_version // self.snapshot_every == old_version // self.snapshot_every:
            return False
        self.r.set(self.keys.snap(game_id), dumps({"version": new_version, "head": head,
                                                   "state": dumped(game, state)}))
        return True

    # -- compaction ----------------------------------------------------------------

    def compact(self, game_id: str) -> bool:
        """Replace a game's stream and snapshot by one archive (``events.archive``); drop its idempotency keys.

        For a game that takes no more events (the caller checks: finished or
        aborted). The log is checked whole first (chain, count, head) and the
        archive must rebuild it exactly; the swap happens only if no event was
        appended since it was read. False if already compacted or it moved.
        """
        meta = self.meta(game_id)
        if meta.get("compacted") == "1":
            return False
        envs = self.read(game_id)
        bad, why = first_broken_link(envs)
        if bad is not None or len(envs) != int(meta["version"]) or (envs and envs[-1]["hash"] != meta.get("head")):
            raise CorruptLog(f"game {game_id}: not compacted, its log does not hold together "
                             f"({why or 'count or head differ from the meta'})")
        blob = archive.pack(envs)
        if [canonical_json(e) for e in archive.unpack(blob)] != [canonical_json(e) for e in envs]:
            raise CorruptLog(f"game {game_id}: not compacted, the archive would not rebuild its log")
        k = self.keys
        done = self._compact(keys=[k.meta(game_id), k.events(game_id), k.snap(game_id), k.archive(game_id)],
                             args=[meta["version"], blob])
        if not done:
            return False
        for key in self.r.scan_iter(match=k.idem(game_id, "*"), count=1000):
            self.r.delete(key)
        return True

    def _archived(self, game_id: str) -> list[dict]:
        """The envelopes of a compacted game, unpacked once per process (a finished game never changes)."""
        envs = self._archives.get(game_id)
        if envs is None:
            pipe = self.r.pipeline(transaction=True)
            pipe.get(self.keys.archive(game_id))
            pipe.hget(self.keys.meta(game_id), "head")
            blob, head = pipe.execute()
            if blob is None:
                raise GameNotFound(game_id)
            envs = archive.unpack(blob)
            if envs and envs[-1]["hash"] != as_text(head):
                raise archive.BadArchive(f"game {game_id}: the archive's chain ends at {envs[-1]['hash'][:12]}, "
                                         f"the game's head is {as_text(head)[:12]}")
            self._archives[game_id] = envs
            while len(self._archives) > ARCHIVES_KEPT:
                self._archives.popitem(last=False)
        self._archives.move_to_end(game_id)
        return envs

    def footprint(self, game_id: str) -> dict[str, int]:
        """Bytes Redis holds for this game, by key (``MEMORY USAGE``, every element sampled):
        meta, events, snap, archive, idem (all its idempotency records). Feed entries
        (capped per partition) and lobby index entries are shared and not counted."""
        k = self.keys
        names = {"meta": k.meta(game_id), "events": k.events(game_id), "snap": k.snap(game_id),
                 "archive": k.archive(game_id)}
        out = {}
        for kind, key in names.items():
            used = self.r.memory_usage(key, samples=0)
            if used:
                out[kind] = used
        idem = sum(self.r.memory_usage(key, samples=0) or 0 for key in self.r.scan_iter(match=k.idem(game_id, "*")))
        if idem:
            out["idem"] = idem
        return out

    # -- idempotency -------------------------------------------------------------

    def idem_claim(self, game_id: str, key: str, fingerprint: str) -> Claim:
        """Take ``key`` for one request (a pending marker with a lease), or say who has it.

        The append script replaces the marker with the record of the batch,
        atomically with the events; a request that fails releases it.
        """
        name = self.keys.idem(game_id, key)
        token = secrets.token_hex(8)
        while not self.r.set(name, f"{PENDING}{token}:{fingerprint}", nx=True, px=IDEMPOTENCY_LEASE_MS):
            raw = self.r.get(name)
            if raw is None:
                continue  # released or expired between the two calls: try again
            raw = as_text(raw)
            if raw.startswith(PENDING):
                return Claim(pending_fingerprint=raw.rsplit(":", 1)[1])
            return Claim(record=json.loads(raw))
        return Claim(token=token)

    def idem_confirm(self, game_id: str, key: str, version: int) -> None:
        """With ``wait_replicas``: make sure replicas hold a stored answer before it is given again
        (ReplicationUnconfirmed if not; events/replication.py)."""
        if self.wait_replicas > 0:
            replication.confirm(self.r, self.keys.idem(game_id, key), IDEMPOTENCY_TTL, self.wait_replicas,
                                self.wait_timeout_ms, game_id, version)

    def idem_release(self, game_id: str, key: str, fingerprint: str, token: str) -> None:
        """Drop our pending marker (a refused request stores nothing); never another request's."""
        self._release(keys=[self.keys.idem(game_id, key)], args=[f"{PENDING}{token}:{fingerprint}"])

    # -- waiting for events ------------------------------------------------------

    def wait(self, game_id: str, after: int, block_ms: int, count: int = 200) -> list[dict]:
        """Envelopes after ``after``, blocking up to ``block_ms`` for the first (XREAD BLOCK).

        A socket timeout that beats the block is the same as "nothing yet".
        """
        if game_id in self._archives or self.r.exists(self.keys.archive(game_id)):
            return _window(self._archived(game_id), after, None, count)  # compacted: no stream to block on
        try:
            got = self.r.xread({self.keys.events(game_id): f"{after}-0"}, count=count, block=block_ms)
        except redis.TimeoutError:
            return []
        return [parse_entry(fields) for _id, fields in got[0][1]] if got else []

    # -- lobby indexes -------------------------------------------------------------

    def index_game(self, game_id: str, score: float, indexes: list[str], unindexes: list[str],
                   tx: Pipeline | None = None) -> None:
        """Add ``game_id`` to the lobby indexes ``indexes`` (with ``score``) and drop it from ``unindexes``.

        Index names are ``all``, ``game:<id>``, ``status:<s>``; single-key
        commands only, so a Redis Cluster can hold them. Given ``tx`` (a
        follower's transaction, see :meth:`apply_tracked`), the writes join it.
        """
        pipe = tx if tx is not None else self.r.pipeline(transaction=False)
        for index in indexes:
            pipe.zadd(self.keys.lobby(index), {game_id: score})
        for index in unindexes:
            pipe.zrem(self.keys.lobby(index), game_id)
        if tx is None:
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
                   block_ms: int | None, pending: bool = False) -> list[tuple[str, list[tuple[str, dict[str, str]]]]]:
        """New entries for ``consumer`` (XREADGROUP ``>``): ``[(feed, [(entry_id, fields)])]``; with
        ``pending``, those delivered to it and not acknowledged yet (``0``) instead."""
        since = "0" if pending else ">"
        if self.cluster:
            resp = slots.read_each(self.r, feeds, block_ms, lambda pipe, feed: pipe.xreadgroup(
                group, consumer, {feed: since}, count=count))
        else:
            resp = self.r.xreadgroup(group, consumer, {f: since for f in feeds}, count=count, block=block_ms)
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

    # -- followers: tracked positions in the feeds ------------------------------------

    def read_feeds(self, after: dict[str, str], count: int,
                   block_ms: int | None = None) -> list[tuple[str, list[tuple[str, dict[str, str]]]]]:
        """Entries of each feed after the entry id given for it (XREAD): ``[(feed, [(entry_id, fields)])]``."""
        if self.cluster:
            resp = slots.read_each(self.r, list(after), block_ms,
                                   lambda pipe, feed: pipe.xread({feed: after[feed]}, count=count))
        else:
            resp = self.r.xread(after, count=count, block=block_ms)
        return [(as_text(feed), [(as_text(eid), _fields(f)) for eid, f in entries]) for feed, entries in resp or []]

    def positions(self, follower: str, feeds: list[str]) -> dict[str, str]:
        """The last entry id ``follower`` applied in each feed (``0-0``: none yet)."""
        pipe = self.r.pipeline(transaction=False)
        for feed in feeds:
            pipe.get(self.keys.tracking(feed, follower))
        return {feed: as_text(v) if v is not None else "0-0" for feed, v in zip(feeds, pipe.execute())}

    def apply_tracked(self, follower: str, feed: str, entry_id: str, effect: Callable[[Pipeline], None],
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

    # -- housekeeping ------------------------------------------------------------------

    @property
    def prefix(self) -> str:
        """The key prefix (a child process given it as DELVE_PREFIX reads the same data)."""
        return self.keys.prefix

    def account_client(self) -> redis.Redis:
        """The client for what lives beside the games under this prefix, outside any partition
        (players, ratings: ``application.players`` and ``application.ratings`` own those keys)."""
        return self.r

    def mark(self, game_id: str, field: str, value: str) -> None:
        """Set one bookkeeping field of a game's meta that no append depends on (``rated``)."""
        self.r.hset(self.keys.meta(game_id), field, value)

    def ping(self) -> bool:
        return bool(self.r.ping())

    def plain_client(self) -> redis.Redis | None:
        """This store's Redis when it is a single one (the queue may live in it), None on a Cluster."""
        return None if self.cluster else self.r

    def now_ms(self) -> int:
        """Redis's clock, the one the append script stamps events with (ms since the epoch)."""
        t = self.r.time()
        secs, micros = next(iter(t.values())) if isinstance(t, dict) else t  # a cluster answers per node
        return int(secs) * 1000 + int(micros) // 1000

    def count_hit(self, bucket: str, ttl_seconds: int) -> int:
        """Count one hit in ``bucket`` (a fixed-window counter that expires) and return the count."""
        key = self.keys.counter(bucket)
        pipe = self.r.pipeline()
        pipe.incr(key)
        pipe.expire(key, ttl_seconds)
        count, _ = pipe.execute()
        return count

    def sibling(self, prefix: str) -> "RedisEventStore":
        """A store on the same Redis under another prefix (tournament logs beside the games' logs)."""
        return RedisEventStore(self.r, partitions=self.keys.partitions, snapshot_every=self.snapshot_every,
                               prefix=prefix, cache_size=0, wait_replicas=self.wait_replicas,
                               wait_timeout_ms=self.wait_timeout_ms)

    def try_lock(self, name: str, token: str, ttl_ms: int) -> bool:
        """Take the lock ``name`` for ``ttl_ms`` unless someone holds it (a tournament's advance)."""
        return bool(self.r.set(self.keys.lock(name), token, nx=True, px=ttl_ms))

    def unlock(self, name: str, token: str) -> None:
        """Release the lock ``name`` if ``token`` still holds it (it may have expired and been retaken)."""
        self.r.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0",
                    1, self.keys.lock(name), token)

    def server_version(self) -> str | None:
        return self.r.info("server").get("redis_version")

    def purge(self) -> int:
        """Delete every key under this store's prefix (a throwaway prefix: tests, benchmarks)."""
        n = 0
        for key in self.r.scan_iter(f"{self.keys.prefix}:*", count=1000):
            n += self.r.delete(key)
        return n


def _window(envs: list[dict], after: int, upto: int | None, limit: int | None) -> list[dict]:
    """Envelopes of a whole log (seq n at index n - 1) with ``after < seq <= upto``, at most ``limit``."""
    end = len(envs) if upto is None else min(upto, len(envs))
    if limit is not None:
        end = min(end, after + limit)
    return envs[max(after, 0):end]


def _pairs(reply: dict | list) -> dict:
    """A hash or stream entry's fields: redis-py 8 leaves a RedisCluster MULTI's replies unparsed,
    so there they come as the flat ``[field, value, ...]`` Redis sent."""
    return dict(zip(reply[::2], reply[1::2])) if isinstance(reply, list) else reply


def parse_entry(fields: dict | list) -> dict:
    """The envelope stored in one stream entry."""
    fields = _pairs(fields)
    return loads(fields[b"e"] if b"e" in fields else fields["e"])


def _fields(raw: dict | None) -> dict[str, str]:
    """An entry's fields; none for a pending entry trimmed from its stream since."""
    return {as_text(k): as_text(v) for k, v in (raw or {}).items()}


def as_text(v: Any) -> str:
    """Redis replies are bytes unless the client decodes them; accept both."""
    return v.decode() if isinstance(v, bytes) else v
