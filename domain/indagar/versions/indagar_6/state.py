"""The game state: one JSON-ready dict, and the questions every rule asks of it.

Shape (all keys plain JSON):

- ``n`` players, ``solo``, ``options``, ``phase`` (``play`` | ``over``), ``round``,
  ``initiative`` (seat holding the initiative token);
- ``tiles``: tile id -> ``{"type": str | None, "destroyed": bool}``; ``type`` None
  = face down (IND-FOG-1). ``hidden`` (secret): tile id -> type of every face-down
  tile; ``peeks``: seat -> {tile: type} a seat explored but left face down (IND-FOG-7);
- ``seats``: per seat faction, heroes, commander, ``res`` (gold/wood/ore), ``spirits``,
  ``pp`` (permanent PP by category, IND-PP-6) and ``traitors`` (IND-EVT-9);
- ``heroes``: id -> owner, ``tile`` (None = in retreat), damage, xp, level,
  ``bonuses`` (level-up sides, IND-LVL-2), ``caches`` (IND-AMB-25), ``activated``;
- ``outposts``: tile -> owner, level, damage this turn, ``downgraded`` this turn;
- ``monsters``: id -> kind (primary | event), tile, damage, home, ``retreat``
  (None | grey | colour, IND-MRET-2), turns this round, counters for victory;
- ``ring`` / ``cursor``: the clockwise cycle of seats and monster seats
  (IND-MTURN-1), or the solo slots (IND-SOLO-4); ``turn``: the current turn;
- ``attack``: the attack being resolved; ``pending``: decisions awaited, first first.
"""
from __future__ import annotations

from typing import Any, Callable

from domain.core import Event

from . import content
from .board import Layout, layout

Emit = Callable[[Event], None]
"""The folding emit of a ``Batch``: every rules module takes one."""
State = dict[str, Any]
RESOURCE_TILES = ("gold", "wood", "ore")
MUD = ("mud", "poison_swamp")
OUTPOST_ENDURANCE = {1: 3, 2: 4, 3: 5}   # IND-OUT-1
OUTPOST_DEFENCE = {1: 1, 2: 2, 3: 3}
PIECES = {1: 6, 2: 4, 3: 2}              # IND-COMP-2
XP_TO_LEVEL = {1: 3, 2: 4, 3: 5}         # IND-LVL-4


def board(s: State) -> Layout:
    return layout(s["n"])


def hero_at(s: State, tile: str) -> str | None:
    return next((h for h, x in s["heroes"].items() if x["tile"] == tile), None)


def monster_at(s: State, tile: str) -> str | None:
    return next((m for m, x in s["monsters"].items() if x["tile"] == tile), None)


def figure_at(s: State, tile: str) -> str | None:
    """The hero or monster on ``tile`` (at most one, IND-MOVE-3)."""
    return hero_at(s, tile) or monster_at(s, tile)


def tile_type(s: State, tile: str) -> str | None:
    """The public type of ``tile``; None while face down."""
    return s["tiles"][tile]["type"]


def impassable(s: State, tile: str) -> bool:
    return tile_type(s, tile) == "mountains"


def occupied(s: State, tile: str) -> bool:
    """IND-TILE-4: a hero, a monster or an outpost is on it."""
    return figure_at(s, tile) is not None or tile in s["outposts"]


def taken_tiles(s: State) -> set[str]:
    """Every tile ``occupied`` says yes to: the heroes', the monsters' and the outposts'."""
    return {x["tile"] for x in s["heroes"].values()} | {x["tile"] for x in s["monsters"].values()} | set(s["outposts"])


def free_for_seat(s: State, tile: str, seat: int, figures: set | None = None) -> bool:
    """IND-TILE-3 / IND-MOVE-3/4: a tile a hero of ``seat`` could move onto.

    Face-down tiles count (IND-MOVE-5) unless a visible figure stands there
    (IND-AMB-51). ``figures``: the tiles figures stand on, when the caller asks of many tiles."""
    taken = figure_at(s, tile) is not None if figures is None else tile in figures
    if taken or impassable(s, tile):
        return False
    out = s["outposts"].get(tile)
    return out is None or out["owner"] == seat


def hero_card(hero: str) -> dict:
    return content.heroes()[hero]


def owner(s: State, hero: str) -> int:
    return s["heroes"][hero]["owner"]


def friendly(s: State, a: str, b: str) -> bool:
    """Two figures are friendly when the same player controls both; monsters never are (IND-MON-3)."""
    ha, hb = s["heroes"].get(a), s["heroes"].get(b)
    return ha is not None and hb is not None and ha["owner"] == hb["owner"]


def has_rule(hero: str, rule: str) -> bool:
    return rule in hero_card(hero)["rules"]


def level(s: State, hero: str) -> int:
    return len(s["heroes"][hero]["bonuses"])


def available(s: State, hero: str) -> bool:
    """IND-ACT-1: not activated this round and not in retreat."""
    h = s["heroes"][hero]
    return not h["activated"] and h["tile"] is not None


def available_heroes(s: State, seat: int) -> list[str]:
    return [h for h in s["seats"][seat]["heroes"] if available(s, h)]


def pp(s: State, seat: int) -> int:
    """IND-PP-6: permanent PP plus one per outpost on the board."""
    return sum(s["seats"][seat]["pp"].values()) + outposts_of(s, seat)


def outposts_of(s: State, seat: int) -> int:
    return sum(1 for o in s["outposts"].values() if o["owner"] == seat)


def pieces_free(s: State, seat: int, lvl: int) -> bool:
    """IND-OUT-6: a piece of level ``lvl`` is still off the board."""
    return sum(1 for o in s["outposts"].values() if o["owner"] == seat and o["level"] == lvl) < PIECES[lvl]


def monster_level(s: State) -> int:
    return content.demon_heads(s["round"])


def monster_stats(s: State, monster: str) -> dict:
    """Current attack, defence, movement, endurance of a monster (IND-MLVL-1, IND-EVM-1)."""
    m = s["monsters"][monster]
    if m["kind"] == "event":
        card = content.event_monsters()[monster]
        return {k: card[k] for k in ("attack", "defence", "movement", "endurance")}
    a, d, mv, e = content.monsters()[monster]["levels"][monster_level(s) - 1]
    return {"attack": a, "defence": d, "movement": mv, "endurance": e}


def primaries(s: State) -> list[str]:
    """Primary monsters in home order: clockwise from seat 0's area (IND-SOLO-5 in solo)."""
    return sorted((m for m, x in s["monsters"].items() if x["kind"] == "primary"), key=lambda m: s["monsters"][m]["home"])


def last_player(s: State) -> int:
    """The last seat in the current play order (glossary; the solo player in solo)."""
    return (s["initiative"] - 1) % s["n"]


def play_order(s: State) -> list[int]:
    return [(s["initiative"] + i) % s["n"] for i in range(s["n"])]
