"""Splitting a field into tables of 3+ seats: a greedy fill improved by swaps
(TRN-RR-2, TRN-SW-2), from many starts.

Finding the partition that minimises repeat meetings is a hard combinatorial
problem (the social golfer problem); a greedy fill from the top, then member
swaps between tables while any swap lowers the cost, is good in practice and
bounded: every accepted swap lowers an integer cost that cannot go below 0.
One fill finds a local optimum; :func:`search` restarts it from drawn orders
(a multi-start local search) and keeps the cheapest, the given order's own
fill among them, so it never does worse than a single fill.
"""
from __future__ import annotations

from itertools import combinations
from typing import Callable

from domain.core import Drbg

PairCost = Callable[[str, str], int]


def partition(order: list[str], size: int, pair_cost: PairCost) -> list[list[str]]:
    """Tables of ``size`` from ``order`` (``len(order)`` a multiple of ``size``).

    Each table starts with the first unseated entrant and takes, one by one,
    the entrant that adds the least cost (the earliest in ``order`` on a tie).
    """
    pool, tables = list(order), []
    while pool:
        table = [pool.pop(0)]
        while len(table) < size:
            best = min(pool, key=lambda c: (sum(pair_cost(m, c) for m in table), pool.index(c)))
            pool.remove(best)
            table.append(best)
        tables.append(table)
    _improve(tables, pair_cost)
    return tables


def search(order: list[str], size: int, pair_cost: PairCost, rng: Drbg,
           repeat: PairCost | None = None) -> list[list[str]]:
    """The cheapest of :func:`partition` from ``order`` and from drawn orders (TRN-SW-2);
    with ``repeat`` (how often two met), the one with the fewest repeat meetings first.

    The number of starts shrinks with the field so a round stays quick: 40 up
    to 30 entrants, about 1,200 / n above. Draws come from ``rng``'s forks
    (``start:i``), so the tables are a function of the log (TRN-SEED-1); the
    first of the cheapest wins a tie, the given order's fill first.
    """
    starts = max(2, min(40, 1200 // max(len(order), 1)))
    tries = [partition(order, size, pair_cost)]
    tries += [partition(rng.fork(f"start:{i}").shuffled(order), size, pair_cost) for i in range(starts)]
    return min(tries, key=lambda ts: (sum(table_cost(t, repeat) for t in ts) if repeat else 0,
                                      sum(table_cost(t, pair_cost) for t in ts)))


def table_cost(table: list[str], pair_cost: PairCost) -> int:
    return sum(pair_cost(a, b) for a, b in combinations(table, 2))


def _improve(tables: list[list[str]], pair_cost: PairCost) -> None:
    """Swap members between two tables while a swap lowers the summed cost."""
    improved = True
    while improved:
        improved = False
        for ti, tj in combinations(range(len(tables)), 2):
            a_tab, b_tab = tables[ti], tables[tj]
            base = table_cost(a_tab, pair_cost) + table_cost(b_tab, pair_cost)
            for i in range(len(a_tab)):
                for j in range(len(b_tab)):
                    a2 = a_tab[:i] + [b_tab[j]] + a_tab[i + 1:]
                    b2 = b_tab[:j] + [a_tab[i]] + b_tab[j + 1:]
                    if table_cost(a2, pair_cost) + table_cost(b2, pair_cost) < base:
                        tables[ti], tables[tj] = a_tab, b_tab = a2, b2
                        base = table_cost(a2, pair_cost) + table_cost(b2, pair_cost)
                        improved = True
