"""Events of one decide, folded as they are emitted onto a private copy of the state,
so later steps of one ``decide`` see earlier effects exactly as ``evolve`` will.

Stands in until ``domain.kit.Batch`` (issue 6) lands on main; then this module goes.
"""
from __future__ import annotations

from domain.core import Event, event
from domain.dwarf.evolve import evolve
from domain.dwarf.state import copy


class Batch:
    def __init__(self, state: dict):
        self.state = copy(state)
        self.events: list[Event] = []

    def emit(self, type_: str, **data) -> None:
        ev = event(type_, **data)
        self.events.append(ev)
        evolve(self.state, ev)
