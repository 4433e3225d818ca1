"""Seat order at a table and the choice of byes: the two fairness rules every
format shares (TRN-SEAT-1, TRN-BYE-1)."""
from __future__ import annotations

from domain.core import Drbg
from domain.tournament.history import History


def seat_order(members: list[str], h: History, rng: Drbg) -> list[str]:
    """Whoever sat latest so far sits first; a draw orders equal histories (TRN-SEAT-1).

    The draw shuffles first and the sort is stable, so the draw only decides
    between entrants whose seat history is equal.
    """
    return sorted(rng.shuffled(sorted(members)), key=lambda e: -h.seat_sum[e])


def choose_byes(count: int, order: list[str], h: History, rng: Drbg) -> list[str]:
    """``count`` byes from ``order`` (the active entrants): fewest byes so far
    first, among them the fewest match points; a draw between the entrants
    equal on both (TRN-BYE-1)."""
    if count <= 0:
        return []
    chosen: list[str] = []
    pool = list(order)
    while len(chosen) < count:
        fewest = min(h.byes[e] for e in pool)
        lowest = min(h.points[e] for e in pool if h.byes[e] == fewest)
        equals = sorted((e for e in pool if h.byes[e] == fewest and h.points[e] == lowest), key=order.index)
        pick = rng.choice(equals)
        chosen.append(pick)
        pool.remove(pick)
    return chosen
