"""What platform commands mean by default, and the events that record them.

``PLATFORM_COMMANDS`` (``domain.core``) are issued by the platform, not chosen
under a game's rules: a seat's ``resign``, a clock's ``timeout``, a
``forfeit``, an admin's ``abort``. They are recorded in the envelope like a
seat's command and re-run by ``verify`` through ``Game.decide_platform``.

The default (``BaseGame.decide_platform``; any game may override it):

- ``resign`` / ``timeout`` / ``forfeit`` of seat *s*: ``SeatConceded {seat, reason}``.
  The game ends at once. Seat *s* places last; every other participant keeps
  its order of the game's scoreboard at that moment (places renumbered 1, 1, 3...).
  With no other participant (a solo game), the outcome is ``no_player_wins``.
- ``abort`` (no seat): ``GameAborted {}``. The game ends with outcome ``aborted``
  and no winner; the scoreboard keeps its lines for the record.

Both events are folded into ``state["platform"]`` by every kit game's evolve.
"""
from __future__ import annotations

from dataclasses import replace

from domain.core import Illegal, Outcome, Scoreboard, SeatScore, Standing, event, seat_id

CONCEDE = ("resign", "timeout", "forfeit")


def _platform(state: dict) -> dict:
    return state.setdefault("platform", {"conceded": [], "aborted": False})


def _seat_conceded(state: dict, data: dict) -> None:
    _platform(state)["conceded"].append(data["seat"])


def _game_aborted(state: dict, data: dict) -> None:
    _platform(state)["aborted"] = True


HANDLERS = {"SeatConceded": _seat_conceded, "GameAborted": _game_aborted}


def ended(state: dict) -> bool:
    """Has a platform command ended the game (whatever the rules' own position)?"""
    p = state.get("platform")
    return bool(p and (p["conceded"] or p["aborted"]))


def decide(state: dict, seat: int | None, command: dict, players: int) -> list[dict]:
    """The default events of a platform command in a game not yet over; raises Illegal."""
    kind = command.get("type") if isinstance(command, dict) else None
    if kind == "abort":
        return [event("GameAborted")]
    if kind in CONCEDE:
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise Illegal("not_a_seat", None, f"{kind} is a seat's command")
        return [event("SeatConceded", seat=seat, reason=kind)]
    raise Illegal("unknown_command", None, f"{kind!r} is not a platform command")


_LABELS = {"resign": "Resign", "timeout": "Out of time", "forfeit": "Forfeit", "abort": "Abort the game"}


def label(command: dict) -> str:
    """The human label of a platform command (``BaseGame.label``); the seat is the event's."""
    return _LABELS[command["type"]]


def outcome_board(state: dict, board: Scoreboard) -> Scoreboard:
    """``board`` (the rules' scoreboard now) with the platform's ending applied."""
    p = state["platform"]
    if p["aborted"]:
        return replace(board, final=True, outcome=Outcome("aborted"))
    last = {seat_id(s) for s in p["conceded"]}
    stay = [line for line in board.standings if line.participant not in last]
    places: dict[str, int] = {}
    for pos, line in enumerate(stay):
        same = pos and line.place == stay[pos - 1].place
        places[line.participant] = places[stay[pos - 1].participant] if same else pos + 1
    for pid in last:
        places[pid] = len(stay) + 1
    seats = [SeatScore(s.seat, s.total, s.breakdown, places[seat_id(s.seat)]) for s in board.seats]
    others = [Standing(o.participant, o.total, o.breakdown, places.get(o.participant, o.place))
              for o in board.others]
    # Alone at the table (a solo game without scored actors), a seat that concedes wins nothing.
    return Scoreboard(final=True, seats=seats, others=others, outcome=None if stay else Outcome("no_player_wins"))
