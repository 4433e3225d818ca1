"""Bearer tokens: a seat token, the admin token, or none (a spectator)."""
from __future__ import annotations

from flask import request

from events.service import ADMIN, GameService
from server.errors import ApiError


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
    seat = caller(service, game_id, meta)
    if seat is None:
        raise ApiError(401, "token_required", "acting needs the seat token returned when the game was created")
    if seat == ADMIN:
        raise ApiError(403, "admin_cannot_act", "the admin token reads everything but plays no seat")
    return seat
