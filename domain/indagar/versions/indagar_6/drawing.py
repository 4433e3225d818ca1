"""Indagar's text board for `delve show`: the hex map row by row (odd rows shifted half a
tile right, as ``domain.indagar.versions.indagar_6.board``), then each seat's faction, resources and spirits
(pure: a view in, lines out)."""
from __future__ import annotations

import re

TYPES = {"gold": "Au", "wood": "Wd", "ore": "Or", "meadow": "Me", "mud": "Mu", "source": "So",
         "local_traitors": "Tr", "poison_swamp": "Ps"}
WIDTH = 12  # characters a tile takes: its type and what stands on it, then a space at least
_NAME = re.compile(r"^r(\d+)c(\d+)$")


def board(view: dict) -> list[str]:
    """Each tile as its type (two letters; ?? face down, ^^ a mountain, xx destroyed, ## sealed)
    and what stands on it: a hero by name (seat digit after it), a monster with !, an outpost O
    with its owner."""
    tiles = view.get("tiles") or {}
    if not tiles:
        return []
    where = {name: _NAME.match(name) for name in tiles}
    cells = {(int(m[1]), int(m[2])): _tile(view, name) for name, m in where.items() if m}
    rows_, cols = {r for r, _ in cells}, {c for _, c in cells}
    lines = ["map (tile type, then who stands there; Ari0 a hero of seat 0, !name a monster, O0 an "
             "outpost of seat 0; ?? face down, ^^ mountain, xx destroyed, ## sealed):"]
    for r in range(min(rows_), max(rows_) + 1):
        shift = " " * (WIDTH // 2) if r % 2 else ""
        row = "".join(f"{cells.get((r, c), ''):<{WIDTH - 1}} " for c in range(min(cols), max(cols) + 1))
        lines.append(f"  r{r} {shift}{row}".rstrip())
    lines.append(f"  round {view.get('round')}, {view.get('phase')}"
                 + (f"; result {view['result']}" if view.get("result") else ""))
    for i, s in enumerate(view.get("seats") or []):
        res = ", ".join(f"{n} {k}" for k, n in sorted((s.get("res") or {}).items()) if n) or "nothing"
        lines.append(f"  seat {i} ({s.get('faction')}): {res}, {s.get('spirits', 0)} spirits")
    return lines


def _tile(view: dict, name: str) -> str:
    tile = view["tiles"][name]
    kind = ("xx" if tile.get("destroyed") else "^^" if name in (view.get("mountains") or [])
            else "##" if name in (view.get("sealed") or []) else TYPES.get(tile.get("type"), "??"))
    on = [f"{h[:3].capitalize()}{v.get('owner', '')}" for h, v in sorted((view.get("heroes") or {}).items())
          if v.get("tile") == name]
    on += [f"!{m[:3]}" for m, v in sorted((view.get("monsters") or {}).items()) if v.get("tile") == name]
    post = (view.get("outposts") or {}).get(name)
    if post:
        on.append(f"O{post.get('owner', '')}")
    return " ".join([kind, *on])
