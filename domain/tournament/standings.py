"""Standings: match points, then tie-breaks, then shared places (TRN-STD-1, TRN-TB-*)."""
from __future__ import annotations

from fractions import Fraction

from domain.tournament.config import Config, _number
from domain.tournament.history import History, initial_rank, read
from domain.tournament.knockout import table_winner


def tiebreak_names(config: Config) -> tuple[str, ...]:
    if config.format == "knockout":
        return ("last_place", "game_score")  # TRN-KO-3
    if config.table_size == 2:
        return ("buchholz", "sonneborn_berger", "game_score")  # TRN-TB-1
    return ("opponents_average", "game_score")  # TRN-TB-2


def standings(config: Config, entrants: list[dict], rounds: list[dict]) -> list[dict]:
    """``[{place, entrant, points, tiebreaks: {name: value}, games, byes, withdrawn}]``, best first.

    Entrants equal on points and every tie-break share a place; their lines
    are listed in initial rank order (TRN-RANK-1).
    """
    h = read(config, entrants, rounds)
    names = tiebreak_names(config)
    values = {e["id"]: _tiebreaks(config, h, e["id"], rounds) for e in entrants}
    if config.format == "knockout":
        h = _advancement(config, entrants, rounds)
    rank = {eid: i for i, eid in enumerate(initial_rank(entrants))}
    key = {eid: (h.points[eid], *(_sortable(n, values[eid][n]) for n in names)) for eid in rank}
    order = sorted(rank, key=lambda eid: (tuple(-x for x in key[eid]), rank[eid]))
    withdrawn = {e["id"] for e in entrants if e.get("withdrawn")}
    played = {e["id"]: 0 for e in entrants}
    for table, _pts in h.games:
        for eid in table["seats"]:
            played[eid] += 1
    out, place = [], 0
    for pos, eid in enumerate(order):
        if not pos or key[eid] != key[order[pos - 1]]:
            place = pos + 1
        out.append({"place": place, "entrant": eid, "points": _number(h.points[eid]),
                    "tiebreaks": {n: _number(values[eid][n]) for n in names}, "games": played[eid],
                    "byes": h.byes[eid], "withdrawn": eid in withdrawn})
    return out


def _sortable(name: str, value: Fraction) -> Fraction:
    """Every key sorts high-first; a place sorts low-first, so it is negated."""
    return -value if name == "last_place" else value


def _tiebreaks(config: Config, h: History, eid: str, rounds: list[dict]) -> dict[str, Fraction]:
    opponents: list[tuple[str, Fraction]] = []  # (opponent, my points in that game)
    for table, pts in h.games:
        if eid in table["seats"]:
            mine = pts[table["seats"].index(eid)]
            opponents += [(o, mine) for o in table["seats"] if o != eid]
    out = {"game_score": Fraction(h.game_score[eid])}
    if config.format == "knockout":
        out["last_place"] = Fraction(_last_place(eid, rounds, config.table_size + 1))
    elif config.table_size == 2:
        top = config.points[0] or Fraction(1)
        out["buchholz"] = sum((h.points[o] for o, _ in opponents), Fraction(0))
        out["sonneborn_berger"] = sum((h.points[o] * mine / top for o, mine in opponents), Fraction(0))
    else:
        out["opponents_average"] = (sum((h.points[o] for o, _ in opponents), Fraction(0)) / len(opponents)
                                    if opponents else Fraction(0))
    return out


def _last_place(eid: str, rounds: list[dict], none: int) -> int:
    """The entrant's place in the last finished table it sat at (``none``, worse than any, if none)."""
    place = none
    for rnd in rounds:
        for table in rnd["tables"]:
            if eid in table["seats"] and table.get("result"):
                place = table["result"]["places"].get(eid) or none  # an aborted table places nobody
    return place


def _advancement(config: Config, entrants: list[dict], rounds: list[dict]) -> History:
    """A knockout's points are rounds survived: a bye or a table won (TRN-KO-2, TRN-KO-3)."""
    h = read(config, entrants, [])
    h.games = read(config, entrants, rounds).games
    withdrawn = frozenset(e["id"] for e in entrants if e.get("withdrawn")) if config.pairing > 1 else frozenset()
    for rnd in rounds:
        for eid in rnd["byes"]:
            h.points[eid] += 1
            h.byes[eid] += 1
        for table in rnd["tables"]:
            winner = table_winner(table, initial_rank(entrants), withdrawn)
            if winner is not None:
                h.points[winner] += 1
    return h
