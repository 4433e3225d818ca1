"""The games of a tournament's tables: created if absent, their player entrants seated,
and their end reported -- the side of ``advance`` (application/tournaments.py) that touches games.

Both functions may run any number of times for the same table (a redelivered
job, a re-run after a worker died between two of their steps): creating a game
under its derived id happens at most once, a seat already taken is not taken
again, and a report is a pure function of the game's closed log.
"""
from __future__ import annotations

import json

from domain.core import Illegal
from domain.tournament.log import table_result
from errors import GameExists, GameNotFound, NotActive, PlayerNotFound, VersionConflict
from application import joining
from application.access import ADMIN
from application.service import GameService
from application.status import ENDED, GameStatus


def ensure(games: GameService, tid: str, t: dict, round_no: int, table: dict) -> None:
    """Create the table's game under its derived id unless it exists, and seat its player entrants.

    The game plays under the rules version the tournament was created with, so a
    rules fix landing mid-tournament changes no table of it. Every seat of a player entrant is reserved for that player and taken for it at
    once (``SeatTaken`` with no entropy of its own), so the game is dealt and its
    clock runs without waiting for anyone (TRN-CLK-1); the player plays it with
    their own player token.
    """
    gid = table["game_id"]
    by_id = {e["id"]: e for e in t["entrants"]}
    try:
        meta = games.store.meta(gid)
    except GameNotFound:
        seats = [{"player": by_id[e]["player"]} if by_id[e].get("player")
                 else {"name": by_id[e]["name"], "bot": by_id[e]["bot"]} for e in table["seats"]]
        try:
            games.create(t["game"], seats, t["options"], tags={"tournament": tid, "round": str(round_no)},
                         clock=t.get("clock"), derived_id=gid, rules_version=t.get("rules_version"))
        except GameExists:
            pass  # another worker created it a moment ago
        meta = games.store.meta(gid)
    for seat in json.loads(meta["seats"]):
        if seat.get("open") and seat.get("reserved") and meta.get("status") == GameStatus.OPEN:
            try:
                joining.join(games, gid, games.players.get(seat["reserved"]), seat=seat["seat"])
            except (Illegal, PlayerNotFound, VersionConflict):
                pass  # seated meanwhile, or cancelled: the report adjudicates what is left (TRN-PTS-3)


def close(games: GameService, table: dict) -> None:
    """End the game of a table the director decided (TRN-DIR-1) through the platform's own
    commands: an open game is cancelled, a running one aborted (``abort``). The decided result
    stands whatever the game does, so a game that ended meanwhile, or that does not exist
    yet (the next advance creates it and comes back here), is left as it is."""
    gid = table["game_id"]
    try:
        status = games.store.meta(gid).get("status")
    except GameNotFound:
        return
    try:
        if status == GameStatus.OPEN:
            joining.cancel(games, gid, ADMIN)
        elif status == GameStatus.ACTIVE:
            games.platform(gid, None, "abort")
    except (Illegal, NotActive, VersionConflict):
        pass  # dealt or ended in between: a later advance looks again


def report(games: GameService, round_no: int, index: int, table: dict) -> dict | None:
    """A GameFinished report for a table whose game the platform closed, else None.

    A game closed as finished is scored by its final board, however it ended (a
    seat's clock included, TRN-CLK-1); an aborted or cancelled one places nobody
    (TRN-PTS-3, TRN-KO-2).
    """
    try:
        meta = games.store.meta(table["game_id"])
    except GameNotFound:
        return None
    if meta.get("status") not in ENDED:
        return None
    last = games.store.read(table["game_id"], after=int(meta["version"]) - 1)[-1]
    scores = last["data"]["scores"] if last["type"] == "GameFinished" else None
    return {"type": "GameFinished", "data": {
        "round": round_no, "table": index, "game_id": table["game_id"], "chain_head": meta["head"],
        "result": table_result(scores, table["seats"])}}
