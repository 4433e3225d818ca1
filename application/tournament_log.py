"""One tournament's log on the store: load it, append a decided step (with the status it moves
to in the meta hash and the tournament list's indexes), and sign its final standings.

Tournaments are event-sourced streams: the same store, envelope and hash chain as games,
under their own key prefix (``<prefix>:tourney``) so the game reactor's feeds never see them
(the tournament reactor reads that prefix's feeds: workers/tournament_reactor.py).
"""
from __future__ import annotations

import json
import time

from domain.tournament import decide
from domain.tournament.log import TOURNAMENT, TournamentStatus, fold
from errors import GameNotFound, TournamentNotFound
from application import attestation
from application.signing import Signer
from events.repository import Repository, Stored
from events.store import RedisEventStore

STANDINGS_FIELD = "standings_signature"  # the tournament meta field holding the signed final standings
STATUSES = tuple(TournamentStatus)


class TournamentLog:
    def __init__(self, games_store: RedisEventStore, signer: Signer | None):
        self.store = games_store.sibling(f"{games_store.prefix}:tourney")
        self.repo = Repository(self.store, lambda _meta: TOURNAMENT)
        self.signer = signer

    def meta(self, tid: str) -> dict[str, str]:
        """The tournament's meta hash; TournamentNotFound when there is none."""
        try:
            return self.store.meta(tid)
        except GameNotFound:
            raise TournamentNotFound(tid) from None

    def load(self, tid: str) -> Stored:
        """The log's meta hash, folded state, version and head (TournamentNotFound when there is none)."""
        try:
            return self.repo.load(tid)
        except GameNotFound:
            raise TournamentNotFound(tid) from None

    def create(self, tid: str, meta: dict[str, str], events: list[dict], state: dict) -> None:
        """Write a new log (its ``state`` folded by the caller) and list it."""
        self.repo.create(tid, TOURNAMENT, meta, events, command_id=f"create:{tid}", state=state)
        self.index(tid, state["game"], state["status"])

    def append(self, was: Stored, step: decide.Step) -> None:
        """Append a decided batch if the log is still where it was read (VersionConflict otherwise);
        a status it changes is recorded in the meta and the list's indexes with it."""
        before = was.state["status"]
        state = was.state
        for ev in step.events:
            TOURNAMENT.evolve(state, ev)
        status = state["status"]
        meta = {"status": status} if status != before else None
        closes = status == TournamentStatus.FINISHED and before != TournamentStatus.FINISHED
        stamp = ("finished_at",) if closes else ()
        self.repo.append(was, step.events, command_id=step.command_id, state=state, meta=meta, stamp=stamp)
        if meta:
            self.index(was.id, state["game"], status)
        if closes:
            self.signed_standings(was.id)

    def index(self, tid: str, game: str, status: str) -> None:
        """The tournament list's indexes (the lobby's kind, under the tournament prefix)."""
        others = [f"status:{s}" for s in STATUSES if s != status]
        self.store.indexes.put(tid, time.time(), ["all", f"game:{game}", f"status:{status}"], others)

    def index_player(self, tid: str, entrant: dict) -> None:
        if entrant.get("player"):
            self.store.indexes.put(tid, time.time(), [f"player:{entrant['player']}"], [])

    def signed_standings(self, tid: str) -> dict | None:
        """The finished tournament's standings signed with its log's head and every game's head
        (stored in its meta; None without a key or before the end)."""
        meta = self.store.meta(tid)
        if meta.get(STANDINGS_FIELD):
            return json.loads(meta[STANDINGS_FIELD])
        if self.signer is None or meta.get("status") != TournamentStatus.FINISHED:
            return None
        log = list(self.store.reads.iter_all(tid))
        t = fold({"type": e["type"], "data": e["data"]} for e in log)
        heads = {tb["game_id"]: tb["chain_head"] for r in t["rounds"] for tb in r["tables"]}
        final = next(e for e in reversed(log) if e["type"] == "TournamentFinished")["data"]["standings"]
        signed = self.signer.sign(attestation.standings_statement(tid, t["game"], len(log), log[-1]["hash"], heads,
                                                                  final))
        self.store.reads.mark(tid, STANDINGS_FIELD, json.dumps(signed))
        return signed
