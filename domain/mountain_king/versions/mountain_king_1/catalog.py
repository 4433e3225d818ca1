"""Card lookups by id over the content pack: one index for horde and starter trolls.

A roster holds both kinds; they differ only in that starters have a starting
row and no level (they count 0 in the tie-break, MK-AMB-26). The cards are
read through the content table a test position may replace (``given trolls...``).
"""
from __future__ import annotations

from domain.kit import replaced

from . import content
from .content import HordeTroll, StarterTroll

_TROLLS = content.TABLES["trolls"]


def _top(t: HordeTroll | StarterTroll) -> tuple[str, ...]:
    return t.top if type(t) is StarterTroll else t.symbols


_TOP = {card: _top(t) for card, t in _TROLLS.own().items()}  # the game's own cards, the hot path


def top_row(card: str) -> tuple[str, ...]:
    """The symbols a troll produces on activation (MK-CASC-4)."""
    return _top(_TROLLS[card]) if replaced() else _TOP[card]


def starting_row(card: str) -> tuple[str, ...]:
    """A starter's one-time starting resources (MK-PSETUP-6)."""
    t = _TROLLS[card]
    if type(t) is not StarterTroll:
        raise KeyError(card)
    return t.bottom


def level(card: str) -> int:
    """Printed troll level; 0 for starters."""
    t = _TROLLS[card]
    return 0 if type(t) is StarterTroll else t.level


def horde_ids(lv: int) -> list[str]:
    return [t.id for t in content.horde_trolls() if t.level == lv]


def starter_ids(colour: str) -> list[str]:
    return [t.id for t in content.starter_trolls(colour)]
