"""A game as the repository loads it: the ``Stored`` aggregate with the views every part of the service reads."""
from __future__ import annotations

import json
from dataclasses import dataclass

from domain.core import Game, Seat
from application.status import ended
from events.repository import Stored


@dataclass
class Loaded(Stored):
    """A game as the repository loaded it (``kind`` is its ``Game``)."""

    @property
    def game(self) -> Game:
        return self.kind

    @property
    def seats(self) -> list[Seat]:
        return [Seat.from_dict(s) for s in json.loads(self.meta["seats"])]

    @property
    def finished(self) -> bool:
        """Closed by the platform: ``finished`` or ``aborted``."""
        return ended(self.meta)
