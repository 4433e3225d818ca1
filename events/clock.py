"""The time an append is stamped with: Redis's clock, read in the round trip before the append.

Every process reads one clock (Redis's ``TIME``), so the ``at`` of a game's events never depends on
which host wrote them. The read that precedes every append (``events.states``: the cached game's
script, or the tail of its log) also reads ``TIME``; :class:`ReadTimes` keeps that reading for the
append that follows, which seals the envelopes -- hashes included -- in Python. The append script
only checks that the time does not go back and is not ahead of Redis's clock.
"""
from __future__ import annotations

from collections import OrderedDict
from datetime import datetime, timezone
from typing import NamedTuple

KEPT = 4096  # games whose last read time this process remembers (an append follows its read at once)


def iso_ms(ms: int) -> str:
    """Unix milliseconds as the envelopes' ``at``: ``2026-11-25T16:20:01.123Z``."""
    return datetime.fromtimestamp(ms // 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def time_ms(reply) -> int:
    """Redis ``TIME`` (``[seconds, microseconds]``, as a script or redis-py returns it) in milliseconds."""
    secs, micros = int(reply[0]), int(reply[1])
    return secs * 1000 + micros // 1000


class Stamp(NamedTuple):
    """The ``at`` of a batch (ISO) and the Redis time it comes from (ms)."""

    at: str
    ms: int


def stamp(now_ms: int, last_at: str | None) -> Stamp:
    """The time of an append read at ``now_ms`` after a last event at ``last_at``: never earlier
    than ``last_at`` (after Redis's clock stepped back, the game keeps its last time)."""
    at = iso_ms(now_ms)
    return Stamp(last_at, now_ms) if last_at and last_at > at else Stamp(at, now_ms)


class ReadTimes:
    """Per game: the version a read saw and the stamp an append at that version takes."""

    def __init__(self) -> None:
        self._seen: OrderedDict[str, tuple[int, Stamp]] = OrderedDict()

    def saw(self, game_id: str, version: int, now_ms: int, last_at: str | None) -> None:
        self._seen[game_id] = (version, stamp(now_ms, last_at))
        self._seen.move_to_end(game_id)
        while len(self._seen) > KEPT:
            self._seen.popitem(last=False)

    def take(self, game_id: str, version: int) -> Stamp | None:
        """The stamp read with ``version`` (None when this process read another version since)."""
        seen = self._seen.get(game_id)
        return seen[1] if seen is not None and seen[0] == version else None
