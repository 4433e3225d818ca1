"""Bearer tokens: made at random, stored only as sha256 hashes.

Seat tokens, player tokens and invite tokens all follow this rule, so a
leaked Redis dump never lets anyone act as a seat or a player.
"""
from __future__ import annotations

import hashlib
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
