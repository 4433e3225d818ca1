"""Compaction: a closed game's stream and snapshot replaced by one archive (``events.archive``).

The log is checked whole first (chain, count, head) and the archive must
rebuild it exactly; the swap (``compact.lua``) happens only if no event was
appended since it was read.
"""
from __future__ import annotations

import redis

from domain.core import canonical_json
from errors import CorruptLog
from events import archive
from events.envelope import first_broken_link
from events.idempotency import Idempotency
from events.keys import Keys
from events.reads import Reads
from events.scripts import Scripts


class Compaction:
    def __init__(self, r: redis.Redis, keys: Keys, scripts: Scripts, reads: Reads, idempotency: Idempotency):
        self.r, self.keys, self.scripts, self.reads, self.idempotency = r, keys, scripts, reads, idempotency

    def compact(self, game_id: str) -> bool:
        """Archive a game that takes no more events (the caller checks: finished or aborted) and drop
        its idempotency keys. False if already compacted or it moved; CorruptLog if its log is broken."""
        meta = self.reads.meta(game_id)
        if meta.get("compacted") == "1":
            return False
        envs = self.reads.read(game_id)
        bad, why = first_broken_link(envs)
        if bad is not None or len(envs) != int(meta["version"]) or (envs and envs[-1]["hash"] != meta.get("head")):
            raise CorruptLog(f"game {game_id}: not compacted, its log does not hold together "
                             f"({why or 'count or head differ from the meta'})")
        blob = archive.pack(envs)
        if [canonical_json(e) for e in archive.unpack(blob)] != [canonical_json(e) for e in envs]:
            raise CorruptLog(f"game {game_id}: not compacted, the archive would not rebuild its log")
        k = self.keys
        done = self.scripts.compact(keys=[k.meta(game_id), k.events(game_id), k.snap(game_id), k.archive(game_id)],
                                    args=[meta["version"], blob])
        if not done:
            return False
        for key in self.idempotency.stored(game_id):
            self.r.delete(key)
        return True

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
        idem = sum(self.r.memory_usage(key, samples=0) or 0 for key in self.idempotency.stored(game_id))
        if idem:
            out["idem"] = idem
        return out
