"""A game's record as auditors read it: the audit summary (commitment, chain head, signatures),
the export, and its compaction once closed. The chain head and the export stay private until
the game has ended (the admin token reads them before)."""
from __future__ import annotations

import json

from errors import Forbidden
from application import records, seeding
from application.access import ADMIN
from application.signing import Signer
from application.status import ended
from events.store import RedisEventStore


class Audit:
    def __init__(self, store: RedisEventStore, signer: Signer | None):
        self.store, self.signer = store, signer

    def audit(self, game_id: str, seat: int | None = None) -> dict:
        """The audit record ``seat`` (None: a spectator) may read.

        The chain head is a hash over every secret dealt so far; published
        while the game runs, anyone could try each candidate card of a batch
        against it (issue 12: every bot batch cracked). So it is withheld from
        everyone but the admin until the end, like the events' own hashes.
        """
        meta = self.store.meta(game_id)
        created = self.store.read(game_id, after=0, limit=1)[0]
        finished = ended(meta)
        return {"seed_commitment": created["data"]["seed_commitment"],
                "chain_head": meta["head"] if finished or seat == ADMIN else None,
                "signatures": records.signatures(self.store, self.signer, game_id, meta, finished),
                "events": int(meta["version"]), "rules_version": meta["rules_version"], "status": meta["status"],
                **seeding.audit_parts(meta, json.loads(meta["seats"]), created["data"], finished)}

    def export(self, game_id: str, admin: bool):
        meta = self.store.meta(game_id)
        if not ended(meta) and not admin:
            raise Forbidden("export_before_end", "an export is public once the game has finished; "
                            "before that only the admin token may read it")
        return records.export(self.store, self.signer, game_id, meta, closed=ended(meta))

    def compact(self, game_id: str) -> bool:
        """Fold a closed game's log into one compressed archive (``events.compaction``);
        export, replay, verify, states, events and streams read it from there. Idempotent."""
        if not ended(self.store.meta(game_id)):
            return False
        return self.store.compaction.compact(game_id)
