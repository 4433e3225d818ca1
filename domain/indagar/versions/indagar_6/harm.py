"""What befalls a hero outside the flow of a turn: damage, retreat, experience.

The lowest rules layer above the state: movement, combat, outposts and the
response windows all call it, and it calls none of them.
"""
from __future__ import annotations

from domain.core import event

from . import state as st
from .state import Emit, State


def damage_hero(s: State, emit: Emit, hero: str, n: int, cause: int | None) -> None:
    """Damage outside an attack (IND-OUT-13): retreat at endurance (IND-RET-1)."""
    x = s["heroes"][hero]
    total = x["damage"] + n
    if total >= st.hero_card(hero)["endurance"]:
        retreat_hero(s, emit, hero, by_seat=cause, by_monster=None)
    else:
        emit(event("HeroDamaged", hero=hero, damage=total))


def retreat_hero(s: State, emit: Emit, hero: str, by_seat: int | None, by_monster: str | None) -> None:
    """IND-RET-2/7; an enemy commander sent to retreat by a player's attack earns that
    player 1 PP (IND-PP-2, IND-CMD-3, IND-AMB-27)."""
    owner = st.owner(s, hero)
    pp = by_seat is not None and by_seat != owner and s["seats"][owner]["commander"] == hero
    emit(event("HeroRetreated", hero=hero, by_seat=by_seat, by_monster=by_monster, commander_pp=pp))


def gain_xp(s: State, emit: Emit, hero: str, n: int) -> None:
    """IND-LVL-4/5/6, IND-AMB-32: level up at once, carry the excess, cascade; discard at 3."""
    x = s["heroes"][hero]
    lvl = len(x["bonuses"])
    if lvl >= 3 or n <= 0 or x["tile"] is None:                                # IND-RET-2: in retreat, no XP
        return
    xp = x["xp"] + n
    ups = 0
    while lvl + ups < 3 and xp >= st.XP_TO_LEVEL[lvl + ups + 1]:
        xp -= st.XP_TO_LEVEL[lvl + ups + 1]
        ups += 1
    if lvl + ups == 3:
        xp = 0
    emit(event("XpGained", hero=hero, gained=n, xp=xp, levels=ups))
    for _ in range(ups):
        emit(event("DecisionAsked", kind="level_bonus", seat=x["owner"], options=["sword", "shield"], hero=hero))


def clearing_heal(s: State, emit: Emit, hero: str) -> None:
    """The active hero on the Mystic Clearing removes 2 damage once in its activation, at any
    moment (IND-EVT-12, IND-AMB-21): as soon as it is there with damage -- activated there,
    entering it, or hurt there later in the activation (a reveal attack)."""
    x = s["heroes"][hero]
    turn = s.get("turn") or {}
    if x["tile"] and st.tile_type(s, x["tile"]) == "mystic_clearing" and x["damage"] and turn.get("hero") == hero and not turn.get("cleared"):
        emit(event("HeroHealed", hero=hero, damage=max(0, x["damage"] - 2), reason="mystic_clearing"))
