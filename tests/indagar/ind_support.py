"""Staging helpers for Indagar tests: a started table, and one-line edits that put
figures, outposts and tiles where a rule test needs them (like a FEN fixture)."""
from __future__ import annotations

from domain.core import Drbg, Seat, fold
from domain.kit import copy_state
from domain.indagar import positions as verbs
from domain.indagar import state as st
from domain.indagar.rules import GAME


class ScriptedDice:
    """A stand-in for the DRBG that rolls the faces a worked example prints.

    Only ``randbelow`` is used by the dice (``dice.roll``); each call returns the
    next scripted face - 1, and running out is an error, so a test states every die."""

    def __init__(self, *faces: int):
        self.faces = list(faces)

    def randbelow(self, n: int) -> int:
        face = self.faces.pop(0)
        assert 1 <= face <= n
        return face - 1


def table(players: int = 2, seed: bytes = b"indagar", **options) -> dict:
    seats = [Seat(i, f"p{i}") for i in range(players)]
    return fold(GAME, GAME.start(GAME.validate_options(options, players), seats, Drbg(seed, "start")))


def run(game, s: dict, seat: int, command: dict, rng=None) -> dict:
    """Decide one command under ``game``'s rules (a frozen version's too) and fold it onto a copy
    (a fixed DRBG unless a scripted one is given)."""
    events = game.decide(s, seat, command, rng or Drbg(b"t", "cmd"))
    s = copy_state(s)
    for ev in events:
        s = game.evolve(s, ev)
    return s


def apply(s: dict, seat: int, command: dict, rng=None) -> dict:
    """``run`` under the current rules."""
    return run(GAME, s, seat, command, rng)


def events_of(s: dict, seat: int, command: dict, rng=None) -> list[dict]:
    return GAME.decide(s, seat, command, rng or Drbg(b"t", "cmd"))


# The edits below are Indagar's position verbs (domain/indagar/positions.py), the words of
# its text positions (tests/support/positions.py), here as functions returning the state.

def put(s: dict, figure: str, tile: str) -> dict:
    verbs.put(s, figure, tile)
    return s


def reveal(s: dict, tile: str, kind: str) -> dict:
    """Make ``tile`` face up as ``kind``."""
    verbs.reveal(s, tile, kind)
    return s


def hide(s: dict, tile: str, kind: str) -> dict:
    """Make ``tile`` face down, hiding ``kind``."""
    verbs.hide(s, tile, kind)
    return s


def outpost(s: dict, tile: str, seat: int, level: int = 1) -> dict:
    verbs.outpost(s, tile, seat, level)
    return s


def turn_of(s: dict, seat: int, hero: str | None = None, moves: int | None = None) -> dict:
    """Make it ``seat``'s turn, with ``hero`` activated (its full movement unless ``moves``)."""
    verbs.turn(s, seat, hero, moves)
    return s


def neighbours(s: dict, tile: str) -> tuple[str, ...]:
    return st.board(s).neighbours[tile]


def clear_board(s: dict) -> dict:
    """Lift every figure off the board (the ``lift`` verb)."""
    verbs.lift(s)
    return s


def arena(players: int = 2, **options) -> dict:
    """A started table with every figure lifted and every tile a revealed Meadow (the ``arena`` verb)."""
    s = table(players, **options)
    verbs.arena(s)
    return s


def line(s: dict, start: str, n: int) -> list[str]:
    """``n`` tiles in a straight east-west row from ``start`` (same board row)."""
    row, col = st.board(s).cells[start]
    out = [f"r{row}c{col + i}" for i in range(n)]
    assert all(t in s["tiles"] for t in out), out
    return out


def decide_all(s: dict, seat: int, commands: list[tuple[dict, object]]) -> dict:
    for cmd, rng in commands:
        s = apply(s, seat, cmd, rng)
    return s


def armour_everyone(s: dict) -> dict:
    """Three shield tokens on every hero: no monster finds them juicy (IND-JUICY-1)."""
    verbs.armour(s)
    return s


def play_round(s: dict, hero_choice=None, game=GAME) -> tuple[dict, list[str]]:
    """Play the current round to its end: seats activate their first available hero and end
    the turn at once; decisions take the first listed option. Returns the state and the
    ``who`` of every turn taken (under ``game``: a rules version, the current one unless said)."""
    from domain.core import Drbg
    r = s["round"]
    whos = []
    for i in range(500):
        if s["round"] != r or game.is_terminal(s):
            return s, whos
        t = game.turn(s)
        rng = Drbg(b"round", f"{r}:{i}")
        if t.actor:
            whos.append(t.actor)
            events = game.decide_actor(s, t.actor, rng)
        else:
            (seat,) = t.seats
            legal = game.legal_commands(s, seat)
            if s["pending"]:
                cmd = legal[0]
            elif s["turn"]["hero"] is None:
                whos.append(f"seat:{seat}")
                cmd = (hero_choice or (lambda s, seat, legal: legal[0]))(s, seat, legal)
            else:
                cmd = {"type": "end_turn"}
            events = game.decide(s, seat, cmd, rng)
        s = copy_state(s)
        for ev in events:
            s = game.evolve(s, ev)
    raise AssertionError("round did not end")


def monster_turn(s: dict, name: str, rng=None, game=GAME) -> dict:
    """Give ``name`` the turn and let it act (its events folded onto a copy), under ``game``."""
    from domain.core import Drbg
    s = copy_state(s)
    verbs.turn(s, name)
    events = game.decide_actor(s, s["turn"]["who"], rng or Drbg(b"m", "turn"))
    for ev in events:
        s = game.evolve(s, ev)
    return s


def only_resource(s: dict, tile: str, kind: str = "gold") -> dict:
    """Every resource tile becomes a Meadow except ``tile``, revealed as ``kind``."""
    for t in s["tiles"]:
        if s["tiles"][t]["type"] in ("gold", "wood", "ore"):
            reveal(s, t, "meadow")
    return reveal(s, tile, kind)


def corner(behind_kind: str) -> tuple[dict, str, str, str]:
    """Ariane, in her turn, beside Zhuan; every tile around him is a Mountain but one face-down
    tile hiding ``behind_kind``, so that is his only fall-back tile: (state, a, z, behind)."""
    s = arena(2)
    a, z, behind = line(s, "r4c1", 3)
    put(s, "ariane", a)
    put(s, "zhuan", z)
    for n in neighbours(s, z):
        if n not in (a, behind):
            reveal(s, n, "mountains")
    hide(s, behind, behind_kind)
    turn_of(s, 0, "ariane")
    return s, a, z, behind


def cornered(behind_kind: str) -> tuple[dict, str, str, str]:
    """``corner``, and Ariane hits Zhuan for 2: his owner is asked where he falls back."""
    s, a, z, behind = corner(behind_kind)
    s = apply(s, 0, {"type": "attack", "tile": z}, ScriptedDice(2, 1, 1))
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(1, 1))
    s = apply(s, 1, {"type": "pass"})
    return s, a, z, behind


def hit_outpost(hero: str, kind: str, owner: int, level: int, attack: tuple, defence: tuple) -> tuple[dict, str]:
    """``hero`` attacks a lone level-``level`` outpost of ``owner`` on a ``kind`` tile next to it,
    rolling ``attack`` against ``defence``; returns the state with the defender's window open."""
    s = arena(2)
    a, t = line(s, "r4c1", 2)
    reveal(s, t, kind)
    outpost(s, t, owner, level)
    put(s, hero, a)
    seat = st.owner(s, hero)
    turn_of(s, seat, hero)
    s = apply(s, seat, {"type": "attack", "tile": t}, ScriptedDice(*attack))
    return apply(s, seat, {"type": "pass"}, ScriptedDice(*defence)), t
