"""Who is asking: the seat a bearer token stands for in one game, the admin, or a spectator.

Seat tokens, the admin token and invite tokens are kept only as hashes
(``application.tokens``) and compared in constant time; a player token stands
for the seat its player holds.
"""
from __future__ import annotations

import hmac
import json

from errors import Forbidden
from application import seating
from application.players import Players
from application.tokens import hash_token
from events.store import RedisEventStore

ADMIN = -1  # the pseudo-seat of a request bearing the admin token


class Access:
    def __init__(self, store: RedisEventStore, players: Players, admin_token: str | None = None):
        self.store, self.players = store, players
        self.admin_token_hash = hash_token(admin_token) if admin_token else None

    def authenticate(self, game_id: str, token: str | None, meta: dict[str, str] | None = None) -> int | None:
        """The seat a bearer token belongs to, ADMIN, or None for a spectator.

        Tokens are compared as hashes in constant time; an unknown token is
        Forbidden rather than silently treated as a spectator. ``meta`` saves
        a read when the caller holds the game's meta hash already.
        A player token stands for the seat its player holds; elsewhere it (or
        the game's invite token) is a spectator's. A private game shows
        nothing to a caller with neither.
        """
        meta = meta if meta is not None else self.store.meta(game_id)
        if not token:
            if meta.get("visibility") == "private":
                raise Forbidden("private_game", "this game is private: send a seat, player or invite token")
            return None
        digest = hash_token(token)
        if self.admin_token_hash and hmac.compare_digest(digest, self.admin_token_hash):
            return ADMIN
        found = None
        for key, value in meta.items():
            if key.startswith("token:") and hmac.compare_digest(digest, value):
                found = int(key.split(":", 1)[1])
        if found is not None:
            return found
        if meta.get("invite") and hmac.compare_digest(digest, meta["invite"]):
            return None
        player = self.players.by_token_digest(digest)
        if player is not None:
            seat = seating.seat_of(json.loads(meta["seats"]), player)
            if seat is None and meta.get("visibility") == "private":
                raise Forbidden("private_game", "this game is private and this player holds no seat of it: "
                                "send a seat or invite token")
            return seat
        raise Forbidden("invalid_token", "this token does not belong to any seat of this game")
