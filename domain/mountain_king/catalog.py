"""Card lookups by id over the content pack: one index for horde and starter trolls.

A roster holds both kinds; they differ only in that starters have a starting
row and no level (they count 0 in the tie-break, MK-AMB-26).
"""
from __future__ import annotations

from . import content

_TOP: dict[str, tuple[str, ...]] = {}
_START: dict[str, tuple[str, ...]] = {}
_LEVEL: dict[str, int] = {}
for _t in content.horde_trolls():
    _TOP[_t.id] = _t.symbols
    _LEVEL[_t.id] = _t.level
for _c in content.colours():
    for _s in content.starter_trolls(_c):
        _TOP[_s.id] = _s.top
        _START[_s.id] = _s.bottom
        _LEVEL[_s.id] = 0


def top_row(card: str) -> tuple[str, ...]:
    """The symbols a troll produces on activation (MK-CASC-4)."""
    return _TOP[card]


def starting_row(card: str) -> tuple[str, ...]:
    """A starter's one-time starting resources (MK-PSETUP-6)."""
    return _START[card]


def level(card: str) -> int:
    """Printed troll level; 0 for starters."""
    return _LEVEL[card]


def horde_ids(lv: int) -> list[str]:
    return [t.id for t in content.horde_trolls() if t.level == lv]


def starter_ids(colour: str) -> list[str]:
    return [t.id for t in content.starter_trolls(colour)]
