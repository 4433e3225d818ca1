"""What a DWARF seat may know, for the search bot (``domain.kit.search``).

Hidden are the Mountains' order (DW-CARD-3) and, of each Special Action pile, every
card under the top one (DW-AMB-19; the top card is known by its special side, which no
two cards share). Their contents are public by elimination, so ``observe`` pools them
per Mine (each Mine has its own copy of the cards, DW-COMB-1): the Mountain whole (with
the alternative setup, DW-ALT-1/2, its 2-lantern cards still lie over its 3-lantern
ones, so each group is a pool of its own) and the piles below their tops.

Past the tree, every seat plays ``greedy.quick`` (one step, no lookahead) to the end of
the round the rollout began in (``horizon``: mid-round, the placed workers have not been
paid yet, DW-RES) and the table is judged by ``greedy.worth`` (majorities and their
margins, Objects, Medals, Andvettr's Medal clock). Against Eldhusfifl the resources held
count too, as the Objects they would forge (``potential``). Against Andvettr and his
father the game is a race, the 4th Object (DW-END-1) before his 13th Medal (DW-AND-8):
the table is judged by ``race.chance``, and the player's first worker of a round takes
the only location still free of the kind his second worker seeks first (DW-AND-2: Receive
Help, or Defend under rules dwarf-3's reading, DW-AMB-28).
"""
from __future__ import annotations

from domain.core import Command
from domain.dwarf.versions.dwarf_5 import content, race
from domain.dwarf.versions.dwarf_5.actions import is_andvettr
from domain.dwarf.versions.dwarf_5.automaton import SECOND_WORKER_TYPE
from domain.dwarf.versions.dwarf_5.greedy import quick, worth
from domain.dwarf.versions.dwarf_5.selection import head, located
from domain.dwarf.versions.dwarf_5.state import free_places, top_effect
from domain.kit import Observation, SearchSpec, copy_state, squash


def observe(state: dict, seat: int) -> Observation:
    obs = Observation(copy_state(state))
    cards = content.cards()
    for a, area in enumerate(state["areas"]):
        mountain = area["mountain"]
        if state["options"].get("alternative_mountain"):
            low = sum(1 for c in mountain if cards[c].lanterns == 2)
            obs.pool(mountain[:low], [(("areas", a, "mountain"), 0, low)])
            obs.pool(mountain[low:], [(("areas", a, "mountain"), low, len(mountain) - low)])
        else:
            obs.pool(list(mountain), [(("areas", a, "mountain"), 0, len(mountain))])
        under = [c for pile in area["piles"] for c in pile[1:]]
        obs.pool(under, [(("areas", a, "piles", i), 1, len(pile) - 1) for i, pile in enumerate(area["piles"]) if pile])
    return obs


def block(state: dict, seat: int) -> Command | None:
    """Against Andvettr, the player's first placement on the only free location of the kind his
    second worker, placed next (DW-SOLO-4), seeks first (DW-AND-2, DW-AMB-28: Receive Help's
    two extra workers, or a Defend's Medals); with two or more free, he takes another, so
    nothing is blocked; where he seeks any free location, nothing can be."""
    h = head(state)
    auto = state["automaton"]
    if h is None or h["slot"] != "first" or auto is None or not is_andvettr(state, auto):
        return None
    kind = SECOND_WORKER_TYPE.get(state["options"]["andvettr_second_worker_rule"])
    if kind is None:
        return None
    free = [w for w in free_places(state) if top_effect(state, w).type == kind]
    return {"type": "place", **located(free[0])} if len(free) == 1 else None


def rollout(game, state: dict, seat: int, rng) -> dict:
    return block(state, seat) or quick(state, seat)


def potential(state: dict, seat: int) -> float:
    """The Objects the seat's resources come to (about four units an Object, DW-GLOS-3 and
    the Forge cards; Steel costs Iron to make, DW-GLOS-2), up to the 4th (DW-END-1)."""
    me = state["players"][seat]
    return min(max(0, 4 - me["created"]), race.units(me))


def evaluate(state: dict, seats: list[int]) -> dict[int, float]:
    solo = state["automaton"] is not None
    out = {}
    for p in seats:
        chance = race.chance(state, p) if solo else None
        out[p] = chance if chance is not None else \
            squash((worth(state, p) + (RACE * potential(state, p) if solo else 0.0)) / 8)
    return out


def horizon(state: dict) -> int:
    return state["round"]


RACE = 2.0  # worth per Object the resources held come to, against Eldhusfifl
SEARCH = SearchSpec(observe=observe, rollout=rollout, evaluate=evaluate, depth=24, horizon=horizon,
                    playouts={"easy": 30, "normal": 500, "hard": 1500}, playout_ms=3.0)
