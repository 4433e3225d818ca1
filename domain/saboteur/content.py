"""The content pack, read once at import: card shapes, actions, gold, tables.

Card ids are given by position in the files (P01.., A01..), so they are the
same in every game and every round; they name *which* physical card, never
anything secret (a card's face is public once played).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from domain.kit import Table

_DIR = Path(__file__).parent / "content"


def _load(name: str) -> dict:
    with open(_DIR / name, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@dataclass(frozen=True)
class Shape:
    """A path card face upright: open edges and the segments joining them (SAB-PATH-1)."""

    name: str
    edges: str
    segments: tuple[str, ...]

    @property
    def dead_end(self) -> bool:
        """A tunnel that stops inside the card interrupts the path (SAB-CONN-2)."""
        return any(len(seg) == 1 for seg in self.segments)


@dataclass(frozen=True)
class Card:
    """One card of the playing deck: a path (``shape``) or an action (``kind``)."""

    id: str
    kind: str  # "path" | "break" | "repair" | "rockfall" | "map"
    shape: str | None = None
    tools: tuple[str, ...] = ()  # a repair shows one tool or two different ones (SAB-REP-1)

    def to_dict(self) -> dict:
        out: dict = {"card": self.id, "kind": self.kind}
        if self.shape:
            shape = SHAPES[self.shape]
            out.update(shape=self.shape, edges=shape.edges, segments=list(shape.segments))
        if self.kind in ("break", "repair"):
            out["tools"] = list(self.tools)
        return out


def _shape(entry: dict) -> Shape:
    return Shape(str(entry["shape"]), str(entry["edges"]), tuple(str(s) for s in entry["segments"]))


_paths = _load("paths.yaml")
_actions = _load("actions.yaml")
_table = _load("table.yaml")

START_SHAPE = _shape(_paths["start"][0]).name
GOAL_SHAPES: tuple[str, ...] = tuple(_shape(e).name for e in _paths["goals"])
TREASURE = GOAL_SHAPES[0]
SHAPES: dict[str, Shape] = {
    s.name: s for s in map(_shape, _paths["start"] + _paths["goals"] + _paths["paths"])
}

_CARDS: dict[str, Card] = {}
for _entry in _paths["paths"]:
    for _ in range(int(_entry["copies"])):
        _id = f"P{len(_CARDS) + 1:02d}"
        _CARDS[_id] = Card(_id, "path", shape=str(_entry["shape"]))
_n_paths = len(_CARDS)
for _entry in _actions["actions"]:
    for _ in range(int(_entry["copies"])):
        _id = f"A{len(_CARDS) - _n_paths + 1:02d}"
        _CARDS[_id] = Card(_id, str(_entry["kind"]), tools=tuple(_entry["tools"]))


def _card(card_id: str, entry: dict) -> Card:
    """A card entry in data form, as a test position gives it (``given cards.A12.tools = ["cart"]``)."""
    return Card(card_id, entry["kind"], entry.get("shape"), tuple(entry.get("tools") or ()))


# The playing deck by card id; a test position may replace entries of it (``domain.kit.tables``).
CARDS: Mapping[str, Card] = Table("saboteur", "cards", lambda: _CARDS, _card)
TABLES = {"cards": CARDS}

TOOLS: tuple[str, ...] = ("pick", "lantern", "cart")
GOLD: tuple[int, ...] = tuple(
    int(e["nuggets"]) for e in _load("gold.yaml")["gold"] for _ in range(int(e["copies"]))
)
ROLE_DECK: dict[int, tuple[int, int]] = {int(k): (v[0], v[1]) for k, v in _table["roles"].items()}
HAND_SIZE: dict[int, int] = {int(k): int(v) for k, v in _table["hand_size"].items()}
SABOTEUR_PAY: dict[int, int] = {int(k): int(v) for k, v in _table["saboteur_pay"].items()}
MAX_MINER_GOLD_CARDS: int = int(_table["max_miner_gold_cards"])
ROUNDS: int = int(_table["rounds"])
START_CELL: tuple[int, int] = tuple(_table["layout"]["start"])  # type: ignore[assignment]
GOAL_CELLS: dict[str, tuple[int, int]] = {
    str(k): (int(v[0]), int(v[1])) for k, v in _table["layout"]["goals"].items()
}


def components() -> dict:
    """The public box contents a client needs to draw cards and the layout."""
    return {
        "cards": [card.to_dict() for card in CARDS.values()],
        "shapes": {s.name: {"edges": s.edges, "segments": list(s.segments)} for s in SHAPES.values()},
        "start": {"x": START_CELL[0], "y": START_CELL[1], "shape": START_SHAPE},
        "goal_cells": {g: {"x": x, "y": y} for g, (x, y) in GOAL_CELLS.items()},
        "goal_shapes": list(GOAL_SHAPES),
        "tools": list(TOOLS),
        "gold_cards": list(GOLD),
        "hand_size": {str(n): size for n, size in HAND_SIZE.items()},
        "role_deck": {str(n): {"saboteurs": s, "miners": m} for n, (s, m) in ROLE_DECK.items()},
        "rounds": ROUNDS,
    }
