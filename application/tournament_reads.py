"""Reads of a tournament: its summary with standings, its folded log, the list (newest first, by
status, game, format or player), the log's events (now or as they come), and the bundle a
verifier reads once it has finished."""
from __future__ import annotations

from typing import Iterator

from domain.core import canonical_json, require
from domain.tournament import standings
from domain.tournament.log import TournamentStatus, config_of, pairing_view
from application import attestation
from application.service import GameService
from application.tournament_log import TournamentLog


class TournamentReads:
    def __init__(self, log: TournamentLog, games: GameService):
        self.log, self.store, self.games = log, log.store, games

    def get(self, tid: str) -> dict:
        was = self.log.load(tid)
        t, meta = was.state, was.meta
        config = config_of(t)
        return {"id": tid, "name": t["name"], "game": t["game"], "format": config.format,
                "table_size": config.table_size, "status": t["status"], "version": was.version,
                "config": t["config"], "options": t["options"], "clock": t.get("clock"),
                "start_at": t.get("start_at"), "organizer": t.get("organizer"), "entrants": t["entrants"],
                "planned_rounds": config.default_rounds(len(t["entrants"])),
                "rounds": [{"round": r["round"], "completed": r["completed"], "byes": r["byes"],
                            "tables": [{"game_id": tb["game_id"], "seats": tb["seats"], "result": tb["result"],
                                        "decision": tb.get("decision"), "corrections": tb.get("corrections", [])}
                                       for tb in r["tables"]]} for r in t["rounds"]],
                "standings": standings(config, t["entrants"], pairing_view(t["rounds"])),
                "seed_commitment": t["seed_commitment"], "seed": t["seed"], "chain_head": meta["head"],
                "created_at": meta["created_at"], "finished_at": meta.get("finished_at")}

    def state(self, tid: str) -> tuple[dict, int]:
        """The folded log and its version (what the start timer is scheduled from)."""
        was = self.log.load(tid)
        return was.state, was.version

    def status(self, tid: str) -> str:
        """The status alone, from the meta hash (cheap: no fold)."""
        return self.log.meta(tid)["status"]

    def list(self, status: str | None = None, game: str | None = None, offset: int = 0, limit: int = 20,
             fmt: str | None = None, player: str | None = None) -> dict:
        """Newest first. Read from the narrowest index that applies (a player's, a status's,
        a game's, else all), then filtered on the others by each tournament's meta."""
        index = (f"player:{player}" if player else f"status:{status}" if status else f"game:{game}" if game
                 else "all")
        _total, ids = self.store.indexes.page(index)
        wanted = {"status": status, "game": game, "format": fmt}
        rows = [{"id": tid, "name": m.get("name") or tid, "game": m["game"], "format": m.get("format"),
                 "status": m["status"], "organizer": m.get("organizer") or None, "created_at": m["created_at"]}
                for tid, m in zip(ids, self.store.reads.metas(ids))
                if m and all(v is None or m.get(k) == v for k, v in wanted.items())]
        return {"total": len(rows), "tournaments": rows[offset:offset + limit]}

    def events(self, tid: str, after: int = 0, limit: int = 100) -> list[dict]:
        """The log's envelopes: public from the start (the seed enters it only at the end)."""
        self.log.meta(tid)
        return self.store.read(tid, after=after, limit=limit)

    def wait(self, tid: str, after: int, block_ms: int) -> tuple[list[dict], bool]:
        """The log's envelopes after ``after``, blocking up to ``block_ms`` for the first
        (the SSE stream), and whether the tournament has finished."""
        self.log.meta(tid)
        envs = self.store.reads.wait(tid, after, block_ms)
        # Read after the wait: "finished" is reported only once every event before it was sent.
        return envs, self.log.meta(tid)["status"] == TournamentStatus.FINISHED

    def bundle(self, tid: str) -> Iterator[str]:
        """One NDJSON file: a header line, the tournament log, every game's export (with its
        signatures), then the signed final standings."""
        t = self.log.load(tid).state
        require(t["status"] == TournamentStatus.FINISHED, "bundle_before_end", None,
                "the bundle is published once the tournament has finished (its seed is revealed then)")
        game_ids = [tb["game_id"] for r in t["rounds"] for tb in r["tables"]]
        signed = self.log.signed_standings(tid)
        yield canonical_json({"bundle": "delve-tournament", "tournament": tid, "games": game_ids}) + "\n"
        yield from self.store.export(tid)
        for gid in game_ids:
            yield from self.games.export(gid, admin=False)
        if signed:
            yield canonical_json(attestation.signature_line(signed)) + "\n"
