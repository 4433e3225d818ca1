"""Bearer tokens: a seat token, a player token, the admin token, or none (a spectator)."""
from __future__ import annotations

from flask import request

from errors import ApiError
from application.players import Player
from application.access import ADMIN
from application.service import GameService


def bearer() -> str | None:
    """The bearer token of the request, if any; a malformed header is a 401."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "malformed_authorization", "use 'Authorization: Bearer <seat token>'")
    return token.strip()


def caller(service: GameService, game_id: str, meta: dict[str, str] | None = None) -> int | None:
    """The caller's seat in ``game_id``: an index, ADMIN, or None (spectator)."""
    return service.authenticate(game_id, bearer(), meta)


def require_seat(service: GameService, game_id: str, meta: dict[str, str] | None = None) -> int:
    """The caller's seat: 401 without a token, 403 ``not_a_seat`` for a valid token that holds none
    here (a player who is not seated, the game's invite token)."""
    seat = caller(service, game_id, meta)
    if seat is None and bearer() is None:
        raise ApiError(401, "token_required", "acting needs a seat token, or the player token of a seated player")
    if seat is None:
        raise ApiError(403, "not_a_seat", "this token holds no seat of this game: act with a seat token, or the "
                       "player token of a player seated here")
    if seat == ADMIN:
        raise ApiError(403, "admin_cannot_act", "the admin token reads everything but plays no seat")
    return seat


def player(service: GameService, required: bool = True) -> Player | None:
    """The player a bearer token names; 401 for a token that names none (or none, when required)."""
    token = bearer()
    if token is None:
        if required:
            raise ApiError(401, "player_token_required", "send 'Authorization: Bearer <player token>' "
                           "(create a player with POST /v1/players)")
        return None
    found = service.players.by_token(token)
    if found is None:
        raise ApiError(401, "invalid_player_token", "this token belongs to no player")
    return found
