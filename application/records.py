"""The signatures a game's record carries (``application.attestation``), kept in its meta.

The seed commitment is signed at creation, in the same write as the game; the
record is signed by whoever closes the game (``finalize``) and, if that process
died between the two writes or held no key, by the first export after it.
Ed25519 signing is deterministic, so signing again never gives another answer
for the same key; a signature, once stored, is kept through key rotations.
"""
from __future__ import annotations

import json
from typing import Iterator

from application import attestation, moves
from application.replay import parse_ndjson
from application.signing import Signer
from application.status import ENDED
from domain import registry
from domain.core import canonical_json
from errors import GameNotFound
from events.store import RedisEventStore

COMMITMENT_FIELD, RECORD_FIELD = "commitment_signature", "record_signature"


def commitment_meta(signer: Signer | None, game_id: str, created: dict) -> dict[str, str]:
    """The meta field holding the signed seed commitment (nothing without a key)."""
    if signer is None:
        return {}
    return {COMMITMENT_FIELD: json.dumps(signer.sign(attestation.commitment_statement(game_id, created)))}


def sign_record(store: RedisEventStore, signer: Signer | None, game_id: str, meta: dict[str, str]) -> dict | None:
    """The signed record of a closed game: the stored one, else signed now and stored (None without a key)."""
    if meta.get(RECORD_FIELD):
        return json.loads(meta[RECORD_FIELD])
    if signer is None:
        return None
    envs = list(store.reads.iter_all(game_id))
    last = envs[-1]
    outcome = ((last.get("data") or {}).get("scores") or {}).get("outcome") if last["type"] == "GameFinished" else None
    labels = [m.label for m in moves.moves(registry.of(meta), envs, public=False)]
    signed = signer.sign(attestation.record_statement(
        game_id, meta["game"], meta["rules_version"], last["seq"], last["hash"], meta["status"], outcome, labels))
    store.reads.mark(game_id, RECORD_FIELD, json.dumps(signed))
    return signed


def signatures(store: RedisEventStore, signer: Signer | None, game_id: str, meta: dict[str, str],
               closed: bool) -> list[dict]:
    """The signed statements an export of the game carries: the commitment, and the record once closed."""
    out = [json.loads(meta[COMMITMENT_FIELD])] if meta.get(COMMITMENT_FIELD) else []
    record = sign_record(store, signer, game_id, meta) if closed else None
    return out + ([record] if record else [])


def export(store: RedisEventStore, signer: Signer | None, game_id: str, meta: dict[str, str],
           closed: bool) -> Iterator[str]:
    """The export's lines: every envelope, then one line per signature."""
    yield from store.export(game_id)
    for signed in signatures(store, signer, game_id, meta, closed):
        yield canonical_json(attestation.signature_line(signed)) + "\n"


def vouched(store: RedisEventStore, signer: Signer | None, lines: list) -> list:
    """An export this server still holds, closed, with the same final head, but that carries no
    record signature (exported before records were signed): its lines with the server's signatures
    added, so /v1/audit/verify vouches for its own record. Any other upload is returned as it is."""
    parsed, problems = parse_ndjson(lines)
    envs, signed = attestation.split(parsed)
    if problems or not envs or signer is None or any(
            isinstance(s.get("statement"), dict) and s["statement"].get("kind") == attestation.GAME_RECORD
            for s in signed):
        return lines
    game_id = envs[0].get("game_id")
    try:
        meta = store.meta(str(game_id))
    except GameNotFound:
        return lines  # a game this server does not hold: nothing to vouch for
    if meta.get("status") not in ENDED or meta.get("head") != envs[-1].get("hash"):
        return lines
    extra = [canonical_json(attestation.signature_line(x)) for x in signatures(store, signer, str(game_id), meta, True)]
    return [*lines, *extra]
