"""The statuses the platform stores and serves, as ``StrEnum``s: each member is the very string
stored and served, so stored metas and published verdicts read as before.

``GameStatus``: a game's status in its meta hash, as the platform moves it: ``open`` (seats wait
for players), ``active`` (dealt, taking commands), then ``finished`` or ``aborted`` (closed: no
more commands). A tournament's is ``domain.tournament.log.TournamentStatus``.
``VerdictStatus``: what verifying a record found (``application.replay.Verdict``)."""
from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    OPEN = "open"
    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"


ENDED = (GameStatus.FINISHED, GameStatus.ABORTED)  # statuses of a game the platform has closed


class VerdictStatus(StrEnum):
    OK = "ok"
    INCOMPLETE = "incomplete"  # sound so far, but the record ends before its game did (or its signature)
    FAILED = "failed"


def ended(meta: dict[str, str]) -> bool:
    """Has the platform closed this game (finished or aborted)?"""
    return meta.get("status") in ENDED
