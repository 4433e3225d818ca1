"""A game's status in its meta hash, as the platform moves it: ``open`` (seats wait for players),
``active`` (dealt, taking commands), then ``finished`` or ``aborted`` (closed: no more commands).
A ``StrEnum``: each member is the very string stored and served, so stored metas read as before."""
from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    OPEN = "open"
    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"


ENDED = (GameStatus.FINISHED, GameStatus.ABORTED)  # statuses of a game the platform has closed
