"""Winning (section 4) and the score breakdown.

PP = permanent points by category + 1 per outpost on the board (IND-PP-6).
The winner check runs at end-of-round step E2 (IND-ROUND-12); a monster that
meets its card's victory condition wins first and every player loses
(IND-WIN-7, IND-AMB-44).
"""
from __future__ import annotations

from dataclasses import replace

from domain.core import Outcome, Scoreboard, SeatScore, Standing, seat_of
from domain.kit import platform

from . import content
from . import state as st
from .state import State

CATEGORIES = ("outposts", "commanders", "spirits", "levels", "strategy")


def threshold(s: State) -> int:
    """10 PP, or 7 in the first-game variant (IND-WIN-8, IND-AMB-45)."""
    return 7 if s["options"]["first_game"] else 10


def breakdown(s: State, seat: int) -> dict[str, int]:
    out = {c: s["seats"][seat]["pp"].get(c, 0) for c in CATEGORIES}
    out["outposts"] = st.outposts_of(s, seat)
    return out


def monster_victory(s: State) -> str | None:
    """The first primary monster (home order) whose victory count is reached."""
    for name in st.primaries(s):
        m = s["monsters"][name]
        (what, need), = content.monsters()[name]["victory"].items()
        if m["counts"].get(what, 0) >= need:
            return name
    return None


def check_winner(s: State) -> dict | None:
    """E2: ``{"winner": participant | None, "reason"}`` when the game ends now, else None.

    Points above the threshold count as tied (IND-WIN-5); ties go to the first in
    the current play order (IND-WIN-4); the game always ends after round 10 (IND-WIN-6).
    Solo: the player wins with the threshold at any E2 and loses after round 10 (IND-SOLO-10)."""
    monster = monster_victory(s)
    if monster is not None:
        return {"winner": f"monster-{monster}", "reason": "monster_victory"}
    cap = threshold(s)
    order = st.play_order(s)
    qualified = [p for p in order if st.pp(s, p) >= cap]
    if qualified:
        return {"winner": f"seat:{qualified[0]}", "reason": "primacy"}
    if s["round"] >= 10:
        if s["solo"]:
            return {"winner": None, "reason": "round_limit"}
        best = max(st.pp(s, p) for p in order)
        return {"winner": f"seat:{next(p for p in order if st.pp(s, p) == best)}", "reason": "round_limit"}
    return None


def monster_line(s: State, monster: str, winner: str | None) -> Standing:
    """A primary monster's progress toward its victory (IND-WIN-7). It is ranked only when it
    won; unranked otherwise, after a seat concedes too (``conceded``)."""
    (what, _need), = content.monsters()[monster]["victory"].items()
    have = s["monsters"][monster]["counts"].get(what, 0)
    return Standing(f"actor:monster-{monster}", have, {what: have}, 1 if winner == f"monster-{monster}" else None)


def scoreboard(s: State) -> Scoreboard:
    if not s.get("seats"):
        return Scoreboard(final=False)
    final = s["phase"] == "over"
    order = st.play_order(s)
    winner = s.get("result", {}).get("winner") if final else None
    cap = threshold(s)
    # Rank: the winner first, then capped PP (IND-WIN-5), then play order (IND-WIN-4).
    key = {p: (f"seat:{p}" == winner, min(st.pp(s, p), cap), -order.index(p)) for p in range(s["n"])}
    ranked = sorted(range(s["n"]), key=lambda p: key[p], reverse=True)
    monster_won = bool(winner and winner.startswith("monster-"))
    nobody = final and (winner is None or seat_of(winner) is None)   # every player lost: nobody places 1st
    seats = [SeatScore(p, st.pp(s, p), breakdown(s, p), i + 1 + (1 if nobody else 0))
             for i, p in enumerate(ranked)]
    others = [monster_line(s, m, winner) for m in st.primaries(s)]
    if not final:
        return Scoreboard(final=False, seats=seats, others=others)
    if monster_won:
        outcome = Outcome("no_player_wins", (f"actor:{winner}",))
    elif winner is None:
        outcome = Outcome("no_player_wins")
    else:
        outcome = Outcome("win", (winner,))
    return Scoreboard(final=True, seats=seats, others=others, outcome=outcome)


def conceded(s: State, board: Scoreboard) -> Scoreboard:
    """The scores of a game a platform command ended (``domain.kit.platform``: a seat resigning,
    timing out or forfeiting places last, the others keep their order; an abort ranks nobody).

    Only the seats are placed: a monster places only by its victory (IND-WIN-7, «Si un monstruo
    completa sus condiciones de victoria, el monstruo gana»), which no concession is, so its line
    stays unranked. With no seat left (solo) every player has lost and nobody places first, as at
    the end of a solo game lost (IND-SOLO-10). Under ``indagar-6`` the monsters were ranked between
    the seats left and the conceder (a player resigning a two-player game read "#4 of 4"), and
    ahead of a solo player who resigned."""
    unranked = [o for o in board.others if o.place is None]
    out = platform.outcome_board(s, replace(board, others=[o for o in board.others if o.place is not None]))
    seats = out.seats
    if out.outcome == Outcome("no_player_wins"):                  # nobody left to place: solo
        seats = [replace(x, place=x.place + 1) for x in seats]
    return replace(out, seats=seats, others=out.others + unranked)
