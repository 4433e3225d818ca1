"""Knockout (TRN-KO-*): seeded tables, table winners advance, top seeds take the byes."""
from __future__ import annotations

from domain.core import require
from domain.tournament.config import Config
from domain.tournament.history import DECISIONS


def table_winner(table: dict, rank: list[str], withdrawn: frozenset[str] = frozenset(), *,
                 pairing: int = 1) -> str | None:
    """Who advances from a finished table: first place; a shared first goes to the
    better game score, then the better seed; an aborted game (no places)
    advances the better seed (TRN-KO-2). None while unfinished.

    ``withdrawn`` (pairing version 2): entrants who left the tournament never
    advance; the best-placed entrant still in does, by the same order, and
    nobody when everyone at the table has withdrawn (TRN-KO-4). From pairing
    version 3 an aborted game advances nobody: its table waits for the
    director's result (TRN-DIR-2)."""
    result = table.get("result")
    if not result or (pairing >= 3 and awaits_decision(result)):
        return None
    seats = [e for e in table["seats"] if e not in withdrawn]
    if not seats:
        return None
    places = {e: result["places"].get(e) for e in seats}
    best = min((p for p in places.values() if p is not None), default=None)
    firsts = [e for e in seats if best is not None and places[e] == best] or seats
    return min(firsts, key=lambda e: (-int(result["scores"].get(e, 0)), rank.index(e)))


def awaits_decision(result: dict) -> bool:
    """A knockout table's result that places nobody (an aborted game) and that no director decided."""
    return all(p is None for p in result["places"].values()) and result.get("outcome") not in DECISIONS


def remaining(rank: list[str], active: set[str], rounds: list[dict], *, pairing: int = 1) -> list[str]:
    """Entrants still in, by seed: everyone active, less those a finished table eliminated."""
    out = [e for e in rank if e in active]
    withdrawn = frozenset(rank) - frozenset(active) if pairing > 1 else frozenset()
    for rnd in rounds:
        for table in rnd["tables"]:
            winner = table_winner(table, rank, withdrawn, pairing=pairing)
            if winner is not None:
                out = [e for e in out if e not in table["seats"] or e == winner]
    return out


def pair(config: Config, field: list[str]) -> dict:
    """One knockout round over ``field`` (by seed, best first) (TRN-KO-1, TRN-KO-3)."""
    k = config.table_size
    if len(field) <= k:
        return {"tables": [{"seats": list(field)}], "byes": []}
    count = tables_for(len(field), k)
    byes, seated = field[:len(field) - count * k], field[len(field) - count * k:]
    tables: list[list[str]] = [[] for _ in range(count)]
    for i, e in enumerate(seated):  # snake: 1..t, t..1, 1..t, ... (for two seats: 1 v n, 2 v n-1)
        lap, j = divmod(i, count)
        tables[j if lap % 2 == 0 else count - 1 - j].append(e)
    return {"tables": [{"seats": t} for t in tables], "byes": byes}


def tables_for(n: int, k: int) -> int:
    """Tables of a round with ``n`` entrants left (more than ``k``): as in a
    bracket, just enough tables that the next field is a power of ``k``
    (then no more byes), or as many full tables as fit when that cannot be
    (TRN-KO-1)."""
    power = 1
    while power * k <= n:
        power *= k
    surplus = n - power
    if surplus and surplus % (k - 1) == 0:
        return surplus // (k - 1)
    return n // k


def check_field(config: Config, entrants: int) -> None:
    """Refuse a field whose knockout would reach a last table the game cannot seat (TRN-KO-3)."""
    n = entrants
    while n > config.table_size:
        t = tables_for(n, config.table_size)
        n -= t * (config.table_size - 1)
    require(n >= config.min_table, "knockout_cannot_finish", "TRN-KO-3",
            f"{entrants} entrants at {config.table_size}-seat tables leave {n} for the last table, fewer than "
            f"the game's {config.min_table}; choose a field that is a power of {config.table_size}, "
            f"or smaller tables")
