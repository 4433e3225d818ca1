"""What a DWARF seat may know, for the search bot (``domain.kit.search``).

Hidden are the Mountains' order (DW-CARD-3) and, of each Special Action pile, every
card under the top one (DW-AMB-19; the top card is known by its special side, which no
two cards share). Their contents are public by elimination, so ``observe`` pools them
per Mine (each Mine has its own copy of the cards, DW-COMB-1): the Mountain whole (with
the alternative setup, DW-ALT-1/2, its 2-lantern cards still lie over its 3-lantern
ones, so each group is a pool of its own) and the piles below their tops.

Past the tree, every seat plays ``greedy.quick`` (one step, no lookahead) and the
position is judged by ``greedy.worth`` (majorities and their margins, Objects,
Medals, Andvettr's Medal clock).
"""
from __future__ import annotations

from domain.dwarf.versions.dwarf_2 import content
from domain.dwarf.versions.dwarf_2.greedy import quick, worth
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


def rollout(game, state: dict, seat: int, rng) -> dict:
    return quick(state, seat)


def evaluate(state: dict, seats: list[int]) -> dict[int, float]:
    return {p: squash(worth(state, p) / 8) for p in seats}


SEARCH = SearchSpec(observe=observe, rollout=rollout, evaluate=evaluate, depth=24,
                    playouts={"easy": 30, "normal": 120, "hard": 500}, playout_ms=6.0)
