"""A new game is its package plus one registry line (docs/adding-a-game.md).

The house dice game (tests/support/housegame.py) stands in for a fifth game: its
one registry line is ``registry.register(HOUSE)`` in tests/conftest.py (a shipped
game's is its entry in ``domain/registry.py``). Nothing else outside its module
names it, yet the catalog serves it and every cross-game suite runs on it,
because each reads the registry and what the game declares (rule prefix,
renderer, content, schemas, bots).
"""
from __future__ import annotations

from pathlib import Path

from domain import registry
from tests.api import test_api_fuzz, test_command_schemas
from tests.conformance import test_conformance, test_legal_both_ways
from tests.platform import test_platform_commands, test_real_games
from tests.support.housegame import GAME as HOUSE

ROOT = Path(__file__).resolve().parents[2]


def test_the_registry_serves_the_fifth_game():
    assert "house" in registry.available() and registry.get("house") is HOUSE
    assert registry.versions("house") == ["house-1"]


def test_the_catalog_lists_it_with_its_declarations(client):
    entry = next(g for g in client.get("/v1/catalog").json["games"] if g["id"] == "house")
    assert entry["renderer"] is None  # no board renderer declared: the viewer shows its view as JSON
    detail = client.get("/v1/catalog/house").json
    assert detail["command_schema"] == HOUSE.command_schema and detail["content"] == HOUSE.content()


def test_every_cross_game_suite_runs_on_it():
    assert {"house"} <= {gid for gid, _n in test_conformance.TABLES}
    assert any(i.startswith("house-") for i in test_legal_both_ways.IDS)
    assert "house" in test_api_fuzz.GAMES and "house" in test_command_schemas.GAMES
    assert "house" in {g for g, _n in test_platform_commands.RESIGN_TABLES}
    assert "house" in {t[0] for t in test_real_games.TABLES}


def test_nothing_outside_its_module_names_it_but_the_registry_line():
    """Outside its own module, its tests and this demonstration, only its registry line
    imports it."""
    own = {ROOT / "tests" / "support" / "housegame.py", Path(__file__),
           ROOT / "tests" / "platform" / "test_platform_commands.py",  # its own rules tests (HOUSE-1..4)
           ROOT / "tests" / "kit" / "test_kit.py"}                      # the kit's sample game
    mentions = [p for folder in ("domain", "application", "server", "workers", "benchmarks", "delve", "tests")
                for p in (ROOT / folder).rglob("*.py") if p not in own and "housegame" in p.read_text()]
    assert mentions == [ROOT / "tests" / "conftest.py"], mentions
