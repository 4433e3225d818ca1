"""A tournament's settings, validated once (TRN-CFG-*, TRN-PTS-*).

Match points are kept as ``Fraction`` so shared places (a three-way tie over
places 1-3) stay exact and every machine sorts the standings alike.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from domain.core import Illegal, require

FORMATS = ("round-robin", "swiss", "knockout")
PAIRING = 4
"""The pairing rules new tournaments are paired by. A tournament keeps the version it was created
with, so every bundle ever exported re-derives its rounds (TRN-SEED-1):
1. as first shipped: multi-seat Swiss tables from one greedy fill plus swaps; a knockout table
   won by an entrant who had withdrawn sent that entrant on (and could crown it);
2. multi-seat Swiss tables from the best of many drawn starts (``tables.search``), never worse
   than version 1's fill for the same round; a withdrawn entrant never advances in a knockout:
   the best-placed entrant still in advances from its table (TRN-KO-4);
3. tie-breaks value unplayed rounds by FIDE's virtual opponent (TRN-TB-4): a forfeit, walkover
   or bye of the entrant counts as a game against an opponent who drew every later round, and
   every round an opponent did not play counts as a draw in that opponent's score; a
   knockout table whose game was aborted advances nobody until the director decides it
   (TRN-DIR-2);
4. a table that was not played (a forfeit either way, a walkover, a double forfeit) is not a
   meeting: its entrants may be paired again, as FIDE's Swiss rules allow (TRN-DIR-1)."""


@dataclass(frozen=True)
class Config:
    format: str
    table_size: int
    min_table: int  # the game's fewest players: a knockout's last table may be this small (TRN-KO-3)
    rounds: int | None
    points: tuple[Fraction, ...]
    bye_points: Fraction
    pairing: int = 1  # the pairing rules version (PAIRING); a log without one was paired by version 1

    @classmethod
    def parse(cls, data: dict[str, Any], *, min_players: int, max_players: int) -> "Config":
        """Validate ``{format, table_size, rounds?, points?, bye_points?}`` against a game's player range."""
        fmt = data.get("format")
        require(fmt in FORMATS, "unknown_format", "TRN-CFG-1", f"format is one of {list(FORMATS)}, not {fmt!r}")
        size = data.get("table_size", min_players if min_players > 2 else 2)
        require(is_int(size) and min_players <= size <= max_players and size >= 2, "bad_table_size", "TRN-CFG-1",
                f"table_size is a whole number of seats the game allows ({max(2, min_players)}-{max_players})")
        rounds = data.get("rounds")
        require(rounds is None or (is_int(rounds) and 1 <= rounds <= 100), "bad_rounds", "TRN-SW-3",
                "rounds is a whole number from 1 to 100 (or left out for the format's default)")
        require(rounds is None or fmt != "knockout", "bad_rounds", "TRN-KO-3",
                "a knockout plays until one entrant remains; leave rounds out")
        raw = data.get("points", [size - place for place in range(1, size + 1)])
        require(isinstance(raw, list) and len(raw) == size and all(_is_number(p) and p >= 0 for p in raw)
                and all(a >= b for a, b in zip(raw, raw[1:])), "bad_points", "TRN-PTS-1",
                f"points lists one non-negative number per place ({size}), never rising")
        points = tuple(Fraction(str(p)) for p in raw)
        bye = data.get("bye_points", raw[0])
        require(_is_number(bye) and bye >= 0, "bad_points", "TRN-PTS-2", "bye_points is a non-negative number")
        return cls(fmt, size, max(2, min_players), rounds, points, Fraction(str(bye)), PAIRING)

    def to_dict(self) -> dict:
        return {"format": self.format, "table_size": self.table_size, "min_table": self.min_table,
                "rounds": self.rounds, "points": [_number(p) for p in self.points],
                "bye_points": _number(self.bye_points), **({"pairing": self.pairing} if self.pairing > 1 else {})}

    @classmethod
    def from_dict(cls, data: dict) -> "Config":
        return cls(data["format"], data["table_size"], data["min_table"], data["rounds"],
                   tuple(Fraction(str(p)) for p in data["points"]), Fraction(str(data["bye_points"])),
                   data.get("pairing", 1))

    def check_size(self, entrants: int) -> None:
        """Refuse a field smaller than one table (TRN-CFG-2)."""
        require(entrants >= self.table_size, "too_few_entrants", "TRN-CFG-2",
                f"a {self.format} at {self.table_size}-seat tables needs at least {self.table_size} entrants, "
                f"not {entrants}")

    def place_points(self, places: list[int | None]) -> list[Fraction]:
        """Points for each place at one table; shared places share what they cover (TRN-PTS-1).

        ``None`` places (an aborted game) score nothing (TRN-PTS-3).
        """
        out = []
        for place in places:
            if place is None:
                out.append(Fraction(0))
                continue
            tied = sum(1 for p in places if p == place)
            covered = self.points[place - 1: place - 1 + tied]
            out.append(sum(covered, Fraction(0)) / tied)
        return out

    def default_rounds(self, entrants: int) -> int | None:
        """Rounds the format plays for a field (None: a knockout runs until one remains; 0: a field
        of fewer than two entrants, which no round can pair, as while registration is open)."""
        k, n = self.table_size, entrants
        if self.format == "knockout":
            return None
        if n < 2:
            return 0
        if self.rounds is not None:
            return self.rounds
        if self.format == "swiss":
            return max(1, math.ceil(math.log2(max(n, 2))))  # TRN-SW-3
        if k == 2:
            return n - 1 if n % 2 == 0 else n  # TRN-RR-1
        return max(1, math.ceil((n - 1) / (k - 1)))  # TRN-RR-2

    def planned_games(self, entrants: int) -> int:
        """At most how many games the format plays for a field: the work a tournament asks of the
        server, which the server caps. A round seats everyone at tables of ``table_size`` (the last
        may be smaller); a knockout's every table sends at least one entrant home."""
        if entrants < 2:
            return 0
        if self.format == "knockout":
            return entrants - 1
        return self.default_rounds(entrants) * math.ceil(entrants / self.table_size)


def is_int(v: Any) -> bool:
    """An int that is not a bool (JSON's true is not a table size or a round number)."""
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool)) and math.isfinite(v)


def _number(f: Fraction) -> int | float:
    """A Fraction as JSON: whole numbers stay integers."""
    return int(f) if f.denominator == 1 else float(f)
