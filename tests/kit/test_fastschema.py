"""domain.kit.fastschema answers exactly as jsonschema does, wherever it answers (issue 13):
on every command a random game of each registered game lists as legal, and on random
values shaped like each command (fields of the right names, values of any kind)."""
from __future__ import annotations

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from domain import registry
from domain.kit import play, table
from domain.kit.fastschema import fits
from domain.kit.schemas import branches

GAMES = [registry.get(g) for g in registry.available()]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.floats(-3, 40, allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8)


def legal_commands(game, steps: int = 60) -> list[dict]:
    seen: list[dict] = []

    def collect(played):
        for seat in game.active_seats(played.state):
            seen.extend(game.legal_commands(played.state, seat)[:20])

    play(game, table(game, game.min_players, sorted(game.bots)[0]), {}, b"fastschema", max_steps=steps,
         on_step=collect)
    return seen


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_legal_command_fits_alike(game):
    commands = legal_commands(game)
    assert commands
    for cmd in commands:
        branch = branches(game.command_schema)[cmd["type"]]
        assert fits(branch, cmd) is True, cmd
        assert jsonschema.Draft202012Validator(branch).is_valid(cmd)


@st.composite
def shaped(draw, branch):
    names = sorted(branch.get("properties", {}))
    cmd = {"type": branch["properties"]["type"]["const"]}
    for name in draw(st.lists(st.sampled_from(names + ["extra"]), max_size=len(names) + 1, unique=True)):
        cmd[name] = draw(json_values)
    return cmd


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_commands_fit_alike(game, data):
    branch = data.draw(st.sampled_from(list(branches(game.command_schema).values())))
    cmd = data.draw(shaped(branch))
    answer = fits(branch, cmd)
    assert answer is None or answer == jsonschema.Draft202012Validator(branch).is_valid(cmd), cmd


def test_an_unknown_keyword_gets_no_answer_and_json_equality_holds():
    assert fits({"type": "string", "format": "email"}, "x") is None
    assert fits({"type": "array", "items": [{"type": "string"}]}, ["x"]) is None  # an older draft's tuple form
    assert fits({"enum": [1]}, True) is False and fits({"const": 1}, 1.0) is True
    assert fits({"type": "integer"}, 2.0) is True and fits({"type": "integer"}, False) is False
