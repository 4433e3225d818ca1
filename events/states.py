"""A game's folded state: this process's cache, the snapshots in Redis, and past versions.

A state now starts from the newest of: the cached state, the snapshot, the
initial state; then folds the events after it. A cached or snapshot state is
trusted only if Redis still holds its version with the same head hash, checked
in the round trip that reads the events after it: Redis can lose its last
writes (an AOF with ``everysec``, a failover to a lagging replica), and a state
from a lost branch would otherwise be served and decided on (a rollback:
counted, logged, and the cache dropped).
"""
from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Callable, NamedTuple

import orjson
import redis

from domain.core import Game, State, fold
from errors import GameNotFound, VersionConflict
from events.archived import Archives, window
from events.checkpoints import Checkpoints, dumped, dumps, own
from events.clock import ReadTimes, time_ms
from events.envelope import GENESIS, PLATFORM_EVENTS, domain_events, loads
from events.keys import Keys
from events.reads import Reads
from events.scripts import Scripts

log = logging.getLogger("delve.store")

OPEN_TRIES = 8  # meta and state read again when an append fell between the two reads of an uncached open
REPLAYS_KEPT = 16  # games whose past states this process keeps checkpoints of (``events.checkpoints``)


class Cached(NamedTuple):
    """A state held as JSON bytes: ``version``, its last event's ``head``, the ``state``."""

    version: int
    head: str
    state: bytes


class Folded(NamedTuple):
    """A game's state at ``version``, whose last event's hash is ``head``."""

    state: State
    version: int
    head: str


def platform_events(kind: Game) -> frozenset[str]:
    """The envelope types ``kind`` does not fold: a game's platform envelopes, unless the
    aggregate names its own (``events.repository.Aggregate.platform_events``)."""
    return getattr(kind, "platform_events", PLATFORM_EVENTS)


class States:
    def __init__(self, r: redis.Redis, keys: Keys, scripts: Scripts, reads: Reads, archives: Archives, *,
                 cache_size: int = 256, snapshot_every: int = 50):
        self.r, self.keys, self.scripts, self.reads, self.archives = r, keys, scripts, reads, archives
        self.cache_size, self.snapshot_every = cache_size, snapshot_every
        self._cache: OrderedDict[str, Cached] = OrderedDict()
        self._replays: OrderedDict[str, Checkpoints] = OrderedDict()
        self.rollbacks = 0  # cached or snapshot states found ahead of, or off, what Redis holds
        self.times = ReadTimes()  # Redis's clock as each game's last read saw it: the next append's ``at``

    def open(self, game_id: str, resolve: Callable[[dict[str, str]], Game]) -> tuple[dict[str, str], Folded]:
        """A game's meta hash and its state now, in one round trip when this process holds the state.

        The meta, the events after the cached version and whether an archive
        replaced them are read by one script (one command: a MULTI of three cost
        the client five replies to parse); ``resolve`` names the game from the
        meta. Without a cached state: the meta, then :meth:`load`, the pair
        kept only when both name the same version -- a meta read before another
        process's append with a state read after it would let a caller decide
        on a status the game left (a seat joined after the deal).
        """
        for _ in range(OPEN_TRIES):
            cached = self._cache.get(game_id)
            if cached is not None:
                meta, envs = self._read(game_id, cached.version)
                game = resolve(meta)
                folded = self._resume(game, game_id, cached, envs, int(meta["version"]))
                if folded is not None:
                    return meta, folded
            meta = self.reads.meta(game_id)
            folded = self.load(resolve(meta), game_id)
            if folded.version == int(meta["version"]):
                return meta, folded
        raise VersionConflict(int(meta["version"]))

    def load(self, game: Game, game_id: str, upto: int | None = None) -> Folded:
        """The folded state at ``upto`` (default: now; a past version comes from :meth:`_past`)."""
        if upto is not None:
            return self._past(game, game_id, upto)
        cached = self._cache.get(game_id)
        if cached is not None:
            stored, envs = self._tail(game_id, cached.version)
            folded = self._resume(game, game_id, cached, envs, stored)
            if folded is not None:
                return folded
        snap, folded = self._snapshot(game_id), None
        if snap is not None:
            stored, envs = self._tail(game_id, snap.version)
            folded = self._onto(game, game_id, snap, envs, stored)
        if folded is None:
            _stored, envs = self._tail(game_id, 0)
            state = fold(game, domain_events(envs, platform_events(game)))
            folded = Folded(state, envs[-1]["seq"] if envs else 0,
                            envs[-1]["hash"] if envs else GENESIS)
        self.remember(game, game_id, folded.version, folded.head, folded.state)
        return folded

    def _resume(self, game: Game, game_id: str, cached: Cached, envs: list[dict], stored: int) -> Folded | None:
        """The cached state brought up to date with ``envs`` (re-cached if it moved); None if Redis lost it."""
        folded = self._onto(game, game_id, cached, envs, stored)
        if folded is not None and folded.version != cached.version:
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
                self.lost(game_id, f"a replay's version {held.version} (head {held.head[:12]}) is not in Redis, "
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
        """``Reads.read``, answered from the envelopes a replay (``load`` with ``upto``) just checked
        against Redis when this process holds them; else from Redis."""
        held = self._replays.get(game_id)
        if held is not None and after + limit <= held.version:
            return held.envs[after:after + limit]
        return self.reads.read(game_id, after=after, limit=limit)

    def _snapshot(self, game_id: str) -> Cached | None:
        raw = self.r.get(self.keys.snap(game_id))
        if raw is None:
            return None
        snap = orjson.loads(raw)
        if "head" not in snap:
            return None  # a snapshot without a head cannot be checked against the log: fold instead
        return Cached(snap["version"], snap["head"], dumps(snap["state"]))

    def _tail(self, game_id: str, since: int) -> tuple[int, list[dict]]:
        """(the stored version, the envelopes from ``since`` on) of one moment."""
        meta, envs = self._read(game_id, since)
        return int(meta["version"]), envs

    def _read(self, game_id: str, since: int) -> tuple[dict[str, str], list[dict]]:
        """The meta and the envelopes from ``since`` on, of one moment: one command (``open.lua``), which
        also reads Redis's clock for the append that may follow (``events.clock``)."""
        k = self.keys
        got = self.scripts.open(keys=[k.meta(game_id), k.events(game_id), k.archive(game_id)],
                                args=[f"{max(since, 1)}-0"])
        # Decoded inline: a call of as_text per field was a quarter of open's own CPU in a profiled read.
        flat = [v.decode() if type(v) is bytes else v for v in got[0]] if got else []
        meta = dict(zip(flat[0::2], flat[1::2]))
        if "version" not in meta:
            self._cache.pop(game_id, None)
            raise GameNotFound(game_id)
        self.times.saw(game_id, int(meta["version"]), time_ms(got[3]), meta.get("at"))
        if got[1]:
            return meta, window(self.archives.envelopes(game_id), max(since, 1) - 1, None, None)
        return meta, [loads(entry[1][1]) for entry in got[2]]

    def _onto(self, game: Game, game_id: str, base: Cached, envs: list[dict], stored: int) -> Folded | None:
        """Fold ``envs`` (from ``base``'s own event on) onto ``base``; None if Redis does not hold ``base``."""
        if not envs or envs[0]["seq"] != base.version or envs[0]["hash"] != base.head:
            self.lost(game_id, f"a state at version {base.version} (head {base.head[:12]}) is not in Redis, "
                      f"which holds version {stored}")
            return None
        tail = envs[1:]
        state = fold(game, domain_events(tail, platform_events(game)), own(game, orjson.loads(base.state)))
        return Folded(state, tail[-1]["seq"] if tail else base.version, tail[-1]["hash"] if tail else base.head)

    def lost(self, game_id: str, what: str) -> None:
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

    def keep(self, game: Game, game_id: str, old_version: int, last: dict, state: State) -> None:
        """A state this process just appended (``last`` = its last envelope): cache it, and write a
        snapshot when the append crossed a multiple of ``snapshot_every``."""
        self.remember(game, game_id, last["seq"], last["hash"], state)
        if last["seq"] // self.snapshot_every != old_version // self.snapshot_every:
            self.r.set(self.keys.snap(game_id), dumps({"version": last["seq"], "head": last["hash"],
                                                       "state": dumped(game, state)}))
