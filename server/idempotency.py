"""``Idempotency-Key`` on POST actions, one answer per (seat, key), and on POST /v1/games, one game
per (identity, key): stored with the events.

A request claims the key with a pending marker (a lease), so a concurrent
request with the same key waits for the first one's outcome instead of
deciding again; the append script replaces the marker with the record of the
batch, atomically with the events, so a process that dies right after the
append still leaves the record behind. A retry gets the stored 201, rebuilt
from the record and the log; a refused request releases the marker and
stores nothing.

A create has no game to keep its key under yet, so the key names the game: its id
is derived from the caller's identity and the key (``creation_id``), the key is
held under that id, and the append that creates the game stores the record with
the whole 201 (seat tokens included: the client that lost the answer needs them).
A second create of that id cannot happen (the store refuses a taken id). The record is kept only
while the game is unfinished: a worker drops it when it compacts the closed game, moments after the
end, and until then ``claim_creation`` refuses it as expired rather than replay an answer whose
game has ended (its body says ``active``, its seat tokens act in nothing).
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from domain.core import canonical_json
from errors import ApiError, GameNotFound
from application.service import GameService
from application.status import ended
from events.idempotency import IDEMPOTENCY_LEASE_MS

POLL_S = 0.02


@dataclass
class Once:
    """The key a request holds (``None``: no Idempotency-Key sent)."""

    key: str | None = None
    fingerprint: str = ""
    token: str | None = None

    def record(self) -> tuple[str, dict] | None:
        """What the append stores under the key (the service adds the batch)."""
        return None if self.key is None else (self.key, {"fingerprint": self.fingerprint, "status": 201})


def claim(svc: GameService, game_id: str, seat: int, header: str | None, body: object) -> Once | dict:
    """Hold the key for this request, or return the stored record of the request that used it.

    Waits while another request holds the same key (it normally finishes in
    milliseconds); after the lease the key is free again.
    """
    if header is None:
        return Once()
    if not 1 <= len(header) <= 200:
        raise ApiError(400, "bad_idempotency_key", "Idempotency-Key must be 1-200 characters")
    once = Once(f"{seat}:{header}", hashlib.sha256(canonical_json(body).encode()).hexdigest())
    deadline = time.monotonic() + IDEMPOTENCY_LEASE_MS / 1000
    while True:
        got = svc.store.idempotency.claim(game_id, once.key, once.fingerprint)
        if got.token is not None:
            once.token = got.token
            return once
        if got.record is not None:
            return check(svc, game_id, once, got.record)
        if got.pending_fingerprint != once.fingerprint:
            raise reused()
        if time.monotonic() > deadline:
            raise ApiError(409, "idempotency_key_in_use", "a request with this Idempotency-Key is still running; "
                           "retry in a second", retry_after=1)
        time.sleep(POLL_S)


def creation_id(who: str, header: str) -> str:
    """The id of the game a create with Idempotency-Key ``header`` by identity ``who`` makes (ids are
    ``g`` + 16 hex digits; another identity's same key names another game)."""
    return "g" + hashlib.sha256(f"create\0{who}\0{header}".encode()).hexdigest()[:16]


def claim_creation(svc: GameService, who: str, header: str | None, body: object) -> tuple[str | None, Once | dict]:
    """``(the game's id, the key held)`` for a create (``(None, Once())`` without a key), or the
    stored record of the create that used the key with this body (422 with another; 409
    ``idempotency_key_expired`` once that game has ended, though its record may be held a moment more)."""
    if header is None:
        return None, Once()
    gid = creation_id(who, header)
    once = claim(svc, gid, "create", header, body)
    if isinstance(once, dict) and _gone(svc, gid):
        raise expired()
    return gid, once


def _gone(svc: GameService, game_id: str) -> bool:
    """Has the game a create's record answers ended (or is it no longer held at all)?"""
    try:
        return ended(svc.store.meta(game_id))
    except GameNotFound:
        return True


def check(svc: GameService, game_id: str, once: Once, record: dict) -> dict:
    """The stored record, if it answers this very body, once Redis replicas hold it (DELVE_WAIT_REPLICAS:
    the first answer may have been 503 ``replication_unconfirmed``)."""
    if record["fingerprint"] != once.fingerprint:
        raise reused()
    svc.store.idempotency.confirm(game_id, once.key, record["created"]["version"] if "created" in record
                                  else record["version"])
    return record


def release(svc: GameService, game_id: str, once: Once) -> None:
    if once.token is not None:
        svc.store.idempotency.release(game_id, once.key, once.fingerprint, once.token)


def expired() -> ApiError:
    return ApiError(409, "idempotency_key_expired", "a game was created with this Idempotency-Key, and its "
                    "stored answer is gone (kept 24 hours, and only while the game is unfinished); use a new key")


def reused() -> ApiError:
    return ApiError(422, "idempotency_key_reused", "this Idempotency-Key was used with a different body; use a new key")
