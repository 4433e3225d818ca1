"""Standings: match points, then tie-breaks, then shared places (TRN-STD-1, TRN-TB-*)."""
from __future__ import annotations

from fractions import Fraction

from domain.tournament.config import Config, _number
from domain.tournament.history import History, initial_rank, read, unplayed
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
    if config.pairing >= 3 and config.format != "knockout":
        values = _tiebreaks_v3(config, [e["id"] for e in entrants], rounds)
    else:
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


def _tiebreaks_v3(config: Config, ids: list[str], rounds: list[dict]) -> dict[str, dict[str, Fraction]]:
    """Pairing version 3 (TRN-TB-4): the tie-breaks of TRN-TB-1 and TRN-TB-2 with FIDE's
    rule for unplayed rounds. An opponent's score counts every round it did not play (a bye,
    a forfeit either way, a walkover, a round after it withdrew) as a draw; at two seats, an
    entrant's own unplayed round (a bye, a forfeit, a walkover, a double forfeit) is a game
    against a virtual opponent with the entrant's points before that round, the opposite
    result in it and draws after it."""
    top, draw = config.points[0], sum(config.points, Fraction(0)) / config.table_size
    swing = config.points[0] + config.points[-1]  # the opposite of p points at two seats: swing - p
    rounds_so_far = len(rounds)
    points: dict[str, list[Fraction | None]] = {eid: [None] * rounds_so_far for eid in ids}  # None: not played
    game_score = {eid: 0 for eid in ids}
    played: dict[str, list[tuple[str, Fraction]]] = {eid: [] for eid in ids}  # (opponent, my points)
    own: dict[str, list[tuple[int, Fraction]]] = {eid: [] for eid in ids}  # (round index, my points) unplayed
    pending: set[tuple[str, int]] = set()
    for r, rnd in enumerate(rounds):
        for eid in rnd["byes"]:
            own[eid].append((r, config.bye_points))
        for table in rnd["tables"]:
            seats, result = table["seats"], table.get("result")
            if result is None:
                pending.update((eid, r) for eid in seats)
                continue
            pts = config.place_points([result["places"].get(e) for e in seats])
            for eid, p in zip(seats, pts):
                game_score[eid] += int(result["scores"].get(eid, 0))
                if unplayed(result):
                    own[eid].append((r, p))
                else:
                    points[eid][r] = p
                    played[eid] += [(o, p) for o in seats if o != eid]
    adjusted = {eid: sum((draw if p is None else p for r, p in enumerate(points[eid]) if (eid, r) not in pending),
                         Fraction(0)) for eid in ids}
    out = {}
    for eid in ids:
        line = {"game_score": Fraction(game_score[eid])}
        if config.table_size == 2:
            before = [Fraction(0)] * (rounds_so_far + 1)  # my points before round r
            scored = {r: p for r, p in enumerate(points[eid]) if p is not None} | dict(own[eid])
            for r in range(rounds_so_far):
                before[r + 1] = before[r] + scored.get(r, Fraction(0))
            virtual = [(before[r] + (swing - p) + draw * (rounds_so_far - 1 - r), p) for r, p in own[eid]]
            opponents = [(adjusted[o], mine) for o, mine in played[eid]] + virtual
            line["buchholz"] = sum((score for score, _ in opponents), Fraction(0))
            line["sonneborn_berger"] = sum((score * mine / (top or Fraction(1)) for score, mine in opponents),
                                           Fraction(0))
        else:
            met = [adjusted[o] for o, _ in played[eid]]
            line["opponents_average"] = sum(met, Fraction(0)) / len(met) if met else Fraction(0)
        out[eid] = line
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
            winner = table_winner(table, initial_rank(entrants), withdrawn, pairing=config.pairing)
            if winner is not None:
                h.points[winner] += 1
    return h
