"""Seeds no one can pick: the server's committed seed mixed with every joining seat's entropy.

At creation the server draws a secret ``server_seed`` and publishes only
``sha256(server_seed)`` in ``GameCreated``. Each seat that joins may send up to
64 bytes of ``entropy``, logged in its ``SeatTaken``. When the last seat is
taken the game's seed is fixed as ``HMAC-SHA256(server_seed, entropy_0 || ...
|| entropy_n)`` (seat order; a seat taken at creation or without entropy adds
nothing) and ``GameStarted`` is appended, before anything is dealt. The server
committed before it saw any entropy, so it cannot choose a seed for the
entropies it got; no player knows the server seed, so no player can choose
entropy that steers the deal. ``SeedRevealed`` publishes both seeds at the end
and ``verify`` recomputes the derivation from the log.
"""
from __future__ import annotations

import hashlib
import hmac
import re

from domain.core import Illegal

MAX_ENTROPY_BYTES = 64
_HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")


def derive(server_seed: bytes, entropies: list[bytes]) -> bytes:
    return hmac.new(server_seed, b"".join(entropies), hashlib.sha256).digest()


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def entropy(value: object) -> str:
    """A joining seat's entropy as lowercase hex ("" when none was sent); Illegal if malformed."""
    if value is None:
        return ""
    if not isinstance(value, str) or not _HEX.fullmatch(value) or len(value) > 2 * MAX_ENTROPY_BYTES:
        raise Illegal("bad_entropy", None,
                      f"entropy is an even number of hex digits, at most {MAX_ENTROPY_BYTES} bytes "
                      "(send random bytes, e.g. secrets.token_hex(32))")
    return value.lower()


def revealed(meta: dict[str, str]) -> dict:
    """``SeedRevealed``'s data: the seed committed to, and the derived game seed when there is one."""
    if meta.get("server_seed"):
        return {"seed": meta["server_seed"], "game_seed": meta.get("seed") or None}
    return {"seed": meta["seed"]}


def audit_parts(meta: dict[str, str], seats: list[dict], created: dict, over: bool) -> dict:
    """What ``audit`` shows of the seed: commitment, entropies, and both seeds once the game is over."""
    server_seed = meta.get("server_seed") or meta.get("seed")
    return {"server_seed_commitment": created["seed_commitment"],
            "entropy": [{"seat": s["seat"], "value": s.get("entropy", "")} for s in seats],
            "server_seed": server_seed if over else None,
            "seed": (meta.get("seed") or None) if over else None}
