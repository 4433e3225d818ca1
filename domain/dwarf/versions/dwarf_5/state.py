"""The DWARF state: one plain JSON dict (secrets included; ``secrecy`` decides who sees what).

``in_hand`` is a Special Action card taken but not yet in the Mine: Andvettr's
instant win (DW-AND-8) can end the game between DW-SPEC-4 and DW-SPEC-5.
``step`` is the resolution step under way (DW-RES-1), where one waits for a
player's order (DW-AMB-14).

Participants are indexed 0..k-1 in clockwise order: seats first, then the solo
automaton if there is one (DW-SOLO-1). Every place is ``"a:rc"`` (``grid``).
"""
from __future__ import annotations

from domain.dwarf.versions.dwarf_5 import content
from domain.dwarf.versions.dwarf_5.grid import place, places, split

HOLDINGS = ("iron", "gold", "steel", "object", "medal")
NORMAL_WORKERS = 2  # DW-SETUP-4
EXTRA_WORKERS = 2  # DW-SETUP-5, DW-AMB-12


def initial() -> dict:
    return {"phase": "setup", "round": 0, "options": {}, "players": [], "seats": 0, "automaton": None,
            "level": None, "areas": [], "first": 0, "queue": [], "workers": {}, "unplaced": [],
            "pile_workers": [], "extras": [], "extras_used": [], "first_refs": [], "last_ref": None,
            "last_mined": None, "seq": 0, "banned": None, "ban_next": None, "end_pending": None,
            "ended": None, "step": None, "in_hand": None}


def new_player(pid: str) -> dict:
    """DW-AMB-10: nobody starts with resources or medals."""
    return {"id": pid, **{r: 0 for r in HOLDINGS}, "created": 0, "specials": 0}


def top(state: dict, where: str) -> str:
    """The active card of a place (DW-CARD-2)."""
    area, loc = split(where)
    return state["areas"][area]["stacks"][loc][-1]


def top_effect(state: dict, where: str) -> content.Effect:
    return content.effect_of(top(state, where))


def available(state: dict, where: str) -> bool:
    """DW-CARD-7: no worker of any colour stands there."""
    return where not in state["workers"]


def free_places(state: dict) -> list[str]:
    return [p for p in places(len(state["areas"])) if available(state, p)]


def pile_at(state: dict, pile: int) -> list[str]:
    return state["areas"][pile // 3]["piles"][pile % 3]


def piles(state: dict) -> list[int]:
    return list(range(3 * len(state["areas"])))


def solo(state: dict) -> bool:
    return state["automaton"] is not None


def has(state: dict, player: int, cost: dict, times: int = 1) -> bool:
    """DW-RES-6: every unit of the cost is in hand."""
    me = state["players"][player]
    return all(me[r] >= n * times for r, n in cost.items())


def card_place(cid: str, area: int) -> str:
    """Where a card goes in Mine ``area``: its reference grid's orange box (DW-CARD-1)."""
    return place(area, content.card(cid).location)
