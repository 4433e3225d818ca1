"""The static, public components a client needs to draw the game: both board
sides, tiles, halls, trolls, spells, workshops and the pedestal token mix.

Views name components by id (``"L1-19"``, ``"T4"``, ``"the-rift"``); this is
where a client looks the ids up. Nothing here is secret: it is the box, not
the shuffle.
"""
from __future__ import annotations

from dataclasses import asdict
from functools import lru_cache

from . import content
from .board import cell_json, cells_json
from .spells import SPELLS
from .workshops import ANY_TWO, EXCHANGES, QUARTERMASTER, TYPES, WILD_ONLY


def _board(side: str) -> dict:
    b = content.board(side)
    return {
        "rows": b.rows, "cols": b.cols,
        "levels": {f"{r},{c}": lv for (r, c), lv in sorted(b.levels.items())},
        "heart": cells_json(sorted(b.heart)),
        "rubble": cells_json(sorted(b.rubble)),
        "statue_spaces": cells_json(b.statue_spaces),
        "workshop_spaces": cells_json(b.workshop_spaces),
        "buried": {f"{r},{c}": list(res) for (r, c), res in sorted(b.buried.items())},
        "start_points": [{"id": p.id, "cell": cell_json(p.cell), "labels": list(p.labels)} for p in b.start_points],
        "team_pairs": [list(pair) for pair in b.team_pairs],
    }


def _workshop(kind: str) -> dict:
    if kind in EXCHANGES:
        uses = [{"give": give, "get": get} for give, get in EXCHANGES[kind]]
        return {"id": kind, "uses": uses, "wild_carts_only": kind == WILD_ONLY}
    if kind in ANY_TWO:
        return {"id": kind, "uses": [{"give": "any 2 resources", "get": {ANY_TWO[kind]: 1}}]}
    assert kind == QUARTERMASTER
    return {"id": kind, "uses": [{"move": "one token from a roster troll to storage"}]}


@lru_cache(maxsize=1)
def components() -> dict:
    return {
        "boards": {side: _board(side) for side in content.SIDES},
        "door": cells_json(content.door()),
        "tiles": [{"id": t.id, "size": t.size, "cells": cells_json(t.cells),
                   "anchor": cell_json(t.anchor) if t.anchor else None, "copies": t.copies} for t in content.tiles()],
        "halls": [{"id": h.id, "name": h.name, "cells": cells_json(h.cells), "altar": cell_json(h.altar),
                   "low": h.low, "high": h.high} for h in content.halls()],
        "horde_trolls": [{**asdict(t), "symbols": list(t.symbols)} for t in content.horde_trolls()],
        "starter_trolls": [{**asdict(t), "top": list(t.top), "bottom": list(t.bottom)}
                           for colour in content.colours() for t in content.starter_trolls(colour)],
        "spells": [{"id": s["id"], "name": s["name"], "text": s["text"], "precondition": s["precondition"]}
                   for s in SPELLS.values()],
        "workshops": [_workshop(kind) for kind in TYPES],
        "pedestal_tokens": [{"copies": n, "value": v} for n, v in content.pedestal_token_groups()],
        "resources": list(content.RESOURCES),
        "clans": list(content.CLANS),
    }
