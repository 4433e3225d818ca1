"""Outposts and the other two actions (sections 11.8, 14, 16).

Build (IND-OUT-2), upgrade one level (IND-OUT-3/4), gather spirits (IND-ACTN-1,
IND-SPI-1). Each is the active hero's one action; costs come from the level
table (IND-OUT-1) and the piece limits apply (IND-OUT-6).
"""
from __future__ import annotations

from domain.core import event, require

from . import harm
from . import state as st
from .state import Emit, State

BUILD_COST = {1: {"gold": 2}, 2: {"gold": 1, "wood": 2}, 3: {"gold": 1, "wood": 1, "ore": 2}}


def can_pay(s: State, seat: int, cost: dict) -> bool:
    return all(s["seats"][seat]["res"][r] >= n for r, n in cost.items())


def build_problem(s: State, seat: int, hero: str) -> tuple[str, str, str] | None:
    """Why the active hero may not build here (code, rule, message), or None."""
    tile = s["heroes"][hero]["tile"]
    if st.has_rule(hero, "burn-not-build"):
        return "burn_not_build", "IND-SPR-5", "this hero may not build, upgrade or capture outposts"
    if st.tile_type(s, tile) not in st.RESOURCE_TILES:
        return "not_resource_tile", "IND-OUT-2", "outposts are built only on Gold, Wood or Ore tiles"
    if s["tiles"][tile]["destroyed"]:
        return "tile_destroyed", "IND-TERM-2", "nothing can be built on a destroyed tile"
    if tile in s["outposts"]:
        return "tile_has_outpost", "IND-OUT-2", "this tile already holds an outpost; upgrade it instead"
    if not st.pieces_free(s, seat, 1):
        return "no_piece", "IND-OUT-6", "all 6 of your level-1 outposts are on the board"
    if not can_pay(s, seat, BUILD_COST[1]):
        return "cannot_pay", "IND-OUT-1", "building costs 2 gold (exchange 3:1 first, IND-RES-5)"
    return None


def upgrade_problem(s: State, seat: int, hero: str) -> tuple[str, str, str] | None:
    tile = s["heroes"][hero]["tile"]
    out = s["outposts"].get(tile)
    if st.has_rule(hero, "burn-not-build"):
        return "burn_not_build", "IND-SPR-5", "this hero may not build, upgrade or capture outposts"
    if out is None or out["owner"] != seat:
        return "no_outpost", "IND-OUT-3", "upgrade the outpost of your own that your hero stands on"
    if out["level"] >= 3:
        return "max_level", "IND-OUT-1", "level 3 is the highest"
    if s["tiles"][tile]["destroyed"]:
        return "tile_destroyed", "IND-TERM-2", "an outpost on a destroyed tile cannot be upgraded"
    if not st.pieces_free(s, seat, out["level"] + 1):
        return "no_piece", "IND-OUT-6", f"no free level-{out['level'] + 1} piece"
    if not can_pay(s, seat, BUILD_COST[out["level"] + 1]):
        return "cannot_pay", "IND-OUT-1", f"upgrading to level {out['level'] + 1} costs {BUILD_COST[out['level'] + 1]}"
    return None


def build(s: State, emit: Emit, seat: int, hero: str) -> None:
    problem = build_problem(s, seat, hero)
    require(problem is None, *(problem or ("", "", "")))
    emit(event("OutpostBuilt", tile=s["heroes"][hero]["tile"], seat=seat, level=1, cost=BUILD_COST[1]))
    fortified(s, emit, hero, 1)


def upgrade(s: State, emit: Emit, seat: int, hero: str) -> None:
    problem = upgrade_problem(s, seat, hero)
    require(problem is None, *(problem or ("", "", "")))
    tile = s["heroes"][hero]["tile"]
    lvl = s["outposts"][tile]["level"] + 1
    emit(event("OutpostBuilt", tile=tile, seat=seat, level=lvl, cost=BUILD_COST[lvl]))
    fortified(s, emit, hero, lvl)


def fortified(s: State, emit: Emit, hero: str, lvl: int) -> None:
    """IND-SPR-4: +1 XP per build or upgrade, +2 when upgrading to level 3."""
    if st.has_rule(hero, "fortified"):
        harm.gain_xp(s, emit, hero, 2 if lvl == 3 else 1)


def gather(s: State, emit: Emit, seat: int, hero: str) -> None:
    require(s["heroes"][hero]["tile"] == st.board(s).source, "not_on_source", "IND-ACTN-1",
            "gather spirits from the Source of Power: your hero must stand on it")
    require(s["source"] > 0, "source_empty", "IND-SPI-1", "there are no spirits on the Source yet")
    emit(event("SpiritsGathered", seat=seat, monster=None, n=s["source"]))
