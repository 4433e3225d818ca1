"""Invitations: how a player comes to play what someone else set up, only if they agree.

Nobody is entered into a tournament, or seated in a reserved seat, by anyone
but themselves. An organizer (or the admin) naming another player as an
entrant, or a game's creator reserving a seat for one, leaves that player an
invitation, listed at ``/v1/players/me/invitations``; accepting it enters the
player through the same step as entering themselves (the tournament's
``EntrantRegistered``, the game's ``SeatTaken``), declining it drops it (and
cancels a game that could only start with that player). So no game is played,
and no rating changes, for a player who did not choose to play it.

Invitations are kept per player (``events.accounts.InvitationRecords``),
keyed by what they invite to (a tournament id or a game id): inviting twice
to the same thing is one invitation. They are not part of any log: what the
logs record is the player's own entry.
"""
from __future__ import annotations

import settings
from domain.core import Illegal
from errors import InvitationNotFound
from events.accounts import InvitationRecords

class Invitations:
    def __init__(self, records: InvitationRecords):
        self.records = records

    def add(self, player: str, invitation: dict) -> dict:
        """Invite ``player`` to ``invitation["id"]`` (a tournament or game id); returns the invitation."""
        most = settings.get("DELVE_INVITATIONS_PER_PLAYER")  # 0: no limit
        if not self.records.put(player, invitation["id"], invitation, most or None):
            raise Illegal("too_many_invitations", None,
                          f"this player has {most} pending invitations; they must answer some first")
        return invitation

    def get(self, player: str, iid: str) -> dict:
        found = self.records.get(player, iid) if isinstance(iid, str) else None
        if found is None:
            raise InvitationNotFound(iid)
        return _stamped(found)

    def remove(self, player: str, iid: str) -> None:
        self.records.remove(player, iid)

    def pending(self, player: str) -> list[dict]:
        """The player's invitations, oldest first."""
        return sorted(map(_stamped, self.records.all(player)), key=lambda inv: (inv["created_at"], inv["id"]))


def _stamped(invitation: dict) -> dict:
    """``created_at`` with milliseconds, as every timestamp of the API (``clocks.now_iso``): a
    tournament's invitations were stamped to the second until then (``2026-11-23T18:00:00Z``),
    and such an invitation may still wait for its answer."""
    at = invitation.get("created_at")
    if isinstance(at, str) and len(at) == 20 and at.endswith("Z"):
        return {**invitation, "created_at": at[:-1] + ".000Z"}
    return invitation
