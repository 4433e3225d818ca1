"""A tournament's own event log folded into its state: what the service serves
and the verifier re-checks. Pure, like every fold.

Events (``{"type", "data"}``): TournamentCreated, EntrantRegistered,
EntrantWithdrew (from a round), TournamentStarted (registration closes; round 1
is paired by a job), RoundPaired, GameFinished (a table's result and its game's
chain head), ResultDecided (a director's result for a table: forfeit, walkover,
double forfeit, adjudicated), ResultCorrected (a director's new result for a table
that had one, with the ``previous`` it replaces), RoundCompleted, SeedRevealed,
TournamentFinished.
"""
from __future__ import annotations

import hashlib
from enum import StrEnum
from typing import Iterable

from domain.kit import UnknownEvent, copy_state
from domain.tournament.config import Config

RULES_VERSION = "tournament-1"


class TournamentStatus(StrEnum):
    """Where a tournament stands: ``registering`` entrants, ``running`` rounds, ``finished``. A
    ``StrEnum``: each member is the string its meta hash stores and the API serves."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"


def initial() -> dict:
    return {"status": "new", "entrants": [], "rounds": [], "seed": None}


def _created(state: dict, d: dict) -> None:
    state.update({k: d[k] for k in ("tournament", "game", "options", "config", "seed_commitment", "name")})
    state.update(organizer=d.get("organizer"), clock=d.get("clock"), start_at=d.get("start_at"),
                 status=TournamentStatus.REGISTERING)


def _registered(state: dict, d: dict) -> None:
    state["entrants"].append({**d["entrant"], "withdrawn": False})


def _withdrew(state: dict, d: dict) -> None:
    """``from_round`` (logs since pairing version 3): the first round the entrant does not play."""
    e = entrant(state, d["entrant"])
    e["withdrawn"] = True
    if "from_round" in d:
        e["withdrawn_from"] = d["from_round"]


def _started(state: dict, d: dict) -> None:
    state["status"] = TournamentStatus.RUNNING


def _paired(state: dict, d: dict) -> None:
    state["status"] = TournamentStatus.RUNNING
    state["rounds"].append({"round": d["round"], "byes": list(d["byes"]), "completed": False,
                            "tables": [{"seats": list(t["seats"]), "game_id": t["game_id"], "result": None,
                                        "chain_head": None} for t in d["tables"]]})


def _reported(state: dict, d: dict) -> None:
    table = state["rounds"][d["round"] - 1]["tables"][d["table"]]
    table["result"], table["chain_head"] = d["result"], d["chain_head"]


def _decided(state: dict, d: dict) -> None:
    """The director's result replaces whatever the table had (nothing, or an aborted game's)."""
    table = state["rounds"][d["round"] - 1]["tables"][d["table"]]
    table["result"] = d["result"]
    table["decision"] = {"kind": d["kind"], "reason": d["reason"], "by": d["by"]}


def _corrected(state: dict, d: dict) -> None:
    """The corrected result replaces the table's (TRN-DIR-3); its ``decision``, if any, stays what was
    decided, and every correction is kept in order with the result it replaced."""
    table = state["rounds"][d["round"] - 1]["tables"][d["table"]]
    table["result"] = d["result"]
    table.setdefault("corrections", []).append({"kind": d["kind"], "reason": d["reason"], "by": d["by"],
                                                "previous": d["previous"]})


def _completed(state: dict, d: dict) -> None:
    state["rounds"][d["round"] - 1]["completed"] = True


def _revealed(state: dict, d: dict) -> None:
    state["seed"] = d["seed"]


def _finished(state: dict, d: dict) -> None:
    state["status"] = TournamentStatus.FINISHED


HANDLERS = {"TournamentCreated": _created, "EntrantRegistered": _registered, "EntrantWithdrew": _withdrew,
            "TournamentStarted": _started, "RoundPaired": _paired, "GameFinished": _reported,
            "ResultDecided": _decided, "ResultCorrected": _corrected, "RoundCompleted": _completed,
            "SeedRevealed": _revealed, "TournamentFinished": _finished}


def evolve(state: dict, ev: dict) -> dict:
    """Apply one event (mutates and returns ``state``); an event type it does not know is an
    error (UnknownEvent), never skipped: a log it cannot fold is not served or verified."""
    handler = HANDLERS.get(ev["type"])
    if handler is None:
        raise UnknownEvent(f"no handler for tournament event {ev['type']!r}")
    handler(state, ev["data"])
    return state


def fold(events: Iterable[dict]) -> dict:
    state = initial()
    for ev in events:
        evolve(state, ev)
    return state


class TournamentLog:
    """The tournament log as an aggregate the event store folds, caches and snapshots like a
    game (``events.repository``). Every envelope of the log is its own event: the store folds
    all of them (no platform envelopes to leave out, unlike a game's)."""

    rules_version = RULES_VERSION
    platform_events: frozenset[str] = frozenset()

    def initial_state(self) -> dict:
        return initial()

    def evolve(self, state: dict, event: dict) -> dict:
        return evolve(state, event)

    def dump_state(self, state: dict) -> dict:
        return copy_state(state)

    def load_state(self, data: dict) -> dict:
        return copy_state(data)


TOURNAMENT = TournamentLog()


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
