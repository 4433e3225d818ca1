"""Random legal games for 3..10 players: invariants and hidden-information canaries.

Checked after every event: cards conserved (SAB-NEXT-1: every card is somewhere),
gold conserved, state JSON round trip; and for every seat and the spectator
(SAB-INFO-1): no other seat's hand card ids, no unrevealed role, no goal
identity the seat has not seen, in its view or its redacted events.
"""
import json
import re

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from domain.core import Drbg, Illegal, fold
from domain.saboteur.content import CARDS, GOLD
from domain.saboteur.evolve import evolve
from domain.saboteur.rules import GAME
from saboteur_support import Table, all_cards

MAX_DECISIONS = 3000
# Games diverge completely under any change of input, so shrinking only burns time.
NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]


def secrets_hidden(state, seat, text: str, view: dict | None) -> None:
    """Canary: ``text`` (a view or a redacted event as JSON) shows ``seat`` nothing it may not know."""
    over = state["phase"] == "over"
    strings = set(re.findall(r'"([^"]*)"', text))
    for other, hand in enumerate(state["hands"]):
        if other != seat and not over:
            assert not strings & set(hand), f"seat {seat} sees a card of seat {other}"
    for g, info in state["goals"].items():
        known = info["revealed"] or over or (seat is not None and g in state["peeks"][seat])
        if not known and info["shape"]:
            assert info["shape"] not in strings, f"seat {seat} sees goal {g}"
    if view is not None and not (state["roles_revealed"] or over):
        for p in view["players"]:
            assert p["role"] is None or p["seat"] == seat
        assert view["leftover_role"] is None


def event_hides(ev, seat) -> None:
    red = GAME.redact(ev, seat)
    if ev["type"] == "RoleDealt" and ev["data"]["seat"] != seat:
        assert "role" not in red["data"]
    if ev["type"] == "RoleSetAside":
        assert "role" not in red["data"]
    if ev["type"] in ("DeckShuffled", "GoalsShuffled"):
        assert red["data"] in ({}, {"count": len(ev["data"].get("cards", []))})
    return red


def play_game(players: int, seed: bytes, options: dict, bots: list[str], canaries: bool = True,
              try_all_every: int = 0):
    """Play a whole game with the given bots; returns (events, final state)."""
    t = Table(players, seed=seed, **options)
    if canaries:
        check_batch(t.events, GAME.initial_state())
    before: dict = {}

    def checked(bot):
        def policy(game, state, seat, rng):  # ``state`` is the driver's private copy of the position
            legal = GAME.legal_commands(state, seat)
            assert legal, "an active seat always has a legal command"
            before["state"], before["n"] = GAME.dump_state(state), before.get("n", -1) + 1
            if try_all_every and before["n"] % try_all_every == 0:
                for cmd in legal:
                    GAME.decide(state, seat, cmd, Drbg(seed, f"try{before['n']}"))
            cmd = GAME.bots[bot](game, state, seat, rng)
            assert cmd in legal
            return cmd
        return policy

    def each(g):
        evs = g.steps[-1].events
        # decide did not mutate: its events folded onto the untouched position give the live state
        assert fold(GAME, evs, GAME.load_state(before["state"])) == g.state
        if canaries:
            check_batch(evs, GAME.load_state(before["state"]))
        check_state(g.state)

    t.finish([checked(b) for b in bots], on_step=each, max_steps=MAX_DECISIONS)
    assert GAME.is_terminal(t.state), "the game does not end"
    return t.events, t.state


def check_state(state) -> None:
    if state["phase"] != "setup":
        assert sorted(all_cards(state)) == sorted(CARDS)
    gold = list(state["gold_deck"]) + list(state["bundle"]) + [v for g in state["gold"] for r in g for v in r]
    assert sorted(gold) == sorted(GOLD)
    assert GAME.load_state(json.loads(json.dumps(GAME.dump_state(state)))) == state


def check_batch(evs, state) -> None:
    """Fold events one at a time, checking every redaction against the state it creates."""
    state = GAME.load_state(GAME.dump_state(state))
    for ev in evs:
        state = evolve(state, ev)
        json.dumps(ev)
        for seat in [None, *range(state["players"])]:
            red = event_hides(ev, seat)
            secrets_hidden(state, seat, json.dumps(red), None)
    for seat in [None, *range(state["players"])]:
        view = GAME.view(state, seat)
        secrets_hidden(state, seat, json.dumps(view), view)


@pytest.mark.parametrize("players", range(3, 11))
def test_SAB_INFO_1_random_game_invariants_and_canaries(players):
    bots = ["heuristic" if i % 2 else "random" for i in range(players)]
    events, state = play_game(players, b"prop-%d" % players, {}, bots)
    assert [h["round"] for h in state["history"]] == [1, 2, 3]  # SAB-WIN-1
    assert GAME.scores(state).final


OPTIONS = st.fixed_dictionaries({
    "require_connection_to_start": st.booleans(),
    "auto_pass_empty_hand": st.booleans(),
    "gold_choice": st.sampled_from(["players", "auto"]),
    "gold_cards_for_miners": st.sampled_from(["players", "miners"]),
})


@settings(max_examples=4, deadline=None, phases=NO_SHRINK)
@given(players=st.integers(3, 10), seed=st.binary(min_size=1, max_size=8), options=OPTIONS,
       heuristic=st.lists(st.booleans(), min_size=10, max_size=10))
def test_SAB_INFO_1_property_any_options(players, seed, options, heuristic):
    bots = ["heuristic" if h else "random" for h in heuristic[:players]]
    play_game(players, seed, options, bots)


@settings(max_examples=2, deadline=None, phases=NO_SHRINK)
@given(players=st.integers(3, 10), seed=st.binary(min_size=1, max_size=8))
def test_SAB_TURN_2_every_legal_command_is_accepted(players, seed):
    play_game(players, seed, {}, ["heuristic"] * players, canaries=False, try_all_every=13)


@settings(max_examples=2, deadline=None, phases=NO_SHRINK)
@given(players=st.integers(3, 10), seed=st.binary(min_size=1, max_size=8))
def test_determinism_same_seed_same_events(players, seed):
    bots = ["random", "heuristic"] * 5
    first, _ = play_game(players, seed, {}, bots, canaries=False)
    second, _ = play_game(players, seed, {}, bots, canaries=False)
    assert json.dumps(first) == json.dumps(second)


def test_illegal_commands_raise_illegal_only():
    t = Table(4, first_player=0)
    junk = [{}, {"type": "play_path"}, {"type": "play_path", "card": 5}, {"type": "map", "card": None},
            {"type": "repair", "card": t.state["hands"][0][0], "target": "x"},
            {"type": "rockfall", "card": t.state["hands"][0][0], "x": "1", "y": 0},
            {"type": "take_gold", "values": "3"}, {"type": "take_gold"}]
    for cmd in junk:
        with pytest.raises(Illegal):
            t.do(0, cmd)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(["A", "B", "P01", "A01", "pick", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)
FIELDS = st.sampled_from(["card", "x", "y", "rotated", "target", "tool", "goal", "values"])
TYPES = st.sampled_from(["play_path", "break_tool", "repair", "rockfall", "map", "pass", "take_gold", "x"])


FUZZ_TABLE = Table(4, first_player=0)


@settings(max_examples=100, deadline=None)
@given(kind=TYPES | JSON, fields=st.dictionaries(FIELDS, JSON, max_size=5), seat=st.integers(-1, 5))
def test_malformed_commands_raise_illegal_never_crash(kind, fields, seat):
    t = FUZZ_TABLE
    try:
        GAME.decide(t.state, seat, {"type": kind, **fields}, Drbg(b"fuzz", "v1"))
    except Illegal:
        pass
