"""Idempotency keys of appends: one request holds a key (a pending marker with a lease) until
the append script replaces the marker with the record of its batch, or the request releases it."""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass

import redis

from events import replication
from events.keys import Keys
from events.replies import as_text
from events.scripts import Scripts

IDEMPOTENCY_TTL = 24 * 3600
IDEMPOTENCY_LEASE_MS = 10_000  # how long a request may hold a key before another may take it over
PENDING = "pending:"


@dataclass(frozen=True)
class Claim:
    """The outcome of claiming an idempotency key: ours (``token``), done (``record``) or held elsewhere."""

    token: str | None = None
    record: dict | None = None
    pending_fingerprint: str | None = None


class Idempotency:
    def __init__(self, r: redis.Redis, keys: Keys, scripts: Scripts, *, wait_replicas: int = 0,
                 wait_timeout_ms: int = 1000, wait_floor: int | None = None):
        self.r, self.keys, self.scripts = r, keys, scripts
        self.wait_replicas, self.wait_timeout_ms, self.wait_floor = wait_replicas, wait_timeout_ms, wait_floor

    def claim(self, game_id: str, key: str, fingerprint: str) -> Claim:
        """Take ``key`` for one request (a pending marker with a lease), or say who has it."""
        name = self.keys.idem(game_id, key)
        token = secrets.token_hex(8)
        while not self.r.set(name, f"{PENDING}{token}:{fingerprint}", nx=True, px=IDEMPOTENCY_LEASE_MS):
            raw = self.r.get(name)
            if raw is None:
                continue  # released or expired between the two calls: try again
            raw = as_text(raw)
            if raw.startswith(PENDING):
                return Claim(pending_fingerprint=raw.rsplit(":", 1)[1])
            return Claim(record=json.loads(raw))
        return Claim(token=token)

    def confirm(self, game_id: str, key: str, version: int) -> None:
        """With ``wait_replicas``: make sure replicas hold a stored answer before it is given again
        (ReplicationUnconfirmed if not; events/replication.py)."""
        if self.wait_replicas > 0:
            replication.confirm(self.r, self.keys.idem(game_id, key), IDEMPOTENCY_TTL, self.wait_replicas,
                                self.wait_timeout_ms, game_id, version, self.wait_floor)

    def release(self, game_id: str, key: str, fingerprint: str, token: str) -> None:
        """Drop our pending marker (a refused request stores nothing); never another request's."""
        self.scripts.release(keys=[self.keys.idem(game_id, key)], args=[f"{PENDING}{token}:{fingerprint}"])

    def stored(self, game_id: str) -> list:
        """The names of every idempotency record of a game (compaction drops them, footprint weighs them)."""
        return list(self.r.scan_iter(match=self.keys.idem(game_id, "*"), count=1000))
