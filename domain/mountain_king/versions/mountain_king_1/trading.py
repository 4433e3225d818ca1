"""The 4-for-1 trade with the supply (MK-TRADE-1..4) and workshop uses (MK-WS)."""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement

from domain.core import event, require

from . import terrain, workshops
from .content import RESOURCES
from .economy import plan_payment, spendable
from .state import key

TRADE_GIVE = 4  # MK-TRADE-1


def trade_size(s) -> int:
    return 3 if s["turn"] and "cheap_trades" in s["turn"]["flags"] else TRADE_GIVE


def _bag(items) -> dict:
    out: dict = {}
    for r in items:
        out[r] = out.get(r, 0) + 1
    return out


def trades(s, seat: int) -> list[dict]:
    """Every trade: any ``n`` payable resources (never pedestals or tokens, MK-TRADE-4)
    for one type the supply holds, into storage (a cart there is wild, MK-TRADE-2)."""
    have = spendable(s, seat)
    n = trade_size(s)
    if sum(have.values()) < n:
        return []
    gets = [r for r in RESOURCES if s["supply"][r] > 0]
    return [{"type": "trade", "give": give, "get": g} for give in map(dict, _gives(tuple(sorted(have.items())), n))
            for g in gets]


@lru_cache(maxsize=1024)
def _gives(have: tuple[tuple[str, int], ...], n: int) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every payable multiset of ``n`` of the held resources, as (resource, count) items."""
    held = dict(have)
    out = []
    for combo in combinations_with_replacement(sorted(held), n):
        give = _bag(combo)
        if all(held[r] >= c for r, c in give.items()):
            out.append(tuple(give.items()))
    return tuple(out)


def trade(s, seat: int, cmd: dict, rng, emit) -> None:
    give, get = cmd["give"], cmd["get"]
    n = trade_size(s)
    require(sum(give.values()) == n, "bad_trade", "MK-TRADE-1", f"a trade returns exactly {n} resources")
    require(s["supply"][get] > 0, "supply_empty", "MK-AMB-4", f"the supply holds no {get}")
    paid = plan_payment(s, seat, give, "MK-TRADE-1", cmd.get("sources"))
    emit(event("Traded", seat=seat, paid=paid, gained={get: 1}))


def workshop_uses(s, seat: int) -> list[dict]:
    """Every workshop use available now (MK-WS-3..8)."""
    ws = s["turn"]["ws"]
    have = spendable(s, seat)
    if ws is None:
        spaces = [sp for sp, _n in terrain.accessible_workshops(s, seat)]
    elif ws["left"] > 0:
        spaces = [ws["space"]]
    else:
        return []
    out = []
    for sp in spaces:
        kind = terrain.workshop_at(s, sp)
        pos = [int(x) for x in sp.split(",")]
        out.extend({"type": "use_workshop", "space": pos, **use} for use in workshops.uses(kind, s, seat, have))
    return out


def use_workshop(s, seat: int, cmd: dict, rng, emit) -> None:
    sp = key(cmd["space"])
    kind = terrain.workshop_at(s, sp)
    require(kind is not None, "no_workshop", "MK-WS-1", "no workshop on that space")
    ws = s["turn"]["ws"]
    if ws is None:
        opened = dict(terrain.accessible_workshops(s, seat))
        require(sp in opened, "workshop_not_reached", "MK-WS-3", "your network opens none of its entrances")
        extra = 1 if "extra_workshop_use" in s["turn"]["flags"] else 0
        emit(event("WorkshopActivated", seat=seat, space=sp, kind=kind, uses=opened[sp] + extra))
    else:
        require(ws["space"] == sp, "one_workshop", "MK-WS-8", "one workshop activation per turn")
        require(ws["left"] > 0, "no_uses_left", "MK-WS-4", "no uses left in this activation")
    use = {k: cmd[k] for k in ("give", "get", "move") if k in cmd}
    require(workshops.is_use(kind, use, s, seat), "bad_use", "MK-WS-5", "not a use of this workshop")
    if "move" in use:
        mv = use["move"]
        roster = s["rosters"][seat]
        ok = (key(mv[:2]) in roster and mv[2] < len(roster[key(mv[:2])]["held"])
              and roster[key(mv[:2])]["held"][mv[2]])
        require(ok, "bad_use", "MK-WST-6", "move names [r, i, symbol] of a token on your troll")
        emit(event("WorkshopUsed", seat=seat, space=sp, move=mv))
        return
    require(all(s["supply"][r] >= n for r, n in use["get"].items()), "supply_empty", "MK-AMB-4",
            "the supply cannot cover that gain")
    clan_ok = False if kind == workshops.WILD_ONLY else None
    paid = plan_payment(s, seat, use["give"], "MK-WS-5", cmd.get("sources"), clan_ok)
    emit(event("WorkshopUsed", seat=seat, space=sp, paid=paid, gained=use["get"]))
