"""Every command ``decide`` accepts is one ``legal_commands`` lists: a deterministic sweep.

``test_legal_both_ways`` puts commands drawn at random from the schema to ``decide``; a command
that is only wrong in a rare state (a hero owing its attack after a Charge! move, where indagar-4
accepted a Portal swap or an ability it did not list) is seldom drawn there. Here every command
listed anywhere along one game of the game's best bot is put to ``decide`` for each seat to act at
``STATES`` positions spread over that game, and each one accepted must be listed (``is_listed``).
Mountain King lists tens of thousands of digs along a game: every other command and a spread
sample of ``DIGS`` digs are tried.
"""
from __future__ import annotations

import pytest

from domain import registry
from domain.core import Drbg, Illegal, canonical_json
from domain.kit import command_stream, play, table
from tests.conformance.test_conformance import states
from tests.conformance.test_legal_both_ways import is_listed

STATES = 25
DIGS = 300
SWEEP = [("saboteur", 4, "heuristic"), ("mountain-king", 2, "random"), ("dwarf", 3, "greedy"), ("indagar", 2, "greedy")]


def listed_along(game, walk, players: int) -> list[dict]:
    """Each distinct command listed for any seat at any position of ``walk``, in first-seen order."""
    pool: dict[str, dict] = {}
    for _version, state, _step in walk:
        for seat in range(players):
            for cmd in game.legal_commands(state, seat):
                pool.setdefault(canonical_json(cmd), cmd)
    cmds = list(pool.values())
    digs = [c for c in cmds if c["type"] == "dig"]
    return [c for c in cmds if c["type"] != "dig"] + digs[:: max(1, len(digs) // DIGS)]


def accepted_unlisted(game, state, seat: int, commands: list[dict], rng_of) -> list[dict]:
    legal = game.legal_commands(state, seat)
    listed = {canonical_json(c) for c in legal}
    out = []
    for cmd in commands:
        if canonical_json(cmd) in listed:
            continue
        try:
            events = game.decide(state, seat, cmd, rng_of())
        except Illegal:
            continue
        if not is_listed(game, state, seat, legal, cmd, events, rng_of):
            out.append(cmd)
    return out


@pytest.mark.parametrize("gid,players,bot", SWEEP, ids=[gid for gid, _n, _b in SWEEP])
def test_no_command_listed_elsewhere_in_the_game_is_accepted_unlisted(gid, players, bot):
    game = registry.get(gid)
    seed = f"sweep-{gid}".encode()
    g = play(game, table(game, players, bot), {}, seed, max_steps=3000)
    walk = list(states(g))
    commands = listed_along(game, walk, players)
    bad, tried = [], 0
    for version, state, _step in walk[:: max(1, len(walk) // STATES)][:STATES]:
        for seat in sorted(game.turn(state).seats):
            tried += len(commands)
            found = accepted_unlisted(game, state, seat, commands, lambda: Drbg(seed, command_stream(version)))
            bad += [(version, seat, cmd) for cmd in found]
    assert len(commands) > 10 and tried > 100 and not bad, (len(commands), tried, bad[:5])


def test_the_sweep_finds_the_charge_defect_of_indagar_4():
    """The sweep is not blind: in a plain greedy game under indagar-4 it finds the hero abilities
    accepted while a hero owes its Charge! attack (IND-SPR-1), which indagar-5 refuses."""
    old = registry.get("indagar", "indagar-4")
    seed = b"fz-indagar-2-greedy-0"
    g = play(old, table(old, 2, "greedy"), {}, seed, max_steps=3000)
    walk = list(states(g))
    version, state, _step = next(w for w in walk if w[0] == 1279)
    assert state["turn"]["must_attack"]
    commands = listed_along(old, walk, 2)
    rng_of = lambda: Drbg(seed, command_stream(version))  # noqa: E731
    found = accepted_unlisted(old, state, 1, commands, rng_of)
    assert {c["type"] for c in found} == {"use_ability"}, found
    assert accepted_unlisted(registry.get("indagar"), state, 1, commands, rng_of) == []
