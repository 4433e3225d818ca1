"""The content pack (DW-GAP-1..3): effects and cards read from ``content/*.txt``.

The rulebook prints no card data, so both files are authored (see AUTHORED.md);
someone who owns the printed game can replace them line by line.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from domain.kit import Table

CONTENT = Path(__file__).parent / "content"
RESOURCES = ("iron", "gold", "steel", "object", "medal")
ACTION_TYPES = ("mine", "forge", "defend", "help")
THREATS = ("orc_raiders", "knockers", "dragon", "great_dragon", "sidhe")  # DW-GLOS-4..8


@dataclass(frozen=True)
class Effect:
    id: str
    type: str  # mine | forge | defend | help | special
    cost: dict
    gain: dict
    name: str

    @property
    def threat(self) -> bool:
        return self.id in THREATS

    def to_dict(self) -> dict:
        return {"id": self.id, "type": self.type, "cost": dict(self.cost), "gain": dict(self.gain),
                "name": self.name, "threat": self.threat}


@dataclass(frozen=True)
class Card:
    id: str
    kind: str  # starting | mountain | special
    location: str  # "rc" (DW-GRID-1)
    lanterns: int | None
    effect: str  # the Mine side's effect id
    primary: str  # solo preference icons (DW-CARD-6)
    fallback: str
    special: str | None  # a Special Action card's face side

    def to_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "location": self.location, "lanterns": self.lanterns,
                "effect": self.effect, "primary": self.primary, "fallback": self.fallback,
                "special": self.special}


def _amounts(text: str) -> dict:
    if text == "-":
        return {}
    out = {}
    for part in text.split("+"):
        res, _, n = part.partition(":")
        if res not in RESOURCES:
            raise ValueError(f"unknown resource {res!r} in {text!r}")
        out[res] = int(n)
    return out


def _rows(name: str) -> list[list[str]]:
    lines = (CONTENT / name).read_text(encoding="utf-8").splitlines()
    return [line.split() for line in lines if line.strip() and not line.startswith("#")]


@lru_cache(maxsize=1)
def _effects() -> dict[str, Effect]:
    out = {}
    for row in _rows("effects.txt"):
        eid, etype, cost, gain, *name = row
        out[eid] = Effect(eid, etype, _amounts(cost), _amounts(gain), " ".join(name))
    return out


@lru_cache(maxsize=1)
def _cards() -> dict[str, Card]:
    out = {}
    for cid, kind, loc, lanterns, eff, primary, fallback, special in _rows("cards.txt"):
        out[cid] = Card(cid, kind, loc, None if lanterns == "-" else int(lanterns), eff, primary, fallback,
                        None if special == "-" else special)
    return out


# The tables a test position may replace entries of (``given effects.windfall.gain = {"iron": 6}``).
TABLES = {"effects": Table("dwarf", "effects", _effects, lambda eid, d: Effect(**{**d, "id": eid})),
          "cards": Table("dwarf", "cards", _cards, lambda cid, d: Card(**{**d, "id": cid}))}


def effects() -> Mapping[str, Effect]:
    return TABLES["effects"]


def cards() -> Mapping[str, Card]:
    return TABLES["cards"]


def card(cid: str) -> Card:
    return cards()[cid]


def effect_of(cid: str) -> Effect:
    """The Mine-side effect of a card."""
    return effects()[cards()[cid].effect]


def special_of(cid: str) -> Effect:
    """The Special Action face of a card (DW-SPEC-2)."""
    return effects()[cards()[cid].special]


def of_kind(kind: str) -> list[str]:
    return [c.id for c in cards().values() if c.kind == kind]


def components() -> dict:
    """The public pack, served by ``Game.content``."""
    return {"effects": {k: e.to_dict() for k, e in effects().items()},
            "cards": {k: c.to_dict() for k, c in cards().items()}}
