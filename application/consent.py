"""A player's answers to invitations (application/invitations.py): list, accept, decline.

Accepting enters the player through the step they would take by themselves
(registering as a tournament entrant, joining the reserved seat), so the
logs show the player's own entry and nothing else. An invitation to
something that has moved on (a tournament that started, a game cancelled or
begun) is dropped rather than listed.
"""
from __future__ import annotations

import json

from domain.core import Illegal
from domain.tournament.log import TournamentStatus
from errors import GameNotFound, TournamentNotFound
from application import joining
from application.players import Player
from application.service import GameService
from application.status import GameStatus
from application.tournaments import TournamentService


def pending(svc: GameService, player: Player) -> list[dict]:
    """The player's invitations that can still be accepted; stale ones are dropped."""
    out = []
    for inv in svc.invitations.pending(player.id):
        if _live(svc, player, inv):
            out.append(inv)
        else:
            svc.invitations.remove(player.id, inv["id"])
    return out


def _live(svc: GameService, player: Player, inv: dict) -> bool:
    try:
        if inv["kind"] == "tournament":
            return TournamentService(svc).status(inv["id"]) == TournamentStatus.REGISTERING
        meta = svc.store.meta(inv["id"])
    except (TournamentNotFound, GameNotFound):
        return False
    return meta["status"] == GameStatus.OPEN and any(
        s.get("open") and s.get("reserved") == player.id for s in json.loads(meta["seats"]))


def accept(svc: GameService, player: Player, iid: str) -> dict:
    """Enter what ``iid`` invites to; ``{id, kind, entrant | seat}``. The invitation is answered
    either way: one that can no longer be accepted is dropped with the refusal."""
    inv = svc.invitations.get(player.id, iid)
    try:
        if inv["kind"] == "tournament":
            out = {"entrant": TournamentService(svc).register(iid, {"player": player.id}, player.id)}
        else:
            out = {"seat": joining.join(svc, iid, player)}
    except (Illegal, TournamentNotFound, GameNotFound):
        svc.invitations.remove(player.id, iid)
        raise
    svc.invitations.remove(player.id, iid)
    return {"id": iid, "kind": inv["kind"], **out}


def decline(svc: GameService, player: Player, iid: str) -> dict:
    """Say no: a tournament invitation is dropped; a reserved seat's game is cancelled (it could
    not start without this player). ``{id, kind, declined: true}``."""
    inv = svc.invitations.get(player.id, iid)
    if inv["kind"] == "seat":
        try:
            joining.decline(svc, iid, player)
        except (Illegal, GameNotFound):
            pass  # the game began or ended meanwhile: there is nothing left to decline
    svc.invitations.remove(player.id, iid)
    return {"id": iid, "kind": inv["kind"], "declined": True}
