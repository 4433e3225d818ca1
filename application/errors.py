"""What the application refuses, in one module: each exception is one problem+json answer,
mapped once by server/errors.py (the store's own refusals are events/errors.py; a rule a
command breaks is ``domain.core.Illegal``)."""
from __future__ import annotations

from domain.core import Illegal


class Forbidden(Exception):
    """An authenticated caller asked for something its seat may not do (401 ``invalid_token``, else 403)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


class NotActive(Exception):
    """A command for a game that has finished or was aborted (409)."""


class NotHeld(Illegal):
    """A version inside one command's batch: the game never rested there. Names the nearest held ones."""

    def __init__(self, version: int, before: int | None, after: int | None):
        near = " and ".join(str(v) for v in (before, after) if v is not None)
        super().__init__("not_a_held_version", None,
                         f"version {version} falls inside one command's batch of events, where the game never "
                         f"rested; the nearest held versions are {near or 'none'} (or ask for ?move=n)")
        self.extra = {"nearest_held": [v for v in (before, after) if v is not None]}


class NoSuchVersion(LookupError):
    """A replay asked for a version the game has not reached (or never could) (404)."""

    def __init__(self, current: int):
        super().__init__(f"versions run from 1 to {current}")
        self.current = current


class NoSuchMove(LookupError):
    """A move number the game has not reached (404)."""

    def __init__(self, game_id: str, message: str):
        super().__init__(message)
        self.game_id = game_id


class PlayerNotFound(LookupError):
    """No player has this id (404); ``args[0]`` is the id asked for."""


class TournamentNotFound(LookupError):
    """No tournament has this id (404); ``args[0]`` is the id asked for."""


class InvitationNotFound(LookupError):
    """The player holds no invitation with this id (404); ``args[0]`` is the id asked for."""


class Full(Exception):
    """No lease left: ``retry_after`` seconds until the oldest one runs out at the latest (503)."""

    def __init__(self, cap: int, retry_after: int):
        super().__init__(f"{cap} held")
        self.cap, self.retry_after = cap, retry_after
