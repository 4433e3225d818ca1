"""Holdings, payment and gains (MK-RES, MK-CART, MK-TRADE).

A *payment* is what an event records as spent: ``{"storage": {res: n},
"trolls": [["r,i", symbol_index], ...]}``. Commands that cost resources may
name the order of their sources with ``"sources": ["storage", [2, 1], ...]``
(MK-RES-2 lets any mix be spent); without it the default order is the roster
from the bottom row up, left to right, then storage -- the rulebook's advice to
spend from trolls first so their symbols produce again (MK-RES-5).

Clan carts are strict by default (MK-AMB-3, Proposed): they pay only for
moving a statue of their clan and never count as "any resource". The option
``clan_carts_generic_payment`` lifts that, except at the Cartwright's House
(MK-WST-1), whose callers pass ``clan_ok=False``.
"""
from __future__ import annotations

from functools import lru_cache

from domain.core import Illegal, require
from domain.kit import replaced

from . import content
from .catalog import top_row
from .state import State, key, store_of

SUPPLY = {"stone": 35, "iron": 35, "heartstone": 30, "cart": 45, "hammer": 20, "rune": 25, "coin": 35}
"""MK-COMP-15: the finite supply (MK-AMB-4, Proposed)."""


def resource_of(symbol: str) -> str:
    """``"cart:fire"`` -> ``"cart"``."""
    return symbol.split(":", 1)[0]


def _resources(card: str) -> tuple[str, ...]:
    return tuple(resource_of(sym) for sym in top_row(card))


_OWN_RESOURCES = {card: _resources(card) for card in content.TABLES["trolls"].own()}


def top_resources(card: str) -> tuple[str, ...]:
    """The resource of each symbol of the card's top row (``resource_of``), worked out once per
    card of the game's own (a test position's given trolls are read as given). Scoring and the
    bots count tokens this way hundreds of thousands of times a search move."""
    return _resources(card) if replaced() else _OWN_RESOURCES[card]


def clan_of(symbol: str) -> str | None:
    """The clan of a clan-cart symbol (MK-CART-2), else None (wild)."""
    return symbol.split(":", 1)[1] if ":" in symbol else None


def roster_order(roster: dict) -> list[str]:
    """Positions bottom row first, left to right: the default spending order."""
    return list(_position_order(tuple(roster)))


@lru_cache(maxsize=1024)
def _position_order(positions: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(positions, key=lambda k: tuple(int(x) for x in k.split(","))))


def source_order(state: State, seat: int, sources) -> list[str]:
    """``"storage"`` and ``"r,i"`` keys in paying order; raises Illegal on a malformed list."""
    roster = state["rosters"][seat]
    if sources is None:
        return roster_order(roster) + ["storage"]
    ok = all(src == "storage" or key(src) in roster for src in sources)  # the shape is the schema's
    require(ok, "bad_source", "MK-RES-2", "sources lists 'storage' and positions [r, i] of your own roster")
    return ["storage" if src == "storage" else key(src) for src in sources]


def troll_tokens(state: State, seat: int, sources=None):
    """``(pos, index, symbol)`` of every token on the seat's trolls, in source order."""
    roster = state["rosters"][seat]
    for pos in source_order(state, seat, sources):
        if pos == "storage":
            continue
        troll = roster[pos]
        for i, symbol in enumerate(top_row(troll["card"])):
            if troll["held"][i]:
                yield pos, i, symbol


def generic_clan_carts(state: State) -> bool:
    return bool(state["options"].get("clan_carts_generic_payment"))


def spendable(state: State, seat: int, clan_ok: bool | None = None) -> dict[str, int]:
    """What the seat may spend as ordinary resources: storage plus its own trolls
    (MK-RES-2, MK-TEAM-8), clan carts excluded unless ``clan_ok`` (MK-AMB-3)."""
    if clan_ok is None:
        clan_ok = generic_clan_carts(state)
    out = dict(state["stores"][store_of(state, seat)])
    for _pos, _i, symbol in troll_tokens(state, seat):
        if clan_ok or clan_of(symbol) is None:
            res = resource_of(symbol)
            out[res] = out.get(res, 0) + 1
    return {r: n for r, n in out.items() if n > 0}


def can_afford(state: State, seat: int, cost: dict[str, int]) -> bool:
    have = spendable(state, seat)
    return all(have.get(r, 0) >= n for r, n in cost.items())


def plan_payment(state: State, seat: int, cost: dict[str, int], rule: str, sources=None,
                 clan_ok: bool | None = None) -> dict:
    """The payment of ``cost`` from ``sources`` (default order); raises Illegal."""
    if clan_ok is None:
        clan_ok = generic_clan_carts(state)
    order = source_order(state, seat, sources)
    store = state["stores"][store_of(state, seat)]
    paid: dict = {"storage": {}, "trolls": []}
    roster = state["rosters"][seat]
    for res, need in sorted(cost.items()):
        for src in order:
            if need <= 0:
                break
            if src == "storage":
                take = min(need, store.get(res, 0))
                if take:
                    paid["storage"][res] = take
                    need -= take
                continue
            pos = src
            troll = roster[pos]
            for i, symbol in enumerate(top_row(troll["card"])):
                if need and troll["held"][i] and (symbol == res or clan_ok and resource_of(symbol) == res):
                    paid["trolls"].append([pos, i])
                    need -= 1
        if need > 0:
            raise Illegal("cannot_pay", rule, f"not enough {res} to pay {cost}")
    return paid


def plan_cart(state: State, seat: int, clan: str, kind: str, rule: str, sources=None) -> dict:
    """Pay one cart for a statue of ``clan`` (MK-MOVE-6): ``kind`` "clan" takes a
    cart from a ``cart:<clan>`` symbol, "wild" a spiral-symbol or storage cart. A
    cart's kind is where it sits (MK-CART-1, -3, -5; MK-RES-6)."""
    if kind == "clan":
        for pos, i, symbol in troll_tokens(state, seat, sources):
            if symbol == f"cart:{clan}":
                return {"storage": {}, "trolls": [[pos, i]]}
        raise Illegal("cannot_pay", rule, f"no {clan} clan cart on your trolls")
    if kind != "wild":
        raise Illegal("bad_command", rule, "cart must be 'clan' or 'wild'")
    return plan_payment(state, seat, {"cart": 1}, rule, sources, clan_ok=False)


def paid_counts(state: State, seat: int, paid: dict) -> dict[str, int]:
    """Resource counts of a payment (what returns to the supply or moves on)."""
    out = dict(paid["storage"])
    roster = state["rosters"][seat]
    for pos, i in paid["trolls"]:
        res = resource_of(top_row(roster[pos]["card"])[i])
        out[res] = out.get(res, 0) + 1
    return out


def apply_payment(state: State, seat: int, paid: dict) -> dict[str, int]:
    """Remove a payment from the seat's holdings (evolve side); returns its counts."""
    counts = paid_counts(state, seat, paid)
    store = state["stores"][store_of(state, seat)]
    for res, n in paid["storage"].items():
        store[res] -= n
    roster = state["rosters"][seat]
    for pos, i in paid["trolls"]:
        roster[pos]["held"][i] = False
    return counts


def available(state: State, want: dict[str, int]) -> dict[str, int]:
    """The part of ``want`` the supply can cover (MK-AMB-4): gains beyond it are lost."""
    out = {}
    for res, n in want.items():
        got = min(n, state["supply"][res])
        if got > 0:
            out[res] = got
    return out


def add(bag: dict, counts: dict, sign: int = 1) -> None:
    for res, n in counts.items():
        bag[res] = bag.get(res, 0) + sign * n


def to_store(state: State, seat: int, counts: dict) -> None:
    """Supply -> the seat's storage (evolve side)."""
    add(state["supply"], counts, -1)
    add(state["stores"][store_of(state, seat)], counts)
