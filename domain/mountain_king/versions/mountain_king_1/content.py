"""The content pack of *In the Hall of the Mountain King*: components as frozen data.

The rulebooks print none of this data (spec section 28, MK-GAP-1..13): every
file under ``content/`` is authored by this project (see AUTHORED.md) and a
person owning the printed game may replace it. Files are read once, lazily,
and never change, so the loaders are memoised; everything returned is
immutable (lists returned are fresh copies of frozen items).

Symbols are resource names (:data:`RESOURCES`); a clan cart is spelled
``"cart:fire"`` / ``"cart:ice"`` / ``"cart:moon"`` and a wild (spiral) cart
``"cart"`` (MK-CART-2/3). Ids are plain strings, ready for JSON.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from domain.kit import Table
from domain.mountain_king.versions.mountain_king_1.board import Board, Cell, StartPoint, normalise

RESOURCES = ("stone", "iron", "heartstone", "coin", "cart", "hammer", "rune")
MINERALS = ("stone", "iron", "heartstone")
CLANS = ("mud", "fire", "ice", "moon")
STATUE_CLANS = ("fire", "ice", "moon")
SIDES = ("winter", "autumn")
CONTENT = Path(__file__).with_name("content")


def symbol_resource(symbol: str) -> str:
    """The resource type a symbol holds: ``"cart:fire"`` -> ``"cart"``."""
    return symbol.split(":", 1)[0]


def cart_clan(symbol: str) -> str | None:
    """The clan of a clan-cart symbol, None for a wild cart or any other symbol."""
    return symbol.split(":", 1)[1] if symbol.startswith("cart:") else None


@dataclass(frozen=True)
class TileType:
    """One stack of identical tunnel tiles (MK-GAP-4): shape normalised, anchor a cell of it or None."""

    id: str
    size: int
    cells: tuple[Cell, ...]
    anchor: Cell | None
    copies: int


@dataclass(frozen=True)
class Hall:
    """A great hall (MK-GAP-5): shape normalised, one altar cell, low | high honor."""

    id: str
    name: str
    cells: tuple[Cell, ...]
    altar: Cell
    low: int
    high: int


@dataclass(frozen=True)
class HordeTroll:
    """A horde troll card (MK-GAP-7). ``pedestal_icon``: it can carry a pedestal or choose-pedestal token."""

    id: str
    level: int
    clan: str
    symbols: tuple[str, ...]
    bonus: bool
    pedestal_icon: bool


@dataclass(frozen=True)
class StarterTroll:
    """A starter troll (MK-GAP-6): ``top`` repeats on activation, ``bottom`` is the one-time start."""

    id: str
    colour: str
    clan: str | None
    top: tuple[str, ...]
    bottom: tuple[str, ...]


def _yaml(name: str) -> dict:
    return yaml.safe_load((CONTENT / name).read_text(encoding="utf-8"))


def _drawing(rows: list[str], mark: str) -> tuple[list[Cell], Cell | None]:
    """Cells of an ASCII shape ("#" space, "." none); the one space drawn as ``mark`` is also returned."""
    cells: list[Cell] = []
    special: list[Cell] = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "." or not (ch == "#" or ch == mark):
                if ch != ".":
                    raise ValueError(f"shape {rows}: unexpected {ch!r}")
                continue
            cells.append((r, c))
            if ch == mark:
                special.append((r, c))
    if len(special) > 1:
        raise ValueError(f"shape {rows} marks {len(special)} special spaces")
    return cells, special[0] if special else None


# --------------------------------------------------------------------------- tiles, door, halls

@lru_cache(maxsize=1)
def _tiles() -> tuple[TileType, ...]:
    out = []
    for t in _yaml("tiles.yaml")["tunnels"]:
        cells, anchor = _drawing(t["shape"], "A")
        shape, anchor = normalise(cells, anchor)
        out.append(TileType(str(t["id"]), len(shape), shape, anchor, int(t["copies"])))
    return tuple(out)


def tiles() -> list[TileType]:
    """The tunnel tile stacks; ``sum(t.copies)`` is 52 (MK-COMP-2)."""
    return list(_tiles())


def tile(tile_id: str) -> TileType:
    for t in _tiles():
        if t.id == tile_id:
            return t
    raise KeyError(tile_id)


@lru_cache(maxsize=1)
def door() -> tuple[Cell, ...]:
    """The door footprint, normalised (MK-GAP-3): a single space in this pack."""
    cells, _ = _drawing(_yaml("tiles.yaml")["door"], "#")
    return normalise(cells)[0]


@lru_cache(maxsize=1)
def _halls() -> tuple[Hall, ...]:
    out = []
    for h in _yaml("halls.yaml")["halls"]:
        cells, altar = _drawing(h["shape"], "*")
        shape, altar = normalise(cells, altar)
        out.append(Hall(h["id"], h["name"], shape, altar, int(h["low"]), int(h["high"])))
    return tuple(out)


def _hall(hall_id: str, entry: dict) -> Hall:
    """A hall entry in data form (cells and altar as lists), as a test position gives it."""
    return Hall(hall_id, entry["name"], tuple(tuple(c) for c in entry["cells"]), tuple(entry["altar"]),
                int(entry["low"]), int(entry["high"]))


def halls() -> list[Hall]:
    """The 6 great halls (MK-COMP-4)."""
    return list(TABLES["halls"].values())


def hall(hall_id: str) -> Hall:
    return TABLES["halls"][hall_id]


@lru_cache(maxsize=1)
def _tokens() -> tuple[int, ...]:
    return tuple(int(g["value"]) for g in _yaml("pedestal_tokens.yaml")["groups"] for _ in range(int(g["copies"])))


def pedestal_tokens() -> list[int]:
    """The 15 pedestal score token values, printed groups in order (MK-GAP-9)."""
    return list(_tokens())


def pedestal_token_groups() -> list[tuple[int, int]]:
    """``(copies, value)`` per printed token design, in the printed order 3x 4x 4x 4x."""
    return [(int(g["copies"]), int(g["value"])) for g in _yaml("pedestal_tokens.yaml")["groups"]]


# --------------------------------------------------------------------------- trolls

@lru_cache(maxsize=1)
def _horde() -> tuple[HordeTroll, ...]:
    data = _yaml("horde.yaml")
    out = []
    for level in (1, 2, 3):
        for n, entry in enumerate(data[f"level_{level}"], 1):
            bonus = isinstance(entry, dict) and bool(entry.get("bonus"))
            card = entry["card"] if isinstance(entry, dict) else entry
            out.append(HordeTroll(f"L{level}-{n:02d}", level, str(card[0]), tuple(card[1:]), bonus, level >= 2))
    return tuple(out)


def horde_trolls() -> list[HordeTroll]:
    """The 55 horde trolls, level 1 first (MK-COMP-7)."""
    return [t for t in TABLES["trolls"].values() if isinstance(t, HordeTroll)]


@lru_cache(maxsize=1)
def _starters() -> tuple[tuple[str, ...], tuple[StarterTroll, ...]]:
    data = _yaml("starters.yaml")
    colours = tuple(data["colours"])
    out = []
    for colour in colours:
        for n, card in enumerate(data["cards"], 1):
            out.append(StarterTroll(f"{colour}-{n}", colour, card.get("clan"), tuple(card["top"]), tuple(card["bottom"])))
    return colours, tuple(out)


def colours() -> tuple[str, ...]:
    """The 5 player colours (MK-COMP-22, MK-GAP-12); "magenta" is one."""
    return _starters()[0]


def starter_trolls(colour: str) -> list[StarterTroll]:
    """The 6 starter trolls of ``colour`` (MK-COMP-6)."""
    if colour not in colours():
        raise KeyError(colour)
    return [t for t in TABLES["trolls"].values() if isinstance(t, StarterTroll) and t.colour == colour]


def _troll(card: str, entry: dict) -> HordeTroll | StarterTroll:
    """A troll entry in data form, as a test position gives it: a horde troll names its
    ``level``, a starter its ``colour``."""
    if "level" in entry:
        return HordeTroll(card, int(entry["level"]), str(entry["clan"]), tuple(entry["symbols"]),
                          bool(entry.get("bonus")), bool(entry.get("pedestal_icon")))
    return StarterTroll(card, str(entry["colour"]), entry.get("clan"), tuple(entry["top"]), tuple(entry["bottom"]))


# --------------------------------------------------------------------------- board

LEVEL_CHARS = "12345"
HEART = "##"


def _parse_board(side: str, text: str) -> Board:
    """Read an ASCII board file (legend at its top; map; ``---``; YAML listings)."""
    head, tail = text.split("\n---\n", 1)
    rows = [line for line in head.splitlines() if not line.startswith("#")]
    while rows and not rows[0].strip():
        rows.pop(0)
    while rows and not rows[-1].strip():
        rows.pop()
    meta = yaml.safe_load(tail) or {}
    levels: dict[Cell, int] = {}
    heart, rubble, statues, workshops = set(), set(), [], []
    marks: dict[str, Cell] = {}
    width = max(len(line) for line in rows)
    for r, line in enumerate(rows):
        line = line.ljust(width)
        for c in range(0, (width + 1) // 3):
            tok = line[3 * c:3 * c + 2]
            cell = (r, c)
            if tok.strip() == "":
                continue
            if tok == HEART:
                heart.add(cell)
                continue
            lv, feat = tok[0], tok[1]
            if lv not in LEVEL_CHARS:
                raise ValueError(f"{side}: bad level {tok!r} at {cell}")
            levels[cell] = int(lv)
            if feat in "o@":
                rubble.add(cell)
            if feat in "S@":
                statues.append(cell)
            elif feat == "W":
                workshops.append(cell)
            elif feat.isalpha() and feat not in "oSW":
                if feat in marks:
                    raise ValueError(f"{side}: mark {feat!r} used twice")
                marks[feat] = cell
            elif feat not in ".o":
                raise ValueError(f"{side}: bad feature {tok!r} at {cell}")
    buried: dict[Cell, tuple[str, ...]] = {}
    for key, spot in (meta.get("buried") or {}).items():
        cell = marks.pop(str(key))
        buried[cell] = tuple(spot["resources"] if isinstance(spot, dict) else spot)
        if isinstance(spot, dict) and spot.get("rubble"):
            rubble.add(cell)
    points = tuple(StartPoint(str(k), marks.pop(str(k)), tuple(int(x) for x in v))
                   for k, v in (meta.get("start_points") or {}).items())
    if marks:
        raise ValueError(f"{side}: marks without a listing: {sorted(marks)}")
    pairs = tuple((str(a), str(b)) for a, b in (meta.get("team_pairs") or []))
    return Board(side, len(rows), (width + 1) // 3, levels, frozenset(heart), frozenset(rubble),
                 _clockwise(statues, heart), tuple(sorted(workshops)), buried, points, pairs)


def _clockwise(cells: list[Cell], heart: set[Cell]) -> tuple[Cell, ...]:
    """Cells by angle around the heart's centre, clockwise from north (MK-GAP-1.6)."""
    cr = sum(r for r, _ in heart) / len(heart)
    cc = sum(c for _, c in heart) / len(heart)

    def key(cell: Cell) -> tuple[float, float]:
        dr, dc = cell[0] - cr, cell[1] - cc
        return (round(math.atan2(dc, -dr) % (2 * math.pi), 9), dr * dr + dc * dc)

    return tuple(sorted(cells, key=key))


def board(side: str) -> Board:
    """The Winter (4-5 players, teams) or Autumn (3 players) side (MK-BOARD-1)."""
    return TABLES["boards"][side]


def _board(side: str, entry: str | list[str]) -> Board:
    """A board as a test position gives it: the text of a board file (its map, ``---``, its
    listings), as one string or a list of its lines. A board is given whole: its cells are
    read from the drawing, not edited one field at a time."""
    if isinstance(entry, list) and all(isinstance(line, str) for line in entry):
        entry = "\n".join(entry)
    if not isinstance(entry, str):
        raise ValueError(f"boards.{side}: give the whole board as a board file's text (a string or a list "
                         f"of lines), as in content/board_{side}.txt; one field of a board cannot be given")
    return _parse_board(side, entry)


# The tables a test position may replace entries of (``given halls.the-rift.high = 20``,
# ``given trolls.L1-05.symbols = ["iron"]``, ``given boards.autumn = [...lines...]``).
TABLES = {"halls": Table("mountain-king", "halls", lambda: {h.id: h for h in _halls()}, _hall),
          "trolls": Table("mountain-king", "trolls", lambda: {t.id: t for t in (*_horde(), *_starters()[1])}, _troll),
          "boards": Table("mountain-king", "boards", lambda: {side: _parse_board(
              side, (CONTENT / f"board_{side}.txt").read_text(encoding="utf-8")) for side in SIDES}, _board)}
