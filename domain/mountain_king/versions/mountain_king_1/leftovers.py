"""Leftover resource sets after the best 4-for-1 trades (MK-SCORE-4, MK-AMB-25).

Choose, per type, how many sets ``s`` to finish with. A type either frees
``c - 3s`` tokens to give away or needs ``3s - c`` gained ones; every gained
token costs one trade of 4 freed tokens. A DP over the 7 types on the balance
``freed - 4 * gained`` finds the exact maximum without enumerating trades.
"""
from __future__ import annotations

from functools import lru_cache


def best_sets(counts: dict[str, int], give: int = 4) -> int:
    """Most sets of 3 identical resources reachable by any trades of ``give``-for-1."""
    return _best_sets(tuple(counts.values()), give)


@lru_cache(maxsize=4096)
def _best_sets(counts: tuple[int, ...], give: int) -> int:
    """The DP of :func:`best_sets` (judging a position asks it for the same holdings again and again)."""
    total = sum(counts)
    max_gain = total // give
    best = {0: 0}  # balance -> most sets so far
    for c in counts:
        step: dict[int, int] = {}
        for balance, sets in best.items():
            for s in range((c + max_gain) // 3 + 1):
                delta = c - 3 * s if 3 * s <= c else -give * (3 * s - c)
                nb = balance + delta
                if nb < -give * max_gain:
                    continue
                if step.get(nb, -1) < sets + s:
                    step[nb] = sets + s
        best = step
    return max(sets for balance, sets in best.items() if balance >= 0)
