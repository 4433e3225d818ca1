"""Each game's ``command_schema``: a valid JSON Schema that every legal command fits, naming
every command type the game accepts, served by ``GET /v1/catalog/{game}``.

The schema describes shapes, not legality, so the check runs one way: whatever
``legal_commands`` offers must validate (over random games), and a few malformed
commands must not.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import jsonschema_rs
import pytest

from domain import registry
from domain import kit
from domain.core import fold

GAMES = {gid: registry.get(gid).rule_prefix for gid in registry.available()}  # every registered game
# (players, options) per game: every seat count, and Mountain King's 2v2 teams.
TABLES = {gid: [(n, {}) for n in range(registry.get(gid).min_players, registry.get(gid).max_players + 1)]
          for gid in GAMES}
TABLES["mountain-king"] = TABLES.get("mountain-king", []) + [(4, {"teams": True})]
STEPS = 600  # per game; enough to reach Saboteur's gold phase and Mountain King's later steps
SEEDS = (b"schema-1", b"schema-2")


def game(gid: str):
    return registry.get(gid)


def rules_document(gid: str) -> Path:
    return Path(sys.modules[type(game(gid)).__module__].__file__).with_name("RULES.md")


def branches(gid: str) -> dict[str, dict]:
    return {b["properties"]["type"]["const"]: b for b in game(gid).command_schema["oneOf"]}


def play(g, players: int, options: dict, seed: bytes):
    """Yield (seat, legal commands) at every position of one random game (the kit's driver)."""
    walk = kit.play(g, kit.table(g, players, "random"), options, seed, max_steps=STEPS)
    state = fold(g, walk.steps[0].events)
    for step in [*walk.steps[1:], None]:
        yield from [(s, cmds) for s in range(players) if (cmds := g.legal_commands(state, s))]
        if step is not None:
            state = fold(g, step.events, state)


def documented_types(gid: str) -> set[str]:
    """The ``"type": "..."`` names in the rules module docstring (the human-readable vocabulary)."""
    return set(re.findall(r'"type": "(\w+)"', sys.modules[type(game(gid)).__module__].__doc__ or ""))


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_command_schema_is_a_valid_json_schema(gid):
    schema = game(gid).command_schema
    jsonschema_rs.meta.validate(schema)  # jsonschema's check_schema, in the venv's validator
    json.dumps(schema)  # served as JSON as is
    for kind, branch in branches(gid).items():
        assert branch["type"] == "object" and branch["additionalProperties"] is False, kind
        assert branch["required"][0] == "type", kind
        assert re.search(rf"\b{GAMES[gid]}-(?:[A-Z]+-)?\d", branch["description"]), f"{kind} cites no rule"


@pytest.mark.parametrize("gid", [gid for gid in sorted(GAMES) if rules_document(gid).is_file()])
def test_cited_rule_ids_exist_in_the_spec(gid):
    spec = rules_document(gid)
    text, rid = spec.read_text(encoding="utf-8"), rf"{GAMES[gid]}-[A-Z]+-\d+(?:\.\d+)?"
    # defined in bold, as a heading (the ambiguity sections) or in a table row, as /rules/<game> anchors them
    defined = set(re.findall(rf"\*\*({rid})", text)) | set(re.findall(rf"^#{{1,6}} [^\n]*?\b({rid})", text, re.M)) \
        | set(re.findall(rf"^\|\s*({rid})\s*\|", text, re.M))
    cited = {rid for b in branches(gid).values()
             for rid in re.findall(rf"{GAMES[gid]}-[A-Z]+-\d+(?:\.\d+)?", b["description"])}
    assert cited and cited <= defined, sorted(cited - defined)


@pytest.mark.parametrize("gid,players,options", [(gid, n, o) for gid, tables in TABLES.items() for n, o in tables])
def test_every_legal_command_fits_the_schema(gid, players, options):
    g = game(gid)
    validator = jsonschema_rs.validator_for(g.command_schema)
    seen = set()
    for seed in SEEDS:
        for seat, cmds in play(g, players, options, seed + f"{players}{options}".encode()):
            for cmd in cmds:
                if not validator.is_valid(cmd):
                    pytest.fail(f"seat {seat}: {cmd} -> {[e.message for e in validator.iter_errors(cmd)]}")
                seen.add(cmd["type"])
    assert seen <= set(branches(gid))


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_every_accepted_command_type_is_in_the_schema(gid):
    """Schema types = documented vocabulary (a shipped game's rules module lists its commands),
    and cover every type legal_commands produced."""
    g = game(gid)
    seen = {cmd["type"] for n, o in TABLES[gid][:2] for _s, cmds in play(g, n, o, b"types") for cmd in cmds}
    documented = documented_types(gid)
    assert documented or not type(g).__module__.startswith("domain."), "the rules module lists no command"
    assert set(branches(gid)) == (documented or set(branches(gid))) | seen


@pytest.mark.parametrize("gid,bad", [
    ("saboteur", {"type": "play_path", "card": "A01", "x": 1, "y": 0}),  # an action card is no path
    ("saboteur", {"type": "map", "card": "A25", "goal": "D"}),
    ("saboteur", {"type": "take_gold", "values": []}),
    ("saboteur", {"type": "dig"}),
    ("mountain-king", {"type": "draft", "card": "amber-1", "slot": 5}),
    ("mountain-king", {"type": "dig", "tile": "L4", "cells": [[1, 2]], "anchor": None, "mineral": "coin"}),
    ("mountain-king", {"type": "cast", "spell": "earth_ritual", "slot": "B1"}),  # takes no parameters
    ("mountain-king", {"type": "cast", "spell": "troll_lure", "slot": "B1"}),  # needs res too
    ("mountain-king", {"type": "use_workshop", "space": [4, 1], "give": {"iron": 1}, "get": {"coin": 1},
                       "move": [1, 1, 0]}),
    ("mountain-king", {"type": "trade", "give": {"gold": 4}, "get": "coin"}),
    ("tiny", {"type": "guess", "target": 1, "digit": 10}),
])
def test_malformed_commands_do_not_fit(gid, bad):
    assert not jsonschema_rs.validator_for(game(gid).command_schema).is_valid(bad)


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_catalog_serves_the_command_schema(client, gid):
    resp = client.get(f"/v1/catalog/{gid}")
    assert resp.status_code == 200
    assert resp.json["command_schema"] == json.loads(json.dumps(game(gid).command_schema))


def test_every_spell_has_its_parameter_branch():
    """Mountain King's cast: each spellbook card falls under exactly one ``if spell in ...`` branch (MK-AMB-29)."""
    from domain.mountain_king.spells import SPELLS
    cast = branches("mountain-king")["cast"]
    covered = [sid for b in cast["allOf"] for sid in b["if"]["properties"]["spell"]["enum"]]
    assert sorted(covered) == sorted(SPELLS)
