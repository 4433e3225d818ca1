"""The game kit's pieces, each asked the question it exists to answer."""
from __future__ import annotations

import hashlib
import hmac

import pytest

from domain.core import Drbg, Illegal, Seat, fold
from domain.kit import (
    Batch, Handlers, UnknownEvent, check_command, check_options, command, command_schema, command_stream,
    copier, copy_state, play, rule, table,
)
from tests.support.house.rules import GAME as HOUSE

SCHEMA = command_schema("Test command", [
    command("move", "Move (T-1).", {"to": rule({"type": "integer", "minimum": 0}, "bad_square", "T-1")},
            {"fast": {"type": "boolean"}}),
    command("pass", "Pass (T-2)."),
    rule(command("map", "Look (T-3).", {"goal": {"enum": ["A", "B"]}}), "bad_goal", "T-3"),
])
OPTIONS = {"type": "object", "additionalProperties": False, "properties": {
    "rounds": rule({"type": "integer", "minimum": 1, "default": 2}, "bad_rounds", "T-9"),
    "fast": {"type": "boolean", "default": False}}}


def test_copy_state_is_deep_and_equal():
    s = {"a": [1, {"b": [2]}]}
    c = copy_state(s)
    c["a"][1]["b"].append(3)
    assert s == {"a": [1, {"b": [2]}]} and c != s


@pytest.mark.parametrize("state", [{"a": [1, {"b": [2]}], 3: "x"}, {"a": [[]], "big": 2 ** 70}])
def test_copier_makes_copies_as_copy_state_does_each_its_own(state):
    """Serialised once (or, past orjson's integers, copied the standard library's way each time)."""
    fresh = copier(state)
    one, two = fresh(), fresh()
    assert one == two == copy_state(state) and one is not two
    one["a"].append("changed")
    assert two == copy_state(state) and fresh() == copy_state(state)


def test_batch_folds_each_event_onto_a_private_copy():
    handlers = Handlers()

    @handlers.on("Added")
    def _added(s, d):
        s["n"] += d["k"]

    evolve = handlers.evolver()
    state = {"n": 1}
    b = Batch(state, evolve)
    b.emit("Added", k=2)
    assert b.state["n"] == 3
    b.add({"type": "Added", "data": {"k": 4}})
    assert b.state["n"] == 7 and state == {"n": 1}
    assert [e["data"]["k"] for e in b.events] == [2, 4]


def test_evolve_refuses_an_unknown_event_and_folds_the_platform_ones():
    evolve = Handlers().evolver()
    with pytest.raises(UnknownEvent):
        evolve({}, {"type": "Nope", "data": {}})
    s = evolve({}, {"type": "SeatConceded", "data": {"seat": 1, "reason": "resign"}})
    assert s["platform"] == {"conceded": [1], "aborted": False}


def test_an_event_type_has_one_handler():
    handlers = Handlers()
    handlers.on("Added")(lambda s, d: None)
    with pytest.raises(ValueError, match="already has a handler"):
        handlers.on("Added")(lambda s, d: None)
    with pytest.raises(ValueError, match="already has a handler"):
        handlers.on("GameAborted")(lambda s, d: None)  # the kit's own


@pytest.mark.parametrize("cmd,code,rule_id", [
    ("move", "bad_command", None),
    ({"to": 1}, "bad_command", None),
    ({"type": "dance"}, "unknown_command", None),
    ({"type": "move"}, "bad_square", "T-1"),  # a missing field cites that field's rule
    ({"type": "move", "to": -1}, "bad_square", "T-1"),
    ({"type": "move", "to": "1"}, "bad_square", "T-1"),
    ({"type": "move", "to": 1, "fast": 1}, "bad_command", None),
    ({"type": "move", "to": 1, "extra": 0}, "bad_command", None),  # extra fields are refused
    ({"type": "pass", "card": "x"}, "bad_command", None),
    ({"type": "map", "goal": "C"}, "bad_goal", "T-3"),  # a branch's annotation covers its fields
])
def test_command_errors_keep_code_and_rule(cmd, code, rule_id):
    with pytest.raises(Illegal) as exc:
        check_command(SCHEMA, cmd)
    assert (exc.value.code, exc.value.rule) == (code, rule_id)


def test_commands_that_fit_pass():
    for cmd in ({"type": "move", "to": 3}, {"type": "move", "to": 0, "fast": True}, {"type": "pass"},
                {"type": "map", "goal": "B"}):
        check_command(SCHEMA, cmd)


def test_options_get_defaults_and_errors_keep_code_and_rule():
    assert check_options(OPTIONS, None) == {"rounds": 2, "fast": False}
    assert check_options(OPTIONS, {"rounds": 5}) == {"rounds": 5, "fast": False}
    for opts, code, rule_id in [({"speed": 1}, "unknown_option", None), ({"rounds": 0}, "bad_rounds", "T-9"),
                                ({"fast": "yes"}, "bad_option", None), ([1], "bad_option", None)]:
        with pytest.raises(Illegal) as exc:
            check_options(OPTIONS, opts)
        assert (exc.value.code, exc.value.rule) == (code, rule_id), opts


def test_base_game_checks_the_seat_count_and_options():
    with pytest.raises(Illegal) as exc:
        HOUSE.validate_options({}, 5)
    assert (exc.value.code, exc.value.rule) == ("bad_player_count", "HD-SEAT-1")
    assert HOUSE.validate_options({}, 2) == {"rounds": 2}


def house(players: int = 2, seed: bytes = b"kit"):
    seats = [Seat(i, f"p{i}", "random") for i in range(players)]
    return fold(HOUSE, HOUSE.start({}, seats, Drbg(seed, "start")))


def test_turn_gives_active_seats_and_terminal():
    s = house()
    assert HOUSE.active_seats(s) == {0} and not HOUSE.is_terminal(s)
    s = fold(HOUSE, HOUSE.decide(s, 0, {"type": "stand"}, Drbg(b"x", "v")), s)
    s = fold(HOUSE, HOUSE.decide(s, 1, {"type": "stand"}, Drbg(b"x", "v")), s)
    assert HOUSE.turn(s).actor == "house" and HOUSE.active_seats(s) == set()


def test_resign_ends_the_game_with_the_seat_last():
    s = house(3)
    s = fold(HOUSE, HOUSE.decide(s, 0, {"type": "roll"}, Drbg(b"x", "v")), s)
    evs = HOUSE.decide_platform(s, 1, {"type": "resign"}, Drbg(b"x", "v"))
    assert evs == [{"type": "SeatConceded", "data": {"seat": 1, "reason": "resign"}}]
    s = fold(HOUSE, evs, s)
    assert HOUSE.is_terminal(s) and HOUSE.legal_commands(s, 1) == []
    board = HOUSE.scores(s)
    places = {line.participant: line.place for line in board.standings}
    assert board.final and places["seat:1"] == 4 == max(places.values())  # behind the house too
    with pytest.raises(Illegal) as exc:
        HOUSE.decide(s, 1, {"type": "roll"}, Drbg(b"x", "v"))
    assert exc.value.code == "game_over"
    with pytest.raises(Illegal):
        HOUSE.decide_platform(s, 0, {"type": "abort"}, Drbg(b"x", "v"))


def test_abort_ends_the_game_without_a_winner():
    s = fold(HOUSE, HOUSE.decide_platform(house(), None, {"type": "abort"}, Drbg(b"x", "v")), house())
    assert HOUSE.is_terminal(s)
    assert HOUSE.scores(s).to_dict()["outcome"] == {"kind": "aborted", "winners": []}


@pytest.mark.parametrize("seat,cmd,code", [(None, {"type": "resign"}, "not_a_seat"), (7, {"type": "timeout"}, "not_a_seat"),
                                           (0, {"type": "dance"}, "unknown_command")])
def test_bad_platform_commands_are_refused(seat, cmd, code):
    with pytest.raises(Illegal) as exc:
        HOUSE.decide_platform(house(), seat, cmd, Drbg(b"x", "v"))
    assert exc.value.code == code


def test_driver_reaches_no_player_wins_and_is_deterministic():
    a = play(HOUSE, table(HOUSE, 3), {"rounds": 3}, b"seed-1")
    b = play(HOUSE, table(HOUSE, 3), {"rounds": 3}, b"seed-1")
    c = play(HOUSE, table(HOUSE, 3), {"rounds": 3}, b"seed-2")
    assert a.terminal and a.scores().result().kind == "no_player_wins"
    assert [s.events for s in a.steps] == [s.events for s in b.steps]
    assert [s.events for s in a.steps] != [s.events for s in c.steps]
    assert sum(s.seat is None for s in a.steps[1:]) == 3  # one house step a round


def test_driver_versions_and_streams_are_the_servers():
    """Version after the start = 1 (GameCreated) + start events; each step is decided on ``v<version>``."""
    g = play(HOUSE, table(HOUSE, 2), {}, b"seed-3")
    assert g.steps[1].version == 1 + len(g.steps[0].events)
    state = fold(HOUSE, g.steps[0].events)
    for step in g.steps[1:]:
        rng = Drbg(b"seed-3", command_stream(step.version))
        if step.seat is None:
            assert HOUSE.decide_actor(state, step.command["actor"], rng) == step.events
        else:
            assert HOUSE.decide(state, step.seat, step.command, rng) == step.events
        state = fold(HOUSE, step.events, state)
    assert state == g.state


def test_driver_refuses_a_seat_without_a_bot():
    with pytest.raises(Illegal) as exc:
        play(HOUSE, [Seat(0, "human")], {}, b"s")
    assert exc.value.code == "no_bot"


def test_a_lone_seat_that_resigns_wins_nothing():
    from domain.core import Scoreboard
    from domain.kit.platform import outcome_board
    state = {"platform": {"conceded": [0], "aborted": False}}
    board = outcome_board(state, Scoreboard.rank(False, {0: {"points": 5}}))
    assert board.result().kind == "no_player_wins" and board.result().winners == ()


@pytest.mark.parametrize("seed", [b"", b"x", bytes(range(64)), bytes(range(200))], ids=["empty", "short", "block", "long"])
def test_drbg_draws_are_hmac_sha256_of_stream_and_counter(seed):
    """The DRBG's precomputed HMAC states give exactly ``HMAC-SHA256(seed, "stream:n")``: every
    stored record's draws stay the same (a seed longer than SHA-256's block is hashed first)."""
    rng = Drbg(seed, "v17")
    for n in range(5):
        expected = int.from_bytes(hmac.new(seed, f"v17:{n}".encode(), hashlib.sha256).digest()[:8], "big")
        assert rng._next64() == expected
