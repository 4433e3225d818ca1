"""A tournament's own event log folded into its state: what the service serves
and the verifier re-checks. Pure, like every fold.

Events (``{"type", "data"}``): TournamentCreated, EntrantRegistered,
EntrantWithdrew, TournamentStarted (registration closes; round 1 is paired by
a job), RoundPaired, GameFinished (a table's result and its game's chain
head), RoundCompleted, SeedRevealed, TournamentFinished.
"""
from __future__ import annotations

import hashlib
from typing import Iterable

from domain.tournament.config import Config

RULES_VERSION = "tournament-1"


def initial() -> dict:
    return {"status": "new", "entrants": [], "rounds": [], "seed": None}


def evolve(state: dict, ev: dict) -> dict:
    """Apply one event (mutates and returns ``state``)."""
    d, kind = ev["data"], ev["type"]
    if kind == "TournamentCreated":
        state.update({k: d[k] for k in ("tournament", "game", "options", "config", "seed_commitment", "name")})
        state.update(organizer=d.get("organizer"), clock=d.get("clock"), start_at=d.get("start_at"),
                     rules_version=d.get("rules_version"), status="registering")
    elif kind == "EntrantRegistered":
        state["entrants"].append({**d["entrant"], "withdrawn": False})
    elif kind == "EntrantWithdrew":
        entrant(state, d["entrant"])["withdrawn"] = True
    elif kind == "TournamentStarted":
        state["status"] = "running"
    elif kind == "RoundPaired":
        state["status"] = "running"
        state["rounds"].append({"round": d["round"], "byes": list(d["byes"]), "completed": False,
                                "tables": [{"seats": list(t["seats"]), "game_id": t["game_id"], "result": None,
                                            "chain_head": None} for t in d["tables"]]})
    elif kind == "GameFinished":
        table = state["rounds"][d["round"] - 1]["tables"][d["table"]]
        table["result"], table["chain_head"] = d["result"], d["chain_head"]
    elif kind == "RoundCompleted":
        state["rounds"][d["round"] - 1]["completed"] = True
    elif kind == "SeedRevealed":
        state["seed"] = d["seed"]
    elif kind == "TournamentFinished":
        state["status"] = "finished"
    return state


def fold(events: Iterable[dict]) -> dict:
    state = initial()
    for ev in events:
        evolve(state, ev)
    return state


def config_of(state: dict) -> Config:
    return Config.from_dict(state["config"])


def entrant(state: dict, entrant_id: str) -> dict:
    return next(e for e in state["entrants"] if e["id"] == entrant_id)


def pairing_view(rounds: list[dict]) -> list[dict]:
    """The rounds as the pairing rules read them (seats, byes, results), without game ids."""
    return [{"round": r["round"], "byes": r["byes"],
             "tables": [{"seats": t["seats"], "result": t["result"]} for t in r["tables"]]} for r in rounds]


def game_id_for(tournament: str, round_no: int, table: int) -> str:
    """The id of a round's table's game, derived so a re-run of the pairing job
    finds the game it created before a crash instead of creating another."""
    digest = hashlib.sha256(f"{tournament}:{round_no}:{table}".encode()).hexdigest()
    return "g" + digest[:16]


def table_result(scores: dict | None, seats: list[str]) -> dict:
    """A table's result from its game's final score board (``Scoreboard.to_dict``):
    seat ``i`` is the entrant ``seats[i]``. An aborted game, or one cancelled
    before it was dealt (``scores`` None), places nobody and scores 0
    (TRN-PTS-3); a game a clock ended is scored by its board like any other
    (TRN-CLK-1: the seat that ran out of time placed last)."""
    kind = ((scores or {}).get("outcome") or {}).get("kind")
    if scores is None or kind == "aborted":
        return {"places": {e: None for e in seats}, "scores": {e: 0 for e in seats}, "outcome": "aborted"}
    lines = {line["seat"]: line for line in scores["seats"]}
    return {"places": {e: lines[i]["place"] for i, e in enumerate(seats)},
            "scores": {e: lines[i]["total"] for i, e in enumerate(seats)}, "outcome": kind}
