"""Carrying out one location's action for one participant: costs all or nothing
(DW-RES-6, DW-AMB-15), Andvettr's double Forge actions (DW-AND-5, DW-AMB-31), Reward for
Valour (DW-GLOS-9) and Andvettr's instant win (DW-AND-8, DW-AMB-32)."""
from __future__ import annotations

from domain.dwarf.versions.dwarf_5 import content
from domain.dwarf.versions.dwarf_5.state import has, top
from domain.kit import Batch

ANDVETTR_LEVELS = ("andvettr", "andvettr-fadir")
GLORY = (1, 2, 3)  # DW-AND-6: Medals for the human's 1st, 2nd, 3rd Special Action (DW-AND-7: no 4th)


def is_andvettr(s: dict, player: int) -> bool:
    return player == s["automaton"] and s["level"] in ANDVETTR_LEVELS


def times_for(s: dict, player: int, kind: str) -> int:
    """How often ``player`` carries out an action of type ``kind``: Andvettr (and his father) a
    Forge action twice, "master of the anvil ... if he has the resources" (DW-AND-5, DW-AMB-31;
    option ``andvettr_double_actions = all``: every action); Eldhusfifl and the players once."""
    if not is_andvettr(s, player):
        return 1
    return 2 if kind == "forge" or s["options"]["andvettr_double_actions"] == "all" else 1


def net(effect: content.Effect, times: int) -> dict:
    delta: dict = {}
    for res, n in effect.cost.items():
        delta[res] = delta.get(res, 0) - n * times
    for res, n in effect.gain.items():
        delta[res] = delta.get(res, 0) + n * times
    return {r: n for r, n in delta.items() if n}


def payable_times(s: dict, player: int, effect: content.Effect, limit: int) -> int:
    """How often the effect can be paid in a row, up to ``limit`` (the second time
    is paid from what is left after the first, DW-AMB-31)."""
    n = 0
    while n < limit and has(s, player, effect.cost, n + 1):
        n += 1
    return n


def gain_medals(b: Batch, player: int, count: int, why: str) -> bool:
    """Give Medals; True if that made Andvettr win at once (DW-AND-8)."""
    b.emit("Gained", player=player, delta={"medal": count}, why=why)
    s = b.state
    if is_andvettr(s, player) and s["players"][player]["medal"] >= s["options"]["andvettr_medal_win_threshold"]:
        b.emit("GameEnded", reason="automaton_medals")
        return True
    return False


def carry_out(b: Batch, player: int, where: str, card: str | None = None) -> None:
    """One worker's action on ``where`` (its top card, or ``card`` when it is being
    covered, DW-SPEC-6). Receive Help grants extras in its own step (DW-RES-2)."""
    s = b.state
    cid = card or top(s, where)
    effect = content.effect_of(cid)
    if effect.type in ("mine", "forge"):
        n = payable_times(s, player, effect, times_for(s, player, effect.type))
        if n == 0:
            b.emit("ActionFailed", player=player, place=where, card=cid, effect=effect.id, reason="cannot_pay")
        else:
            b.emit("ActionResolved", player=player, place=where, card=cid, effect=effect.id,
                   delta=net(effect, n), times=n)
    elif effect.type == "defend":
        gain_medals(b, player, times_for(s, player, effect.type), "valour")
