"""DW-AMB-14: a player orders their own actions within a resolution step.

Order matters only when one of a player's actions pays for another of the same
step (Iron Vein before Alloy Steel) or two compete for the same holdings (two
forges wanting the same Steel). So the engine asks a seat only when the orders
it may choose lead to different holdings; otherwise the actions run in reading
order. Normal workers always act before extra workers (DW-AMB-13), so an order
is a permutation of the normal workers followed by one of the extras. The solo
automaton is never asked: it keeps reading order (DW-AMB-39).
"""
from __future__ import annotations

from itertools import permutations, product

from domain.dwarf.versions.dwarf_5.actions import net, payable_times, times_for
from domain.dwarf.versions.dwarf_5.grid import places
from domain.dwarf.versions.dwarf_5.state import top_effect


def pending(s: dict, player: int, step: str) -> list[str]:
    """The player's workers still to act in ``step`` ("mine" or "forge"): normal
    workers, then extras (DW-AMB-13), each in reading order; workers that acted
    already (DW-RES-7, or earlier in this step) are done."""
    mine = [(w["extra"], where) for where in places(len(s["areas"]))
            if (w := s["workers"].get(where)) and w["player"] == player and not w["done"]
            and top_effect(s, where).type == step]
    return [where for _, where in sorted(mine, key=lambda x: x[0])]


def orders(s: dict, player: int, todo: list[str]) -> list[list[str]]:
    """Every order the player may choose for ``todo``; the first is reading order."""
    normal = [w for w in todo if not s["workers"][w]["extra"]]
    extra = [w for w in todo if s["workers"][w]["extra"]]
    return [list(a) + list(b) for a, b in product(permutations(normal), permutations(extra))]


def outcome(s: dict, player: int, order: list[str]) -> tuple[dict, int]:
    """The player's holdings after carrying out ``order``, and how many actions paid
    (each all or nothing, DW-RES-6, DW-AMB-15)."""
    held = dict(s["players"][player])
    done = 0
    for where in order:
        effect = top_effect(s, where)
        n = payable_times({"players": {player: held}}, player, effect, times_for(s, player, effect.type))
        for res, amount in net(effect, n).items():
            held[res] += amount
        done += n > 0
    return held, done


def matters(s: dict, player: int, todo: list[str]) -> bool:
    """True when two of the player's orders leave different holdings."""
    results = {tuple(sorted(outcome(s, player, o)[0].items())) for o in orders(s, player, todo)}
    return len(results) > 1


def best(s: dict, player: int, todo: list[str]) -> list[str]:
    """The order that carries out the most actions, the first such in ``orders``:
    what bots choose unless their policy weighs the holdings itself."""
    return max(orders(s, player, todo), key=lambda o: outcome(s, player, o)[1])
