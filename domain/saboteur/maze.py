"""Maze geometry: orientation, edge matching and connectivity (SAB-GRID, SAB-PATH, SAB-CONN).

The maze is a dict ``"x,y" -> {"card", "shape", "rotated", "by"}`` of the
face-up cards (start, placed paths, revealed goals), each described by its
open edges and segments (SAB-PATH-1). Face-down goals are not
in it: their tunnels are unknown, so they neither touch nor constrain a
placement (SAB-AMB-2); callers pass their cells separately where occupancy matters.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Mapping

from domain.saboteur.content import SHAPES, START_CELL

DIRS: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
Maze = Mapping[str, Mapping]


def key(x: int, y: int) -> str:
    return f"{x},{y}"


def xy(k: str) -> tuple[int, int]:
    x, y = k.split(",")
    return int(x), int(y)


def step(x: int, y: int, d: str) -> tuple[int, int]:
    dx, dy = DIRS[d]
    return x + dx, y + dy


@lru_cache(maxsize=None)
def oriented(shape: str, rotated: bool) -> tuple[str, tuple[str, ...]]:
    """Open edges and segments of ``shape`` upright or turned 180 degrees (SAB-PATH-2)."""
    s = SHAPES[shape]
    if not rotated:
        return s.edges, s.segments
    flip = lambda edges: "".join(sorted((OPPOSITE[e] for e in edges), key="NESW".index))  # noqa: E731
    return flip(s.edges), tuple(flip(seg) for seg in s.segments)


def _edges(cell: Mapping) -> str:
    return oriented(cell["shape"], cell["rotated"])[0]


def connected_edges(maze: Maze) -> frozenset[tuple[str, str]]:
    """Open edges ``(cell key, dir)`` whose segment is joined to the start card (SAB-CONN-1).
    Memoised on the maze's cards (the search meets the same maze thousands of times a move)."""
    return _connected(_cards(maze))


@lru_cache(maxsize=4096)
def _connected(cells: tuple[tuple[str, str, bool], ...]) -> frozenset[tuple[str, str]]:
    segments = {k: oriented(shape, rotated)[1] for k, shape, rotated in cells}
    start = key(*START_CELL)
    if start not in segments:
        return frozenset()
    todo = [(start, i) for i in range(len(segments[start]))]
    seen = set(todo)
    out: set[tuple[str, str]] = set()
    while todo:
        k, i = todo.pop()
        x, y = xy(k)
        for d in segments[k][i]:
            out.add((k, d))
            nk = key(*step(x, y, d))
            segs = segments.get(nk)
            if segs is None:
                continue
            for j, seg in enumerate(segs):
                if OPPOSITE[d] in seg and (nk, j) not in seen:
                    seen.add((nk, j))
                    todo.append((nk, j))
    return frozenset(out)


def frontier(maze: Maze) -> dict[tuple[int, int], frozenset[str]]:
    """Cells not in the maze that an open edge joined to the start points into (SAB-CONN-1),
    with the directions (as seen from the cell) those edges come from. Memoised like
    ``connected_edges``: the caller reads it and never changes it."""
    return _frontier(_cards(maze))


def _cards(maze: Maze) -> tuple[tuple[str, str, bool], ...]:
    """The maze as its cards (key, shape, rotated): what the memoised walks are keyed on."""
    return tuple((k, c["shape"], c["rotated"]) for k, c in maze.items())


@lru_cache(maxsize=4096)
def _frontier(cells: tuple[tuple[str, str, bool], ...]) -> dict[tuple[int, int], frozenset[str]]:
    taken = {k for k, _, _ in cells}
    out: dict[tuple[int, int], set[str]] = {}
    for k, d in _connected(cells):
        cell = step(*xy(k), d)
        if key(*cell) not in taken:
            out.setdefault(cell, set()).add(OPPOSITE[d])
    return {cell: frozenset(ds) for cell, ds in out.items()}


def socket(maze: Maze, x: int, y: int) -> tuple[str, str]:
    """The sides of (x, y) that touch a face-up card, and those of them whose
    neighbour has its facing edge open: what a card placed there must fit."""
    touching = open_ = ""
    for d in "NESW":
        nb = maze.get(key(*step(x, y, d)))
        if nb is not None:
            touching += d
            if OPPOSITE[d] in _edges(nb):
                open_ += d
    return touching, open_


def placement_problem(
    maze: Maze,
    occupied: Iterable[str],
    shape: str,
    x: int,
    y: int,
    rotated: bool,
    connected: set[tuple[str, str]] | None = None,
    fit: tuple[str, str] | None = None,
) -> tuple[str, str, str] | None:
    """Why a path card may not go at (x, y), as ``(code, rule, message)``; None if it may.

    ``occupied`` are the keys of face-down goals. ``connected`` (from
    :func:`connected_edges`) is given only when a placement must connect to
    the start (option ``require_connection_to_start``, SAB-AMB-3). ``fit`` is
    the cell's :func:`socket` when the caller has it already.
    """
    k = key(x, y)
    if k in maze or k in occupied:
        return ("cell_occupied", "SAB-PATH-3", "that cell already holds a card")
    touching, open_ = fit or socket(maze, x, y)
    if not touching:
        return ("not_adjacent", "SAB-PATH-4", "a path card must touch a face-up card of the maze")
    edges = oriented(shape, rotated)[0]
    for d in touching:
        if (d in edges) != (d in open_):
            return ("edges_mismatch", "SAB-PATH-5", f"the {d} edge does not match its neighbour")
    if connected is not None and not any(
        (key(*step(x, y, d)), OPPOSITE[d]) in connected for d in edges
    ):
        return ("not_connected", "SAB-AMB-3", "the card must join a tunnel connected to the start")
    return None


def candidate_cells(maze: Maze, occupied: Iterable[str]) -> list[tuple[int, int]]:
    """Empty cells next to a face-up card: the only cells SAB-PATH-4 allows, sorted.
    The grid has no edge (SAB-GRID-3)."""
    blocked = set(occupied)
    out = set()
    for k in maze:
        x, y = xy(k)
        for d in DIRS:
            c = step(x, y, d)
            ck = key(*c)
            if ck not in maze and ck not in blocked:
                out.add(c)
    return sorted(out)


def goal_rotation(maze: Maze, shape: str, x: int, y: int, reaching: set[str]) -> bool:
    """The engine's orientation for a goal turned face up (SAB-AMB-13, SAB-GOAL-4, SAB-GOAL-5).

    ``reaching`` are the directions (from the goal) of the connected edges
    that reached it. Prefer: every edge matches; then an open edge towards a
    reaching card; then most matching edges; then upright.
    """

    def rank(rotated: bool) -> tuple[bool, bool, int, bool]:
        edges = oriented(shape, rotated)[0]
        matches = total = 0
        for d in DIRS:
            nb = maze.get(key(*step(x, y, d)))
            if nb is not None:
                total += 1
                matches += (d in edges) == (OPPOSITE[d] in _edges(nb))
        return (matches == total, bool(reaching & set(edges)), matches, not rotated)

    return max((False, True), key=rank)
