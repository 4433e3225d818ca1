"""Event envelopes and the sha256 hash chain that makes a game log tamper-evident.

``hash = sha256(prev_hash + canonical_json(envelope without hash))``; the first
event's ``prev_hash`` is GENESIS. Anyone holding an export can recompute it. An
envelope holds exactly ``FIELDS`` and ``hash``: a key beside them would ride along
uncovered, and one missing would hash as null, so either breaks the chain.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable, Iterator

import orjson

from domain.core import canonical_bytes

GENESIS = "0" * 64
# Appended by the platform, not decided by a game: games never fold them.
PLATFORM_EVENTS = frozenset({"GameCreated", "SeedRevealed", "GameFinished",
                             "SeatTaken", "SeatLeft", "GameStarted", "GameCancelled", "TimeExpired"})
FIELDS = ("seq", "game_id", "type", "data", "seat", "command_id", "command", "at", "rules_version", "prev_hash")
KEYS = frozenset((*FIELDS, "hash"))  # every key of an envelope, as ``seal`` writes it (and always has)


def compute_hash(envelope: dict[str, Any]) -> str:
    body = {k: envelope.get(k) for k in FIELDS}
    return hashlib.sha256(envelope["prev_hash"].encode() + canonical_bytes(body)).hexdigest()


def seal(
    events: list[dict],
    *,
    game_id: str,
    first_seq: int,
    prev_hash: str,
    seat: int | None,
    command_id: str,
    command: dict | None,
    at: str,
    rules_version: str,
) -> list[dict]:
    """Wrap domain events in chained envelopes.

    The command that caused the batch rides on the batch's first envelope
    only, so a verifier can re-run ``decide`` and compare the whole batch.
    """
    out = []
    for i, ev in enumerate(events):
        env = {
            "seq": first_seq + i,
            "game_id": game_id,
            "type": ev["type"],
            "data": ev.get("data", {}),
            "seat": seat,
            "command_id": command_id,
            "command": command if i == 0 else None,
            "at": at,
            "rules_version": rules_version,
            "prev_hash": prev_hash,
        }
        env["hash"] = compute_hash(env)
        prev_hash = env["hash"]
        out.append(env)
    return out


def first_broken_link(envelopes: Iterable[dict]) -> tuple[int | None, str]:
    """The seq of the first envelope whose chain breaks, and why (None if intact)."""
    prev, expected_seq = GENESIS, 1
    for env in envelopes:
        seq = env.get("seq")
        if seq != expected_seq:
            return seq if isinstance(seq, int) else expected_seq, f"expected seq {expected_seq}, found {seq!r}"
        if env.keys() != KEYS:
            return seq, _other_keys(env)
        if env.get("prev_hash") != prev:
            return seq, "prev_hash does not match the previous event's hash"
        if env.get("hash") != compute_hash(env):
            return seq, "hash does not match the envelope's content"
        prev, expected_seq = env["hash"], expected_seq + 1
    return None, ""


def _other_keys(env: dict) -> str:
    extra, missing = sorted(env.keys() - KEYS), [k for k in (*FIELDS, "hash") if k not in env]
    said = ([f"holds {', '.join(map(repr, extra))}, which Delve never writes and no hash covers"] if extra else []) + \
        ([f"lacks {', '.join(map(repr, missing))}, which every envelope holds"] if missing else [])
    return "the envelope " + ", and ".join(said)


def domain_events(envelopes: Iterable[dict], platform: frozenset[str] = PLATFORM_EVENTS) -> Iterator[dict]:
    """The aggregate's own events of some envelopes, as ``{type, data}`` for ``evolve``: all but the
    ``platform`` envelopes (a game's: GameCreated, SeatTaken...; a tournament log has none)."""
    return ({"type": e["type"], "data": e["data"]} for e in envelopes if e["type"] not in platform)


def loads(text: str | bytes) -> Any:
    """``json.loads``, through orjson where both read the same value: orjson reads an integer
    past 64 bits as a float and refuses NaN or a lone surrogate, so such text (and any run of
    18 or more digits) goes to the standard library, as all of it did before."""
    raw = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    if _LONG_DIGITS not in raw.translate(_DIGITS):  # an ASCII digit is one byte in UTF-8, other bytes are none
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


# Digits as 0, any other byte as x: a run of 18 digits is then a plain substring (a regex took
# a tenth of verifying an export, issue 22).
_DIGITS = bytes(b"0"[0] if 48 <= b <= 57 else b"x"[0] for b in range(256))
_LONG_DIGITS = b"0" * 18
