"""Board geometry of *In the Hall of the Mountain King*: pure functions over plain data.

Cells are ``(row, col)`` tuples inside this module (row 0 at the top, so
"clockwise" is the usual screen clockwise). Everything meant for events or
state converts with :func:`cell_json` / :func:`cells_json` to ``[row, col]``
lists; every function here also accepts cells given as lists.

Occupancy model (kept by the rules in the state; JSON-ready)
------------------------------------------------------------
``pieces``: a dict ``piece_id -> piece``; one piece per door, tunnel tile,
tunnel remnant (MK-HALL-7) and great hall. Each is one *tunnel* in the sense
of MK-MOVE-4::

    door   {"kind": "door",   "cells": [[r, c]], "seat": s}
    tunnel {"kind": "tunnel", "cells": [[r, c], ...], "seat": s, "tile": "L4",
            "anchor": [r, c] | None, "pedestal": "fire" | "ice" | "moon" | None}
    hall   {"kind": "hall",   "cells": [[r, c], ...], "seat": s, "hall": "the-rift",
            "altar": [r, c]}

``seat`` on a tunnel or hall only records who laid it. Ownership is never
stored: it is computed from connectivity (MK-NET-3, MK-AMB-14). A network is a
connected component of pieces; it belongs to the seats whose doors it holds;
a component without a door is isolated and belongs to no one (MK-NET-4).
Built workshops are passed separately as an iterable of cells (``built``);
workshop spaces, built or not, are never part of a network (MK-NET-2).

:class:`Layout` indexes ``pieces`` once (cell -> piece, components); build it
with :func:`layout` and pass it to several queries, or pass ``pieces`` itself.
``friends`` is the set of teammates in the team variant (MK-TEAM-10): they are
not opponents, and once their network touches yours it is yours (MK-TEAM-9).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, Mapping

import orjson

from domain.core import Illegal

Cell = tuple[int, int]
Shape = tuple[Cell, ...]
SIDES = {"n": (-1, 0), "e": (0, 1), "s": (1, 0), "w": (0, -1)}


def cell_of(value: Iterable[int]) -> Cell:
    r, c = value
    return (int(r), int(c))


def _parse_cells(cells: Any, rule: str) -> tuple[Cell, ...]:
    """Cells from a command, refusing anything that is not a non-empty list of distinct [row, col] ints."""
    try:
        out = tuple(sorted(_parse_cell(c) for c in cells))
    except (TypeError, ValueError):
        out = ()
    if not out or len(set(out)) != len(out):
        raise Illegal("bad_cells", rule, "Give the spaces as a list of distinct [row, col] pairs.")
    return out


def _parse_cell(value: Any) -> Cell:
    r, c = value
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (r, c)):
        raise TypeError("cell coordinates are integers")
    return (r, c)


def cell_json(cell: Cell | None) -> list[int] | None:
    return None if cell is None else [cell[0], cell[1]]


def cells_json(cells: Iterable[Cell]) -> list[list[int]]:
    return [[r, c] for r, c in cells]


# --------------------------------------------------------------------------- board

@dataclass(frozen=True)
class StartPoint:
    """A printed start point (MK-BOARD-9); ``labels`` are the player counts it serves."""

    id: str
    cell: Cell
    labels: tuple[int, ...]


@dataclass(frozen=True)
class Board:
    """One side of the board (MK-BOARD-1..9, content MK-GAP-1/2).

    ``levels`` holds the mountain level 1 (dark grey, outermost) .. 5 (yellow)
    of every on-board space outside the heart; ``heart`` holds the rest.
    ``statue_spaces`` is in clockwise order around the heart (MK-SETUP-8).
    """

    side: str
    rows: int
    cols: int
    levels: Mapping[Cell, int]
    heart: frozenset[Cell]
    rubble: frozenset[Cell]
    statue_spaces: tuple[Cell, ...]
    workshop_spaces: tuple[Cell, ...]
    buried: Mapping[Cell, tuple[str, ...]]
    start_points: tuple[StartPoint, ...]
    team_pairs: tuple[tuple[str, str], ...]
    # derived once, for the hot loops of dig_placements
    open_spaces: frozenset[Cell] = field(init=False, repr=False, compare=False)
    workshop_set: frozenset[Cell] = field(init=False, repr=False, compare=False)
    statue_set: frozenset[Cell] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ws = frozenset(self.workshop_spaces)
        object.__setattr__(self, "workshop_set", ws)
        object.__setattr__(self, "statue_set", frozenset(self.statue_spaces))
        object.__setattr__(self, "open_spaces", frozenset(c for c in self.levels if c not in ws))

    def in_bounds(self, cell: Iterable[int]) -> bool:
        """On the board (the heart included). Spaces beyond the edge do not exist (MK-BOARD-2)."""
        cell = cell_of(cell)
        return cell in self.levels or cell in self.heart

    def level(self, cell: Iterable[int]) -> int | None:
        """Mountain level 1..5 (MK-BOARD-4); None for the heart or off the board."""
        return self.levels.get(cell_of(cell))

    def neighbours(self, cell: Iterable[int]) -> list[Cell]:
        """On-board spaces sharing a side with ``cell`` (MK-ADJ-1: never diagonals)."""
        r, c = cell_of(cell)
        return [n for dr, dc in SIDES.values() if self.in_bounds(n := (r + dr, c + dc))]

    def coverable(self, cell: Iterable[int]) -> bool:
        """A tile may lie here if it is empty: on the board, not heart, not a workshop space (MK-DIG-7)."""
        return cell_of(cell) in self.open_spaces

    def start_point(self, point_id: str) -> StartPoint:
        for p in self.start_points:
            if p.id == point_id:
                return p
        raise KeyError(point_id)

    def start_points_for(self, label: int) -> tuple[StartPoint, ...]:
        """The points usable in a game of ``label`` players (MK-PSETUP-3)."""
        return tuple(p for p in self.start_points if label in p.labels)


# --------------------------------------------------------------------------- shapes

def normalise(cells: Iterable[Iterable[int]], anchor: Iterable[int] | None = None) -> tuple[Shape, Cell | None]:
    """Shift a shape so its smallest row and column are 0; cells sorted. The anchor moves along."""
    cs = [cell_of(c) for c in cells]
    r0 = min(r for r, _ in cs)
    c0 = min(c for _, c in cs)
    shape = tuple(sorted((r - r0, c - c0) for r, c in cs))
    if anchor is None:
        return shape, None
    ar, ac = cell_of(anchor)
    return shape, (ar - r0, ac - c0)


@lru_cache(maxsize=256)
def _orientations(shape: Shape, anchor: Cell | None, mirror: bool) -> tuple[tuple[Shape, Cell | None], ...]:
    out: list[tuple[Shape, Cell | None]] = []
    seen = set()
    for flip in ((False, True) if mirror else (False,)):
        cells = [(r, -c) for r, c in shape] if flip else list(shape)
        anc = None if anchor is None else ((anchor[0], -anchor[1]) if flip else anchor)
        for _ in range(4):
            key = normalise(cells, anc)
            if key not in seen:
                seen.add(key)
                out.append(key)
            cells = [(c, -r) for r, c in cells]
            anc = None if anc is None else (anc[1], -anc[0])
    return tuple(out)


def orientations(cells: Iterable[Iterable[int]], anchor: Iterable[int] | None = None,
                 mirror: bool = True) -> list[tuple[Shape, Cell | None]]:
    """Distinct rotations (and, with ``mirror``, reflections) of a shape, normalised (MK-DIG-6).

    Two orientations with the same cells but a different anchor space are distinct.
    Great halls pass ``mirror=False`` by default (MK-AMB-18).
    """
    shape, anc = normalise(cells, anchor)
    return list(_orientations(shape, anc, mirror))


def is_symmetric(cells: Iterable[Iterable[int]], anchor: Iterable[int] | None = None) -> bool:
    """True when mirroring adds no orientation that rotating does not already give (MK-AMB-18)."""
    return len(orientations(cells, anchor, True)) == len(orientations(cells, anchor, False))


def connected(cells: Iterable[Iterable[int]]) -> bool:
    """Orthogonally connected (MK-ADJ-1), as every tile and hall must be."""
    cs = {cell_of(c) for c in cells}
    return bool(cs) and len(_flood(next(iter(cs)), cs)) == len(cs)


def _flood(start: Cell, allowed: set[Cell] | frozenset[Cell]) -> set[Cell]:
    seen = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        for dr, dc in SIDES.values():
            n = (r + dr, c + dc)
            if n in allowed and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def _around(cells: Iterable[Cell]) -> set[Cell]:
    """Every space orthogonally adjacent to ``cells`` (may include the cells themselves)."""
    return {(r + dr, c + dc) for r, c in cells for dr, dc in SIDES.values()}


# --------------------------------------------------------------------------- occupancy

@dataclass(frozen=True)
class Network:
    """A connected group of doors, tunnels and halls (MK-NET-3).

    ``seats`` are the owners of the doors it holds: empty for an isolated
    group (MK-NET-4), two seats when teammates have joined (MK-TEAM-9).
    """

    seats: frozenset[int]
    pieces: tuple[str, ...]
    cells: frozenset[Cell]


class Layout:
    """Index of the occupancy ``pieces``: which piece covers each cell, and the networks.

    The index is a pure function of the pieces' JSON, so it is built once per distinct
    occupancy and shared (:func:`_index`): the rules, the bots and the search list and judge
    the same occupancy many times. ``piece_at``, ``cells_of``, ``networks`` and ``network_of``
    are shared with every equal occupancy: read them, never change them. :meth:`derived`
    keeps other values computed from the occupancy with the index.
    """

    def __init__(self, pieces: Mapping[str, Mapping[str, Any]]):
        self.pieces = pieces
        self.key = orjson.dumps(pieces)
        ix = _index(self.key)
        self.piece_at: dict[Cell, str] = ix.piece_at
        self.cells_of: dict[str, frozenset[Cell]] = ix.cells_of
        self.networks: tuple[Network, ...] = ix.networks
        self.network_of: dict[str, Network] = ix.network_of
        self._derived = ix.derived

    def derived(self, key: tuple, compute: Callable[[], Any]) -> Any:
        """``compute()``, once per occupancy and ``key``: ``key`` must name everything else the
        value depends on (a board by :func:`board_key`), and the value must not be changed."""
        try:
            return self._derived[key]
        except KeyError:
            value = self._derived[key] = compute()
            return value

    def kind(self, piece_id: str) -> str:
        return self.pieces[piece_id]["kind"]

    def network(self, seat: int) -> Network | None:
        """The network holding ``seat``'s door (MK-NET-1); None before the door is placed."""
        for n in self.networks:
            if seat in n.seats:
                return n
        return None

    def own_cells(self, seat: int) -> frozenset[Cell]:
        n = self.network(seat)
        return n.cells if n else frozenset()

    def opponent_cells(self, seat: int, friends: Iterable[int] = ()) -> frozenset[Cell]:
        """Cells of networks holding a door of anyone but ``seat`` and ``friends`` (MK-DIG-5)."""
        mine = {seat, *friends}
        out: set[Cell] = set()
        for n in self.networks:
            if n.seats - mine:
                out |= n.cells
        return frozenset(out)

    def owners(self, cell: Iterable[int]) -> frozenset[int]:
        """Seats whose network covers ``cell``; empty if uncovered or isolated."""
        pid = self.piece_at.get(cell_of(cell))
        return self.network_of[pid].seats if pid else frozenset()


@dataclass(frozen=True)
class _Index:
    piece_at: dict[Cell, str]
    cells_of: dict[str, frozenset[Cell]]
    networks: tuple[Network, ...]
    network_of: dict[str, Network]
    derived: dict = field(default_factory=dict)


@lru_cache(maxsize=256)
def _index(key: bytes) -> _Index:
    """The index of the occupancy whose JSON is ``key``."""
    pieces = orjson.loads(key)
    piece_at: dict[Cell, str] = {}
    cells_of: dict[str, frozenset[Cell]] = {}
    for pid in sorted(pieces):
        cells = frozenset(cell_of(c) for c in pieces[pid]["cells"])
        cells_of[pid] = cells
        for cell in cells:
            piece_at[cell] = pid
    networks = _components(pieces, piece_at, cells_of)
    return _Index(piece_at, cells_of, networks, {pid: n for n in networks for pid in n.pieces})


def _components(pieces: Mapping, piece_at: dict[Cell, str], cells_of: dict[str, frozenset[Cell]]) -> tuple[Network, ...]:
    out = []
    covered = frozenset(piece_at)
    done: set[Cell] = set()
    for pid in sorted(pieces):
        start = next(iter(cells_of[pid]))
        if start in done:
            continue
        cells = _flood(start, covered)
        done |= cells
        members = tuple(sorted({piece_at[c] for c in cells}))
        seats = frozenset(int(pieces[p]["seat"]) for p in members if pieces[p]["kind"] == "door")
        out.append(Network(seats, members, frozenset(cells)))
    return tuple(out)


def board_key(board: "Board") -> tuple:
    """A board's part of a :meth:`Layout.derived` key: the board object itself, by identity
    (boards hold dicts, so they do not hash); the key keeps it alive, so its id stays its own."""
    return (id(board), _Pinned(board))


class _Pinned:
    """Holds an object inside a key without taking part in the key's equality or hash."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Pinned)

    def __hash__(self) -> int:
        return 0


def layout(pieces: Mapping[str, Mapping[str, Any]] | Layout) -> Layout:
    """Index ``pieces`` (idempotent on a Layout)."""
    return pieces if isinstance(pieces, Layout) else Layout(pieces)


# --------------------------------------------------------------------------- doors

def door_cells(board: Board, point_id: str, footprint: Iterable[Iterable[int]] = ((0, 0),)) -> tuple[Cell, ...]:
    """The spaces a door covers on a start point: the footprint's (0, 0) sits on the point (MK-GAP-3)."""
    r, c = board.start_point(point_id).cell
    return tuple(sorted((r + dr, c + dc) for dr, dc in (cell_of(x) for x in footprint)))


def door_check(board: Board, pieces: Mapping | Layout, point_id: str, players: int,
               footprint: Iterable[Iterable[int]] = ((0, 0),)) -> tuple[Cell, ...]:
    """The door's cells if a door may go on ``point_id`` in a game of ``players``; raises Illegal.

    MK-PSETUP-3: a free point with the player-count label; MK-NET-5: never
    adjacent to another door (MK-AMB-30).
    """
    lay = layout(pieces)
    if not isinstance(point_id, str) or point_id not in {p.id for p in board.start_points}:
        raise Illegal("unknown_start_point", "MK-PSETUP-3", f"No start point {point_id!r} on this side.")
    if players not in board.start_point(point_id).labels:
        raise Illegal("wrong_start_point_label", "MK-PSETUP-3",
                      f"Start point {point_id} is not labelled for {players} players.")
    cells = door_cells(board, point_id, footprint)
    if any(not board.coverable(c) for c in cells):
        raise Illegal("door_off_board", "MK-GAP-3", "The door does not fit on this start point.")
    if any(c in lay.piece_at for c in cells):
        raise Illegal("start_point_taken", "MK-PSETUP-3", f"Start point {point_id} is taken.")
    if any(n in lay.piece_at for n in _around(cells)):
        raise Illegal("doors_adjacent", "MK-NET-5", "Doors may never touch each other.")
    return cells


def door_points(board: Board, pieces: Mapping | Layout, players: int,
                footprint: Iterable[Iterable[int]] = ((0, 0),)) -> list[str]:
    """Ids of the start points where a door may go now (same test as :func:`door_check`)."""
    out = []
    for p in board.start_points_for(players):
        try:
            door_check(board, pieces, p.id, players, footprint)
        except Illegal:
            continue
        out.append(p.id)
    return out


# --------------------------------------------------------------------------- digging

@dataclass(frozen=True)
class Dig:
    """A legal tunnel placement and what it brings (MK-DIG-7..12).

    ``statues`` are the statue spaces covered: a statue space that no tile has
    covered yet still holds its buried statue, so these are the statues the
    dig unburies (MK-DIG-9). ``rubble`` costs one hammer each (MK-DIG-8).
    ``workshops`` are the adjacent empty workshop spaces (MK-EST-1/2).
    ``joins`` are pieces of isolated groups or a teammate's network that the
    new tile links to the digger's network (MK-DIG-11, MK-TEAM-9).
    """

    tile: str
    cells: tuple[Cell, ...]
    anchor: Cell | None
    anchor_level: int | None
    rubble: tuple[Cell, ...]
    buried: tuple[tuple[Cell, tuple[str, ...]], ...]
    statues: tuple[Cell, ...]
    workshops: tuple[Cell, ...]
    joins: tuple[str, ...]

    @property
    def hammers(self) -> int:
        return len(self.rubble)

    @property
    def size(self) -> int:
        return len(self.cells)

    def to_json(self) -> dict:
        return {
            "tile": self.tile,
            "cells": cells_json(self.cells),
            "anchor": cell_json(self.anchor),
            "anchor_level": self.anchor_level,
            "rubble": cells_json(self.rubble),
            "buried": [{"cell": cell_json(c), "resources": list(rs)} for c, rs in self.buried],
            "statues": cells_json(self.statues),
            "workshops": cells_json(self.workshops),
            "joins": list(self.joins),
        }

    def piece(self, seat: int, pedestal: str | None = None) -> dict:
        """The occupancy entry for the new tunnel (see the module docstring)."""
        return {"kind": "tunnel", "cells": cells_json(self.cells), "seat": seat, "tile": self.tile,
                "anchor": cell_json(self.anchor), "pedestal": pedestal}


class _DigContext:
    """What every candidate placement of one dig query is checked against."""

    def __init__(self, board: Board, lay: Layout, seat: int, friends: frozenset[int], built: frozenset[Cell]):
        self.board = board
        self.piece_at = lay.piece_at
        self.own = lay.own_cells(seat)
        self.own_pieces = frozenset(lay.piece_at[c] for c in self.own)
        self.near_opponent = frozenset(_around(lay.opponent_cells(seat, friends)))
        self.built = built
        self.free = board.open_spaces - lay.piece_at.keys() - self.near_opponent
        self.frontier = frozenset(n for n in _around(self.own) if n in board.open_spaces and n not in lay.piece_at)
        # spaces next to an empty workshop space / a piece outside the own network:
        # most placements touch neither, and skip those look-ups
        self.near_empty_workshop = frozenset(_around(board.workshop_set - self.built))
        self.near_foreign = frozenset(_around(lay.piece_at.keys() - self.own))

    def result(self, tile_id: str, cells: tuple[Cell, ...], anchor: Cell | None) -> Dig:
        b = self.board
        at = self.piece_at
        workshops: tuple[Cell, ...] = ()
        joins: tuple[str, ...] = ()
        if not self.near_empty_workshop.isdisjoint(cells):
            ws = b.workshop_set - self.built
            workshops = tuple(sorted(n for n in _around(cells) if n in ws))
        if not self.near_foreign.isdisjoint(cells):
            joins = tuple(sorted({at[n] for n in _around(cells) if n in at} - self.own_pieces))
        return Dig(
            tile=tile_id,
            cells=cells,
            anchor=anchor,
            anchor_level=None if anchor is None else b.levels[anchor],
            rubble=tuple(c for c in cells if c in b.rubble),
            buried=tuple((c, b.buried[c]) for c in cells if c in b.buried),
            statues=tuple(c for c in cells if c in b.statue_set),
            workshops=workshops,
            joins=joins,
        )


def dig_check(board: Board, pieces: Mapping | Layout, seat: int, tile: Any,
              cells: Iterable[Iterable[int]], anchor: Iterable[int] | None = None,
              friends: Iterable[int] = (), built: Iterable[Iterable[int]] = ()) -> Dig:
    """Check one placement of ``tile`` (a content TileType) for ``seat``; return its :class:`Dig`.

    Geometry only: the mineral and hammer payments, pedestals and workshop
    choices are the rules' business. Raises ``Illegal`` citing MK-DIG-6
    (shape), MK-DIG-7 (footprint), MK-DIG-4 (own network) or MK-DIG-5 (opponent).
    """
    lay = layout(pieces)
    cs = _parse_cells(cells, "MK-DIG-6")
    anc = None if anchor is None else _parse_cells([anchor], "MK-DIG-6")[0]
    if anc is not None and anc not in cs:
        raise Illegal("shape_mismatch", "MK-DIG-6", "The anchor must be one of the tile's spaces.")
    if normalise(cs, anc) not in _orientations(*normalise(tile.cells, tile.anchor), True):
        raise Illegal("shape_mismatch", "MK-DIG-6",
                      f"Those spaces (and anchor) are not a rotation or flip of tile {tile.id}.")
    for c in cs:
        if c in board.heart:
            raise Illegal("covers_heart", "MK-DIG-7", "Nothing may cover the heart of the mountain.")
        if not board.in_bounds(c):
            raise Illegal("off_board", "MK-DIG-7", "Every space of the tile must lie on the board.")
        if c in board.workshop_set:
            raise Illegal("covers_workshop_space", "MK-DIG-7", "Tunnels may never cover a workshop space.")
        if c in lay.piece_at:
            raise Illegal("covers_tile", "MK-DIG-7", "Tunnels may not cover another tile.")
    ctx = _dig_context(board, lay, seat, frozenset(friends), frozenset(cell_of(c) for c in built))
    if not any(c in ctx.frontier for c in cs):
        raise Illegal("not_connected", "MK-DIG-4", "The tunnel must touch your own network.")
    if any(c in ctx.near_opponent for c in cs):
        raise Illegal("touches_opponent", "MK-DIG-5", "The tunnel may not touch an opponent's network.")
    return ctx.result(tile.id, cs, anc)


def dig_placements(board: Board, pieces: Mapping | Layout, seat: int, tile: Any,
                   friends: Iterable[int] = (), built: Iterable[Iterable[int]] = ()) -> Iterator[Dig]:
    """Every legal placement of ``tile`` for ``seat``, each exactly once, in a stable order.

    Same tests as :func:`dig_check`: every candidate is one orientation of the
    tile shifted so that one of its spaces lands on a free space next to the
    seat's network, so only the frontier is searched. Listed once per occupancy
    (:meth:`Layout.derived`).
    """
    lay = layout(pieces)
    friends, built = frozenset(friends), frozenset(cell_of(c) for c in built)
    key = ("digs", *board_key(board), seat, tile.id, tile.cells, tile.anchor, friends, built)
    return iter(lay.derived(key, lambda: tuple(_dig_placements(_dig_context(board, lay, seat, friends, built), tile))))


def _dig_context(board: Board, lay: Layout, seat: int, friends: frozenset[int], built: frozenset[Cell]) -> _DigContext:
    key = ("dig_context", *board_key(board), seat, friends, built)
    return lay.derived(key, lambda: _DigContext(board, lay, seat, friends, built))


def _dig_placements(ctx: _DigContext, tile: Any) -> Iterator[Dig]:
    free = ctx.free
    frontier = ctx.frontier & free
    # Distinct orientations never give the same (cells, anchor) twice, so one
    # set of offsets per orientation is all the de-duplication needed.
    for shape, anc in _orientations(*normalise(tile.cells, tile.anchor), True):
        offsets = {(fr - sr, fc - sc) for fr, fc in frontier for sr, sc in shape}
        for dr, dc in sorted(offsets):
            cs = [(r + dr, c + dc) for r, c in shape]
            if free.issuperset(cs):
                yield ctx.result(tile.id, tuple(cs), None if anc is None else (anc[0] + dr, anc[1] + dc))


# --------------------------------------------------------------------------- great halls

@dataclass(frozen=True)
class HallPlacement:
    """A legal great hall placement (MK-HALL-3, -5..-8).

    ``covered`` are the tunnel pieces it lies on, wholly or partly;
    ``remnants`` maps each partly covered piece to its uncovered groups, each
    of which becomes its own tunnel (MK-HALL-7, MK-AMB-19); ``pedestals`` are
    the pieces whose pedestal is covered and leaves the game (MK-HALL-6).
    """

    hall: str
    cells: tuple[Cell, ...]
    altar: Cell
    covered: tuple[str, ...]
    remnants: tuple[tuple[str, tuple[tuple[Cell, ...], ...]], ...]
    pedestals: tuple[str, ...]

    def to_json(self) -> dict:
        return {
            "hall": self.hall,
            "cells": cells_json(self.cells),
            "altar": cell_json(self.altar),
            "covered": list(self.covered),
            "remnants": [{"piece": p, "parts": [cells_json(g) for g in groups]} for p, groups in self.remnants],
            "pedestals": list(self.pedestals),
        }

    def apply(self, pieces: Mapping[str, Mapping[str, Any]], seat: int) -> dict:
        """The occupancy after the hall is laid: a new dict, ``pieces`` untouched.

        The hall gets id ``hall:<hall id>``; remnant ``k`` (from 1) of piece
        ``p`` gets id ``p.k`` and keeps the anchor and pedestal only if the
        anchor space is in it (MK-HALL-7).
        """
        out = {pid: piece for pid, piece in pieces.items() if pid not in self.covered}
        for pid, groups in self.remnants:
            old = pieces[pid]
            anchor = None if old.get("anchor") is None else cell_of(old["anchor"])
            for k, group in enumerate(groups, 1):
                part = dict(old, cells=cells_json(group))
                if anchor not in group:
                    part["anchor"] = None
                    part["pedestal"] = None
                out[f"{pid}.{k}"] = part
        out[f"hall:{self.hall}"] = {"kind": "hall", "cells": cells_json(self.cells), "seat": seat,
                                    "hall": self.hall, "altar": cell_json(self.altar)}
        return out


def _hall_result(lay: Layout, hall_id: str, cells: tuple[Cell, ...], altar: Cell) -> HallPlacement:
    cover = set(cells)
    covered = sorted({lay.piece_at[c] for c in cells})
    remnants = []
    pedestals = []
    for pid in covered:
        rest = set(lay.cells_of[pid]) - cover
        groups = []
        while rest:
            g = _flood(min(rest), rest)
            rest -= g
            groups.append(tuple(sorted(g)))
        if groups:
            remnants.append((pid, tuple(sorted(groups))))
        piece = lay.pieces[pid]
        if piece.get("pedestal") and piece.get("anchor") is not None and cell_of(piece["anchor"]) in cover:
            pedestals.append(pid)
    return HallPlacement(hall_id, cells, altar, tuple(covered), tuple(remnants), tuple(pedestals))


def _own_tunnel_cells(lay: Layout, seat: int) -> frozenset[Cell]:
    net = lay.network(seat)
    if net is None:
        return frozenset()
    return frozenset(c for c in net.cells if lay.kind(lay.piece_at[c]) == "tunnel")


def hall_check(board: Board, pieces: Mapping | Layout, seat: int, hall: Any,
               cells: Iterable[Iterable[int]], altar: Iterable[int], mirror: bool = False) -> HallPlacement:
    """Check one placement of ``hall`` (a content Hall) for ``seat``; raises Illegal.

    MK-HALL-3: every space on a tunnel of the seat's own network (a joined
    teammate's included, MK-AMB-20), never a door, a hall or an empty space.
    MK-AMB-18: rotations only unless ``mirror``.
    """
    lay = layout(pieces)
    cs = _parse_cells(cells, "MK-HALL-3")
    alt = _parse_cells([altar], "MK-HALL-9")[0]
    if alt not in cs or normalise(cs, alt) not in _orientations(*normalise(hall.cells, hall.altar), mirror):
        raise Illegal("shape_mismatch", "MK-AMB-18" if not mirror else "MK-HALL-3",
                      f"Those spaces (and altar) are not an allowed orientation of {hall.name}.")
    own = _own_tunnel_cells(lay, seat)
    for c in cs:
        if c not in own:
            kind = lay.kind(lay.piece_at[c]) if c in lay.piece_at else None
            what = {"door": "a door", "hall": "another great hall"}.get(kind, "anything but your own tunnels")
            raise Illegal("hall_off_tunnels", "MK-HALL-3", f"A great hall may not cover {what}.")
    return _hall_result(lay, hall.id, cs, alt)


def hall_placements(board: Board, pieces: Mapping | Layout, seat: int, hall: Any,
                    mirror: bool = False) -> Iterator[HallPlacement]:
    """Every legal placement of ``hall`` for ``seat`` (same tests as :func:`hall_check`),
    listed once per occupancy (:meth:`Layout.derived`)."""
    lay = layout(pieces)
    key = ("halls", seat, hall.id, hall.cells, hall.altar, mirror)
    return iter(lay.derived(key, lambda: tuple(_hall_placements(lay, seat, hall, mirror))))


def _hall_placements(lay: Layout, seat: int, hall: Any, mirror: bool) -> Iterator[HallPlacement]:
    own = _own_tunnel_cells(lay, seat)
    seen = set()
    for shape, alt in _orientations(*normalise(hall.cells, hall.altar), mirror):
        r0, c0 = shape[0]
        for tr, tc in sorted(own):
            dr, dc = tr - r0, tc - c0
            cs = tuple((r + dr, c + dc) for r, c in shape)
            a = (alt[0] + dr, alt[1] + dc)
            if (cs, a) in seen or not all(c in own for c in cs):
                continue
            seen.add((cs, a))
            yield _hall_result(lay, hall.id, cs, a)


# --------------------------------------------------------------------------- statues and workshops

def statue_moves(board: Board, pieces: Mapping | Layout, seat: int, cell: Iterable[int],
                 statues: Iterable[Iterable[int]] = ()) -> list[Cell]:
    """Spaces one cart move can take the statue on ``cell`` to (MK-MOVE-2..7, MK-AMB-23).

    Empty unless the statue stands in ``seat``'s network. Destinations: any
    other space of its tunnel, or any space of a tunnel adjacent to it; never
    a space holding one of ``statues``. Workshops are never tunnels, so a move
    never passes through one (MK-MOVE-5); other statues never block (MK-MOVE-7).
    """
    lay = layout(pieces)
    here = cell_of(cell)
    net = lay.network(seat)
    if net is None or here not in net.cells:
        return []
    pid = lay.piece_at[here]
    home = lay.cells_of[pid]
    reach = set(home)
    for n in _around(home):
        other = lay.piece_at.get(n)
        if other is not None and other != pid:
            reach |= lay.cells_of[other]
    taken = {cell_of(s) for s in statues}
    return sorted(c for c in reach if c != here and c not in taken)


@dataclass(frozen=True)
class Entrance:
    """An open side of a workshop (MK-WS-2): ``seats`` own the network across it."""

    side: str
    cell: Cell
    seats: frozenset[int]

    def to_json(self) -> dict:
        return {"side": self.side, "cell": cell_json(self.cell), "seats": sorted(self.seats)}


def open_entrances(board: Board, pieces: Mapping | Layout, workshop: Iterable[int]) -> list[Entrance]:
    """The open entrances of the workshop on ``workshop`` (MK-WS-2, MK-AMB-15, TN-4).

    An entrance is open when the space across it is covered by a door, tunnel
    or hall of some player's network; isolated tiles open nothing. A seat may
    activate it if its own seat is in one entrance's ``seats`` (MK-WS-3) and
    may use it ``len(...)`` times (MK-WS-4).
    """
    lay = layout(pieces)
    r, c = cell_of(workshop)
    out = []
    for side, (dr, dc) in SIDES.items():
        n = (r + dr, c + dc)
        seats = lay.owners(n)
        if seats:
            out.append(Entrance(side, n, seats))
    return out


def tunnels_in(pieces: Mapping | Layout, seat: int) -> list[str]:
    """Ids of the tunnels (MK-MOVE-4: doors, tunnel tiles, remnants, halls) of ``seat``'s network."""
    lay = layout(pieces)
    net = lay.network(seat)
    return list(net.pieces) if net else []
