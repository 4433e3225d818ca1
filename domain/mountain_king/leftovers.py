"""Leftover resource sets after the best 4-for-1 trades (MK-SCORE-4, MK-AMB-25, MK-AMB-33).

Choose, per type, how many sets ``s`` to finish with. A type either frees
``c - 3s`` tokens to give away or needs ``3s - c`` gained ones; every gained
token costs one trade of 4 freed tokens. A DP over the 7 types on the balance
``freed - 4 * gained`` finds the exact maximum without enumerating trades.

The trades are the usual ones (MK-TRADE-1), so they take only what the supply
holds (MK-AMB-4): :func:`plan_sets` caps the tokens gained of each type at the
supply's stock. That cap is exact: a best plan never both hands in and gains
one type (keeping the token instead needs no more trades), so the tokens a
player hands in can serve only later players (MK-AMB-33, applied in
``scoring.leftover_sets``). :func:`best_sets` is the count with no cap (an
unlimited supply); the bots' estimate uses it.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple


def best_sets(counts: dict[str, int], give: int = 4) -> int:
    """Most sets of 3 identical resources reachable by any trades of ``give``-for-1 from an
    unlimited supply: :func:`plan_sets`'s DP with every cap at the most tokens trades can gain
    (cached: judging a position asks it for the same holdings again and again)."""
    have = tuple(counts.values())
    return _plan(have, (sum(have) // give,) * len(have), give)[0]


class Plan(NamedTuple):
    """A player's final trades: the sets it scores, the tokens it takes from the supply
    (one per trade) and the tokens it hands in (``give`` per trade), by type."""
    sets: int
    gained: dict[str, int]
    handed_in: dict[str, int]

    @property
    def trades(self) -> int:
        return sum(self.gained.values())


def plan_sets(counts: dict[str, int], supply: dict[str, int] | None = None, give: int = 4) -> Plan:
    """The player's best final trades when the supply holds ``supply`` (None: unlimited).

    The most sets; of plans with the most sets, the fewest trades; of those, the one
    with the most sets in the first type of ``counts``' order, then the next, and so on;
    the tokens handed in are the spare ones (those in no set), taken in that order too.
    The sets equal :func:`best_sets` when nothing is capped."""
    names = tuple(counts)
    have = tuple(counts[r] for r in names)
    max_gain = sum(have) // give
    caps = tuple(max_gain if supply is None else max(0, min(supply.get(r, 0), max_gain)) for r in names)
    sets, gained, handed = _plan(have, caps, give)
    return Plan(sets, {r: n for r, n in zip(names, gained) if n}, {r: n for r, n in zip(names, handed) if n})


@lru_cache(maxsize=8192)
def _plan(counts: tuple[int, ...], caps: tuple[int, ...], give: int
          ) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """The DP of :func:`plan_sets`: per type, the sets ``s`` with ``3s - c`` gained tokens at most
    the cap; the balance ``freed - give * gained`` must end at 0 or more. Values are
    (sets, -gained), compared as tuples; a suffix table makes the plan easy to read back."""
    n = len(counts)
    rest = [sum(counts[i:]) for i in range(n + 1)]  # the most tokens types i.. can still free
    options = []  # per type: (s, balance change, gained), most sets first
    for c, cap in zip(counts, caps):
        opts = []
        for s in range((c + cap) // 3, -1, -1):
            g = max(0, 3 * s - c)
            opts.append((s, c - 3 * s if g == 0 else -give * g, g))
        options.append(opts)
    memo: dict[tuple[int, int], tuple[int, int] | None] = {}

    def suffix(i: int, balance: int) -> tuple[int, int] | None:
        """The best (sets, -gained) of types i.. from ``balance``; None if none can end at 0 or more."""
        if balance + rest[i] < 0:
            return None
        if i == n:
            return (0, 0)
        k = (i, balance)
        if k not in memo:
            best = None
            for s, delta, g in options[i]:
                r = suffix(i + 1, balance + delta)
                if r is not None and (best is None or (r[0] + s, r[1] - g) > best):
                    best = (r[0] + s, r[1] - g)
            memo[k] = best
        return memo[k]

    target = suffix(0, 0)
    assert target is not None  # no trades at all is always a plan
    chosen, balance = [], 0
    for i in range(n):
        for s, delta, g in options[i]:  # most sets first: the first type's sets as many as can be
            r = suffix(i + 1, balance + delta)
            if r is not None and (r[0] + s, r[1] - g) == target:
                chosen.append((s, g))
                balance += delta
                target = r
                break
    gained = tuple(g for _s, g in chosen)
    due = give * sum(gained)
    handed = []
    for c, (s, g) in zip(counts, chosen):
        out = min(due, c - 3 * s) if g == 0 else 0
        handed.append(out)
        due -= out
    assert due == 0
    return sum(s for s, _g in chosen), gained, tuple(handed)
