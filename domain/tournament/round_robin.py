"""Round-robin (TRN-RR-*): every pairing once at two seats; at 3+ seats,
tables that spread the meetings as evenly as the rounds allow."""
from __future__ import annotations

from domain.core import Drbg
from domain.tournament.config import Config
from domain.tournament.history import History
from domain.tournament.seating import choose_byes, seat_order
from domain.tournament.tables import partition, table_cost

STARTS = 8  # drawn starting orders per round; the swap search keeps the cheapest result (TRN-RR-2)


def pair(config: Config, number: int, rank: list[str], active: set[str], h: History, rng: Drbg) -> dict:
    """Round ``number`` (from 1). ``rank`` is every entrant by initial rank, withdrawn ones too,
    so the two-seat schedule never shifts when someone withdraws (TRN-WD-1)."""
    if config.table_size == 2:
        return _berger(number, rank, active)
    field = [e for e in rng.shuffled(rank) if e in active]
    byes = choose_byes(len(field) % config.table_size, field, h, rng)
    seated = [e for e in field if e not in byes]

    def cost(a: str, b: str) -> int:
        """Convex in the meetings: a third meeting costs more than two second ones."""
        return 10 ** h.met(a, b) - 1

    tries = [partition(rng.fork(f"start:{i}").shuffled(seated), config.table_size, cost) for i in range(STARTS)]
    tables = min(tries, key=lambda ts: sum(table_cost(t, cost) for t in ts))  # the first of the cheapest
    return {"tables": [{"seats": seat_order(t, h, rng)} for t in tables], "byes": byes}


def berger_round(number: int, n: int) -> list[tuple[int, int]]:
    """Pairs of positions (first seat, second seat) in round ``number`` of the circle method.

    ``n`` is even (an odd field adds a position that means "bye"). Position
    ``n-1`` stays put and the others turn one step a round; the fixed
    position's seat alternates by round, and every other pair takes the seat
    order that the circle's direction gives it, which balances first seats
    to within one over the cycle (TRN-RR-1).
    """
    r = (number - 1) % (n - 1)
    ring = [(r + i) % (n - 1) for i in range(n - 1)]
    pairs = [(n - 1, ring[0]) if r % 2 else (ring[0], n - 1)]
    for i in range(1, n // 2):
        pairs.append((ring[i], ring[n - 1 - i]))
    if (number - 1) // (n - 1) % 2:  # a second cycle swaps every seat order
        pairs = [(b, a) for a, b in pairs]
    return pairs


def _berger(number: int, rank: list[str], active: set[str]) -> dict:
    slots: list[str | None] = list(rank) + ([None] if len(rank) % 2 else [])
    tables, byes = [], []
    for a, b in berger_round(number, len(slots)):
        pa, pb = slots[a], slots[b]
        here = [p for p in (pa, pb) if p is not None and p in active]
        if len(here) == 2:
            tables.append({"seats": here})
        else:
            byes += here  # the opponent is the bye slot or has withdrawn
    return {"tables": tables, "byes": byes}

