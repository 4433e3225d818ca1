"""Bots: legal, deterministic, and blind to what their seat may not know."""
import pytest

from domain.core import Drbg
from domain.saboteur.rules import GAME
from saboteur_support import Table


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_return_legal_commands(bot):
    t = Table(6, first_player=0)
    for n in range(60):
        (seat,) = GAME.active_seats(t.state)
        cmd = GAME.bots[bot](GAME, t.state, seat, Drbg(b"bot", f"{n}"))
        assert cmd in GAME.legal_commands(t.state, seat)
        t.do(seat, cmd)


def test_SAB_INFO_1_heuristic_bot_ignores_hidden_information():
    """Shuffling what seat 0 cannot see (others' hands, the deck, unseen goals,
    others' roles) leaves its view, and so its choice, unchanged."""
    t = Table(5, first_player=0)
    for n in range(8):
        t.do(t.turn, GAME.bots["heuristic"](GAME, t.state, t.turn, Drbg(b"warm", f"{n}")))
    while t.turn != 0:
        t.do(t.turn, GAME.bots["random"](GAME, t.state, t.turn, Drbg(b"skip", f"{t.version}")))
    other = GAME.load_state(GAME.dump_state(t.state))
    pool = [c for s in range(1, 5) for c in other["hands"][s]] + other["deck"]
    pool = pool[::-1]
    for s in range(1, 5):
        size = len(other["hands"][s])
        other["hands"][s], pool = pool[:size], pool[size:]
    other["deck"] = pool
    other["roles"][1:] = other["roles"][1:][::-1]
    hidden = [g for g, i in other["goals"].items() if not i["revealed"] and g not in other["peeks"][0]]
    shapes = [other["goals"][g]["shape"] for g in hidden][::-1]
    for g, shape in zip(hidden, shapes):
        other["goals"][g]["shape"] = shape
    assert GAME.view(other, 0) == GAME.view(t.state, 0)
    for n in range(5):
        rng = lambda: Drbg(b"same", f"{n}")  # noqa: E731
        assert GAME.bots["heuristic"](GAME, other, 0, rng()) == GAME.bots["heuristic"](GAME, t.state, 0, rng())


def test_heuristic_miners_beat_random_miners():
    """Smoke check of the benchmark's claim on a few games (see benchmarks/saboteur.md)."""
    wins = {"heuristic": 0, "random": 0}
    for bot in wins:
        for g in range(3):
            t = Table(4, seed=b"smoke%d" % g, gold_choice="auto")
            t.finish([bot] * 4)
            wins[bot] += sum(h["winner"] == "miners" for h in t.state["history"])
    assert wins["heuristic"] > wins["random"]
