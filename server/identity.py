"""Who a request is, for limits and quotas: the owner of a valid token, else the client's address.

A limit keyed on the Authorization header as sent is no limit: a made-up
header per request is a new client each time. Here a token counts only once
it is checked (a player's, the admin's, or a seat of the game at hand); any
other request, with or without a header, is its address (the peer, or the
client behind DELVE_TRUSTED_PROXIES). The answer is kept for the request.
"""
from __future__ import annotations

import hmac
import ipaddress

from flask import g, request

from application.service import GameService
from application.tokens import hash_token

ADMIN = "admin"


def address() -> str:
    """The client address; an IPv6 one by its /64, which one subscriber usually holds whole (counting
    each of its 2^64 addresses apart would let one client be countless clients)."""
    addr = request.remote_addr or "unknown"
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return f"addr:{addr}"
    if ip.version == 6:
        if ip.ipv4_mapped is not None:  # ::ffff:1.2.3.4 is that IPv4 client
            return f"addr:{ip.ipv4_mapped}"
        return f"addr:{ipaddress.ip_network(f'{ip}/64', strict=False)}"
    return f"addr:{ip}"


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
