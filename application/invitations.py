"""Invitations: how a player comes to play what someone else set up, only if they agree.

Nobody is entered into a tournament, or seated in a reserved seat, by anyone
but themselves. An organizer (or the admin) naming another player as an
entrant, or a game's creator reserving a seat for one, leaves that player an
invitation, listed at ``/v1/players/me/invitations``; accepting it enters the
player through the same step as entering themselves (the tournament's
``EntrantRegistered``, the game's ``SeatTaken``), declining it drops it (and
cancels a game that could only start with that player). So no game is played,
and no rating changes, for a player who did not choose to play it.

Invitations are kept per player in one hash (``<prefix>:players:<id>:invitations``),
keyed by what they invite to (a tournament id or a game id): inviting twice
to the same thing is one invitation. They are not part of any log: what the
logs record is the player's own entry.
"""
from __future__ import annotations

import json

import redis

from domain.core import Illegal
from events.store import as_text

MAX_PENDING = 100  # invitations one player may hold; past it, inviting them is refused


class InvitationNotFound(Exception):
    pass


class Invitations:
    def __init__(self, r: redis.Redis, prefix: str):
        self.r, self.prefix = r, prefix

    def _key(self, player: str) -> str:
        return f"{self.prefix}:players:{player}:invitations"

    def add(self, player: str, invitation: dict) -> dict:
        """Invite ``player`` to ``invitation["id"]`` (a tournament or game id); returns the invitation."""
        key = self._key(player)
        if not self.r.hexists(key, invitation["id"]) and self.r.hlen(key) >= MAX_PENDING:
            raise Illegal("too_many_invitations", None,
                          f"this player has {MAX_PENDING} pending invitations; they must answer some first")
        self.r.hset(key, invitation["id"], json.dumps(invitation))
        return invitation

    def get(self, player: str, iid: str) -> dict:
        raw = self.r.hget(self._key(player), iid) if isinstance(iid, str) else None
        if raw is None:
            raise InvitationNotFound(iid)
        return json.loads(raw)

    def remove(self, player: str, iid: str) -> None:
        self.r.hdel(self._key(player), iid)

    def pending(self, player: str) -> list[dict]:
        """The player's invitations, oldest first."""
        found = [json.loads(as_text(v)) for v in self.r.hvals(self._key(player))]
        return sorted(found, key=lambda inv: (inv["created_at"], inv["id"]))
