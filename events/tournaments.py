"""Tournaments as event-sourced streams: the same store, envelope and hash
chain as games, under their own key prefix (``<prefix>:tourney``) so the game
reactor's feeds never see them.

A tournament's log records its settings and committed seed, every entrant,
each round's pairing (``RoundPaired``, with the games created for it), each
game's result with that game's chain head (``GameFinished``), the rounds'
completion, and at the end the seed (``SeedRevealed``) and final standings.
Everything the pairing rules need is in the log, so ``delve verify`` re-derives
every round (events/tournament_verify.py).

Progress is driven by ``advance``: the job table runs it when a game of a
tournament finishes (workers/table.py), and ``start`` runs it once. It holds a
short Redis lock per tournament, and every append is conditional on the log's
version, so a redelivered job or two workers at once never pair a round twice.
"""
from __future__ import annotations

import hashlib
import secrets
import time
from typing import Iterator

from domain import registry
from domain.core import canonical_json, require
from domain.tournament import Config, check_field, is_complete, pair_round, standings
from domain.tournament.log import RULES_VERSION, config_of, fold, pairing_view, table_result
from events.service import GameService
from events.store import GameNotFound, VersionConflict

LOCK_MS = 30_000
MAX_STEPS = 1_000  # appends one advance may make: far above a round's reports, pairing and end
STATUSES = ("registering", "running", "finished")
BOT_RATING = 0.0


class TournamentNotFound(Exception):
    pass


class TournamentService:
    def __init__(self, games: GameService):
        self.games = games
        base = games.store
        self.store = base.sibling(f"{base.prefix}:tourney")
        self._heads: dict[str, tuple[int, str]] = {}  # tid -> (version, head) as last read

    # -- director's commands ----------------------------------------------------------

    def create(self, body: dict) -> dict:
        """Validate and log a new tournament with its first entrants. Created with
        entrants and no ``start_at`` it starts at once; otherwise registration
        stays open until ``start`` (a timer for ``start_at`` is not built: MISSING)."""
        game = registry.get(body.get("game"))
        config = Config.parse({k: body[k] for k in ("format", "table_size", "rounds", "points", "bye_points")
                               if k in body}, min_players=game.min_players, max_players=game.max_players)
        options = game.validate_options(dict(body.get("options") or {}), config.table_size)
        entrants = [self._entrant(game, raw, i) for i, raw in enumerate(body.get("entrants") or [])]
        if entrants:
            check_field(config, len(entrants))
        seed = secrets.token_bytes(32)
        tid = "t" + secrets.token_hex(8)
        created = {"type": "TournamentCreated", "data": {
            "tournament": tid, "name": str(body.get("name") or tid), "game": game.id, "options": options,
            "config": config.to_dict(), "rules_version": game.rules_version,
            "seed_commitment": hashlib.sha256(seed).hexdigest()}}
        events = [created] + [{"type": "EntrantRegistered", "data": {"entrant": e}} for e in entrants]
        self.store.create(tid, {"status": "registering", "seed": seed.hex(), "game": game.id},
                          events, command_id=f"create:{tid}", rules_version=RULES_VERSION)
        self._index(tid, game.id, "registering")
        if entrants and body.get("start_at") is None:
            self.start(tid)
        return self.get(tid)

    def register(self, tid: str, raw: dict) -> dict:
        """Add an entrant while registration is open."""
        t, version = self._load(tid)
        require(t["status"] == "registering", "registration_closed", "TRN-CFG-2",
                "entrants register before the tournament starts")
        entrant = self._entrant(registry.get(t["game"]), raw, len(t["entrants"]))
        self._append(tid, version, [{"type": "EntrantRegistered", "data": {"entrant": entrant}}], f"register:{version}")
        return entrant

    def withdraw(self, tid: str, entrant_id: str) -> None:
        """An entrant leaves: paired no more; games already paired play on (TRN-WD-1)."""
        t, version = self._load(tid)
        found = [e for e in t["entrants"] if e["id"] == entrant_id]
        require(bool(found), "no_such_entrant", None, f"tournament {tid} has no entrant {entrant_id!r}")
        require(t["status"] != "finished", "tournament_finished", None, "the tournament has finished")
        require(not found[0]["withdrawn"], "already_withdrawn", "TRN-WD-1", f"{entrant_id} has withdrawn already")
        self._append(tid, version, [{"type": "EntrantWithdrew", "data": {"entrant": entrant_id}}],
                     f"withdraw:{entrant_id}")
        self.advance(tid)

    def start(self, tid: str) -> dict:
        t, _ = self._load(tid)
        require(t["status"] == "registering", "already_started", None, f"the tournament is {t['status']}")
        check_field(config_of(t), len([e for e in t["entrants"] if not e["withdrawn"]]))
        self.advance(tid)
        return self.get(tid)

    # -- progress ----------------------------------------------------------------------

    def advance(self, tid: str) -> bool:
        """Record finished games, complete the round, pair the next or finish.

        Idempotent and safe to run concurrently (a lock, then appends
        conditional on the version). Returns whether anything was appended.
        """
        token = secrets.token_hex(8)
        # Wait for a worker advancing it now: it may have looked at our game
        # before it finished, so giving up here could leave a result unreported.
        deadline = time.monotonic() + LOCK_MS / 1000
        while not self.store.try_lock(tid, token, LOCK_MS):
            if time.monotonic() > deadline:
                raise TimeoutError(f"tournament {tid} stayed locked for {LOCK_MS} ms; the job will be retried")
            time.sleep(0.05)
        try:
            moved = False
            for _ in range(MAX_STEPS):
                try:
                    if not self._step(tid):
                        break
                except VersionConflict:
                    continue  # a director's command landed in between: read the log again
                moved = True
            return moved
        finally:
            self.store.unlock(tid, token)

    def _step(self, tid: str) -> bool:
        t, version = self._load(tid)
        if t["status"] == "finished":
            return False
        config = config_of(t)
        current = t["rounds"][-1] if t["rounds"] else None
        if current is not None:
            for i, table in enumerate(current["tables"]):
                if table["result"] is None:
                    report = self._report(current["round"], i, table)
                    if report is not None:
                        self._append(tid, version, [report], f"report:{table['game_id']}")
                        return True
            if any(table["result"] is None for table in current["tables"]):
                return False  # games still running
            if not current["completed"]:
                self._append(tid, version, [{"type": "RoundCompleted", "data": {
                    "round": current["round"],
                    "standings": standings(config, t["entrants"], pairing_view(t["rounds"]))}}],
                    f"complete:{tid}:{current['round']}")
                return True
        elif t["status"] != "registering" or not t["entrants"]:
            return False
        seed = bytes.fromhex(self.store.meta(tid)["seed"])
        if is_complete(config, t["entrants"], pairing_view(t["rounds"])):
            final = standings(config, t["entrants"], pairing_view(t["rounds"]))
            self._append(tid, version, [{"type": "SeedRevealed", "data": {"seed": seed.hex()}},
                                        {"type": "TournamentFinished", "data": {"standings": final}}],
                         f"finish:{tid}", meta={"status": "finished"}, stamp=("finished_at",))
            self._index(tid, t["game"], "finished")
            return True
        paired = pair_round(config, t["entrants"], pairing_view(t["rounds"]), seed)
        tables = [{"seats": tb["seats"], "game_id": self._open_game(tid, t, paired["round"], tb["seats"])}
                  for tb in paired["tables"]]
        self._append(tid, version, [{"type": "RoundPaired", "data": {
            "round": paired["round"], "tables": tables, "byes": paired["byes"]}}],
            f"pair:{tid}:{paired['round']}", meta={"status": "running"})
        self._index(tid, t["game"], "running")
        return True

    def _report(self, round_no: int, index: int, table: dict) -> dict | None:
        """A GameFinished report for a table whose game has finished, else None."""
        try:
            meta = self.games.store.meta(table["game_id"])
        except GameNotFound:
            return None
        if meta.get("status") != "finished":
            return None
        last = self.games.store.read(table["game_id"], after=int(meta["version"]) - 1)[-1]
        if last["type"] != "GameFinished":
            return None  # finished otherwise (aborted): adjudication is not built yet (MISSING)
        return {"type": "GameFinished", "data": {
            "round": round_no, "table": index, "game_id": table["game_id"], "chain_head": meta["head"],
            "result": table_result(last["data"]["scores"], table["seats"])}}

    def _open_game(self, tid: str, t: dict, round_no: int, seats: list[str]) -> str:
        by_id = {e["id"]: e for e in t["entrants"]}
        created = self.games.create(t["game"], [{"name": by_id[e]["name"], "bot": by_id[e]["bot"]} for e in seats],
                                    t["options"], tags={"tournament": tid, "round": str(round_no)})
        return created["id"]

    # -- reads ---------------------------------------------------------------------------

    def get(self, tid: str) -> dict:
        t, version = self._load(tid)
        meta = self.store.meta(tid)
        config = config_of(t)
        return {"id": tid, "name": t["name"], "game": t["game"], "format": config.format,
                "table_size": config.table_size, "status": t["status"], "version": version,
                "config": t["config"], "options": t["options"], "entrants": t["entrants"],
                "planned_rounds": config.default_rounds(len(t["entrants"])),
                "rounds": [{"round": r["round"], "completed": r["completed"], "byes": r["byes"],
                            "tables": [{"game_id": tb["game_id"], "seats": tb["seats"], "result": tb["result"]}
                                       for tb in r["tables"]]} for r in t["rounds"]],
                "standings": standings(config, t["entrants"], pairing_view(t["rounds"])),
                "seed_commitment": t["seed_commitment"], "seed": t["seed"], "chain_head": meta["head"],
                "created_at": meta["created_at"], "finished_at": meta.get("finished_at")}

    def list(self, status: str | None, game: str | None, offset: int, limit: int) -> dict:
        """Newest first; filtered by one index (status, or game), then by the other."""
        index = f"status:{status}" if status else f"game:{game}" if game else "all"
        _total, ids = self.store.indexed(index)
        rows = [{"id": tid, "game": m["game"], "status": m["status"], "created_at": m["created_at"]}
                for tid, m in zip(ids, self.store.metas(ids)) if m and (game is None or m["game"] == game)]
        return {"total": len(rows), "tournaments": rows[offset:offset + limit]}

    def events(self, tid: str, after: int = 0, limit: int = 100) -> list[dict]:
        """The log's envelopes: public from the start (the seed enters it only at the end)."""
        self._require(tid)
        return self.store.read(tid, after=after, limit=limit)

    def bundle(self, tid: str) -> Iterator[str]:
        """One NDJSON file: a header line, the tournament log, then every game's export."""
        t, _ = self._load(tid)
        require(t["status"] == "finished", "bundle_before_end", None,
                "the bundle is published once the tournament has finished (its seed is revealed then)")
        game_ids = [tb["game_id"] for r in t["rounds"] for tb in r["tables"]]
        yield canonical_json({"bundle": "delve-tournament", "tournament": tid, "games": game_ids}) + "\n"
        yield from self.store.export(tid)
        for gid in game_ids:
            yield from self.games.store.export(gid)

    # -- helpers -------------------------------------------------------------------------

    def _entrant(self, game, raw: dict, index: int) -> dict:
        require(isinstance(raw, dict) and isinstance(raw.get("bot"), str), "bad_entrant", None,
                'an entrant is {"bot": "<bot>", "name"?}; player entrants wait for players (issue 9)')
        require(raw["bot"] in game.bots, "unknown_bot", None, f"no bot {raw['bot']!r}; choose one of {sorted(game.bots)}")
        name = raw.get("name") or f"{raw['bot']}-{index + 1}"
        require(isinstance(name, str) and 0 < len(name) <= 60, "bad_entrant", None, "a name is 1-60 characters")
        return {"id": f"e{index}", "name": name, "bot": raw["bot"], "player": None, "rating": BOT_RATING}

    def _index(self, tid: str, game: str, status: str) -> None:
        """The tournament list's indexes (the lobby's kind, under the tournament prefix)."""
        others = [f"status:{s}" for s in STATUSES if s != status]
        self.store.index_game(tid, time.time(), ["all", f"game:{game}", f"status:{status}"], others)

    def _require(self, tid: str) -> None:
        try:
            self.store.meta(tid)
        except GameNotFound:
            raise TournamentNotFound(tid) from None

    def _load(self, tid: str) -> tuple[dict, int]:
        """The folded log and its version; the head is kept for the append that may follow."""
        self._require(tid)
        envs = list(self.store.iter_all(tid))
        self._heads[tid] = (len(envs), envs[-1]["hash"])
        return fold({"type": e["type"], "data": e["data"]} for e in envs), len(envs)

    def _append(self, tid: str, version: int, events: list[dict], command_id: str,
                meta: dict | None = None, stamp: tuple[str, ...] = ()) -> None:
        """Append if the log is still at ``version`` (and the head read with it): VersionConflict otherwise."""
        read, head = self._heads[tid]
        if read != version:
            raise VersionConflict(read)
        self.store.append(tid, version, events, expected_head=head, seat=None, command_id=command_id, command=None,
                          rules_version=RULES_VERSION, meta=meta, stamp=stamp)

