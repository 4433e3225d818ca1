"""Who a request is, for limits and quotas: the owner of a valid token, else the client's address.

A limit keyed on the Authorization header as sent is no limit: a made-up
header per request is a new client each time. Here a token counts only once
it is checked (a player's, the admin's, or a seat of the game at hand); any
other request, with or without a header, is its address (the peer, or the
client behind DELVE_TRUSTED_PROXIES). The answer is kept for the request.
"""
from __future__ import annotations

import hmac

from flask import g, request

from application.service import GameService
from application.tokens import hash_token

ADMIN = "admin"


def address() -> str:
    return f"addr:{request.remote_addr or 'unknown'}"


def of(svc: GameService, meta: dict[str, str] | None = None, game_id: str | None = None) -> str:
    """``admin``, ``player:<id>``, ``seat:<game>:<n>`` (a seat token of ``game_id``, given its ``meta``),
    or ``addr:<ip>``."""
    cached = g.get("delve_identity")
    if cached is not None and (cached != address() or meta is None):
        return cached
    g.delve_identity = who = _resolve(svc, meta, game_id)
    return who


def _resolve(svc: GameService, meta: dict[str, str] | None, game_id: str | None) -> str:
    scheme, _, token = (request.headers.get("Authorization") or "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return address()
    digest = hash_token(token)
    if svc.admin_token_hash and hmac.compare_digest(digest, svc.admin_token_hash):
        return ADMIN
    for key, value in (meta or {}).items():  # a seat token: known from the meta already read, no round trip
        if key.startswith("token:") and hmac.compare_digest(digest, value):
            return f"seat:{game_id}:{key.split(':', 1)[1]}"
    player = svc.players.by_token_digest(digest)
    if player is not None:
        return f"player:{player}"
    return address()


def is_player(who: str) -> bool:
    return who.startswith("player:")
