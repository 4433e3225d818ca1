"""Final scoring (DW-SCORE): majorities of Steel, Gold and Objects; ties broken by
Medals, then Iron, then Objects; still tied = shared victory (DW-AMB-21)."""
from __future__ import annotations

from domain.core import Scoreboard, SeatScore, Standing, seat_of

CATEGORIES = (("steel", "steel"), ("gold", "gold"), ("objects", "object"))  # (breakdown key, holding)
TIEBREAK = ("medal", "iron", "object")  # DW-SCORE-4


def majorities(players: list[dict]) -> list[dict]:
    """Per participant ``{steel, gold, objects}``: 1 for a strict majority over
    every other participant, else 0 (DW-SCORE-2, DW-AMB-20)."""
    out = [{key: 0 for key, _ in CATEGORIES} for _ in players]
    for key, res in CATEGORIES:
        amounts = [p[res] for p in players]
        best = max(amounts)
        if amounts.count(best) == 1:
            out[amounts.index(best)][key] = 1
    return out


def participant(s: dict, index: int) -> int | str:
    """The Scoreboard key: a seat number, or ``actor:automaton`` (DW-SOLO-1)."""
    pid = s["players"][index]["id"]
    seat = seat_of(pid)
    return pid if seat is None else seat


def scoreboard(s: dict) -> Scoreboard:
    """Live majority table while playing, the final ranking at the end. After
    Andvettr's instant win (DW-END-3) he alone is first, whatever the majorities."""
    final = s["phase"] == "over"
    table = majorities(s["players"])
    keys = [participant(s, i) for i in range(len(s["players"]))]
    tiebreak = {k: tuple(s["players"][i][r] for r in TIEBREAK) for i, k in enumerate(keys)}
    board = Scoreboard.rank(final, dict(zip(keys, table)), tiebreak)
    if s["ended"] != "automaton_medals":
        return board
    auto = keys[s["automaton"]]
    return Scoreboard(final=True,
                      seats=[SeatScore(x.seat, x.total, x.breakdown, 2) for x in board.seats],
                      others=[Standing(x.participant, x.total, x.breakdown, 1 if x.participant == auto else 2)
                              for x in board.others])
