"""The 11 workshop types and their uses (MK-WS, MK-WST-1..11).

Each use is a separate command (MK-WS-5). An exchange use is ``{"give": {..},
"get": {..}}``; the Quartermaster's Post moves one token from a troll to
storage: ``{"move": [r, i, symbol_index]}`` (MK-WST-6).
"""
from __future__ import annotations

from itertools import combinations_with_replacement

from .content import RESOURCES
from .economy import spendable, troll_tokens


def _two_way(a: dict, b: dict) -> list[tuple[dict, dict]]:
    return [(a, b), (b, a)]


EXCHANGES: dict[str, list[tuple[dict, dict]]] = {
    # MK-WST-1: only wild carts may be spent here (callers pass clan_ok=False).
    "cartwrights_house": _two_way({"heartstone": 1}, {"cart": 1}),
    "spellweaver": _two_way({"coin": 1}, {"rune": 1}),  # MK-WST-2
    "coin_press": [({"iron": 1}, {"coin": 1}), ({"heartstone": 1}, {"coin": 1}),
                   ({"coin": 1}, {"iron": 1}), ({"coin": 1}, {"heartstone": 1})],  # MK-WST-3
    "metal_works": _two_way({"heartstone": 1}, {"iron": 1}),  # MK-WST-4
    "runeforge": [({"stone": 1}, {"rune": 1}), ({"iron": 1}, {"rune": 1}),
                  ({"rune": 1}, {"stone": 1}), ({"rune": 1}, {"iron": 1})],  # MK-WST-7
    "great_quarry": _two_way({"heartstone": 1}, {"stone": 2}),  # MK-WST-8
    "stone_mill": _two_way({"stone": 1}, {"iron": 1}),  # MK-WST-9
    "tool_forge": _two_way({"heartstone": 1}, {"hammer": 1}),  # MK-WST-10
}
ANY_TWO = {"utensil_forge": "hammer", "swivel_bolts": "cart"}  # MK-WST-5, MK-WST-11: one way only
QUARTERMASTER = "quartermasters_post"  # MK-WST-6
WILD_ONLY = "cartwrights_house"  # MK-WST-1, MK-CART-6: never a clan cart
TYPES = tuple(EXCHANGES) + tuple(ANY_TWO) + (QUARTERMASTER,)


def _bag(pairs) -> dict:
    out: dict = {}
    for r in pairs:
        out[r] = out.get(r, 0) + 1
    return out


def uses(kind: str, state, seat: int, have: dict) -> list[dict]:
    """Every use of a ``kind`` workshop the seat can make now: payable, and the
    supply can cover the gain (MK-AMB-4)."""
    supply = state["supply"]
    if kind == WILD_ONLY:
        have = spendable(state, seat, clan_ok=False)

    def ok(give, get):
        return all(have.get(r, 0) >= n for r, n in give.items()) and all(supply[r] >= n for r, n in get.items())

    if kind in EXCHANGES:
        return [{"give": g, "get": t} for g, t in EXCHANGES[kind] if ok(g, t)]
    if kind in ANY_TWO:
        get = {ANY_TWO[kind]: 1}
        return [{"give": _bag(c), "get": get} for c in combinations_with_replacement(sorted(have), 2)
                if ok(_bag(c), get)]
    return [{"move": [int(p.split(",")[0]), int(p.split(",")[1]), i]} for p, i, _s in troll_tokens(state, seat)]


def is_use(kind: str, use: dict, state, seat: int) -> bool:
    """Whether ``use`` is one of the type's listed alternatives (ignoring affordability)."""
    if kind == QUARTERMASTER:
        return set(use) == {"move"}
    if set(use) != {"give", "get"}:
        return False
    if kind in EXCHANGES:
        return (use["give"], use["get"]) in EXCHANGES[kind]
    return (use["get"] == {ANY_TWO[kind]: 1} and sum(use["give"].values()) == 2
            and all(r in RESOURCES for r in use["give"]))

