"""What past rounds say about each entrant: points, meetings, seats, byes.

Every format and the standings read the same facts, computed here once from
the rounds' plain JSON (see the package docstring for its shape).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

from domain.tournament.config import Config


DECISIONS = ("forfeit", "double_forfeit", "walkover", "adjudicated")
"""A director's results, decided (TRN-DIR-1) or corrected (TRN-DIR-3): a table's ``result["outcome"]``
names its kind."""
UNPLAYED = frozenset({"forfeit", "double_forfeit", "walkover"})
"""A director's results of games that were not played, decided or corrected alike (tie-breaks:
TRN-TB-4); an adjudicated game was."""


def unplayed(result: dict | None) -> bool:
    return bool(result) and result.get("outcome") in UNPLAYED


@dataclass
class History:
    points: dict[str, Fraction] = field(default_factory=dict)
    game_score: dict[str, int] = field(default_factory=dict)
    meetings: Counter = field(default_factory=Counter)  # frozenset({a, b}) -> times at one table
    seat_sum: dict[str, Fraction] = field(default_factory=dict)  # past seat positions minus the table middle
    byes: Counter = field(default_factory=Counter)
    games: list[tuple[dict, list[Fraction]]] = field(default_factory=list)  # (table, points per seat)

    def met(self, a: str, b: str) -> int:
        return self.meetings[frozenset((a, b))]


def read(config: Config, entrants: list[dict], rounds: list[dict]) -> History:
    """Fold the rounds (finished tables only add points) into a History (TRN-PTS-*)."""
    h = History()
    for e in entrants:
        h.points[e["id"]] = Fraction(0)
        h.game_score[e["id"]] = 0
        h.seat_sum[e["id"]] = Fraction(0)
    for rnd in rounds:
        for entrant in rnd["byes"]:
            h.byes[entrant] += 1
            h.points[entrant] += config.bye_points
        for table in rnd["tables"]:
            seats = table["seats"]
            middle = Fraction(len(seats) - 1, 2)
            for pos, entrant in enumerate(seats):
                h.seat_sum[entrant] += pos - middle
            result = table.get("result")
            if config.pairing < 4 or not unplayed(result):  # an unplayed table is no meeting (TRN-DIR-1)
                for a, b in combinations(seats, 2):
                    h.meetings[frozenset((a, b))] += 1
            if result is None:
                continue
            pts = config.place_points([result["places"].get(e) for e in seats])
            for entrant, p in zip(seats, pts):
                h.points[entrant] += p
                h.game_score[entrant] += int(result["scores"].get(entrant, 0))
            h.games.append((table, pts))
    return h


def initial_rank(entrants: list[dict]) -> list[str]:
    """Rated entrants by rating, high first; then the unrated (rating null); ties by
    registration order (TRN-RANK-1). Logs that recorded 0.0 for the unrated rank as before."""
    order = {e["id"]: i for i, e in enumerate(entrants)}

    def key(e: dict) -> tuple[bool, float, int]:
        unrated = e.get("rating") is None
        return unrated, 0.0 if unrated else -float(e["rating"]), order[e["id"]]

    return [e["id"] for e in sorted(entrants, key=key)]


def active(entrants: list[dict]) -> list[dict]:
    """Entrants still paired (TRN-WD-1)."""
    return [e for e in entrants if not e.get("withdrawn")]
