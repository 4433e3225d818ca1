"""What the store refuses: the outcomes of a write or a read the caller must handle."""
from __future__ import annotations


class VersionConflict(Exception):
    """``expected_version`` was stale; ``current`` is the version now stored."""

    def __init__(self, current: int):
        super().__init__(f"version conflict: current version is {current}")
        self.current = current


class GameNotFound(Exception):
    pass


class GameExists(Exception):
    pass


class KeyAlreadyUsed(Exception):
    """The idempotency key of an append already names a committed batch (``record``)."""

    def __init__(self, record: dict):
        super().__init__("idempotency key already used")
        self.record = record


class CorruptLog(Exception):
    """A game's stored log does not hold together (chain, count or head): it is never compacted."""
