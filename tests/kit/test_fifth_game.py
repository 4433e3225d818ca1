"""A new game is its package plus one registry line (docs/adding-a-game.md).

The house dice game (tests/support/house/: ``rules.py`` with ``GAME``, ``RULES.md``) stands in
for a fifth game: its one registry line is ``registry.register(HOUSE)`` in tests/conftest.py (a
shipped game's is its entry in ``domain/registry.py``). Nothing else outside its package names
it, yet the catalog serves it, /openapi.yaml documents it, the API plays it with its bot and
verifies its export, the viewer page shows it (with the generic renderer: it declares none),
its refusals link its rules, and every cross-game suite runs on it, because each reads the
registry and what the game declares (rule prefix, renderer, content, schemas, bots).
"""
from __future__ import annotations

from pathlib import Path

import yaml
from jsonschema import Draft202012Validator

from application.replay import verify
from domain import registry
from errors import Stalled
from tests import test_rule_citations
from tests.api import test_api_fuzz, test_command_schemas
from tests.browser import site
from tests.conformance import test_conformance, test_legal_both_ways
from tests.platform import test_platform_commands, test_real_games
from tests.support.house.rules import GAME as HOUSE
from workers.inprocess import InProcessDriver

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tests" / "support" / "house"


def test_the_registry_serves_the_fifth_game():
    assert "house" in registry.available() and registry.get("house") is HOUSE
    assert registry.versions("house") == ["house-1"]


def test_the_catalog_lists_it_with_its_declarations(client):
    entry = next(g for g in client.get("/v1/catalog").json["games"] if g["id"] == "house")
    assert entry["renderer"] is None  # no board renderer declared: the viewer shows its view as JSON
    assert entry["bots"] == ["random"] and (entry["min_players"], entry["max_players"]) == (1, 4)
    detail = client.get("/v1/catalog/house").json
    assert detail["command_schema"] == HOUSE.command_schema and detail["content"] == HOUSE.content()


def test_openapi_documents_its_commands_and_options(client):
    """Composed from the registry when served: no edit of server/openapi.yaml."""
    served = yaml.safe_load(client.get("/openapi.yaml").data)
    schemas = served["components"]["schemas"]
    assert set(schemas["HouseCommand"]["discriminator"]["mapping"]) == {"roll", "stand"}
    assert {"$ref": "#/components/schemas/HouseCommand"} in schemas["GameCommand"]["anyOf"]
    assert schemas["CreateGameRequest"]["discriminator"]["mapping"]["house"] == "#/components/schemas/CreateHouseGame"
    create = Draft202012Validator({"$ref": "#/components/schemas/CreateGameRequest", "components": served["components"]})
    assert create.is_valid({"game": "house", "seats": [{"name": "a"}], "options": {"rounds": 3}})
    assert not create.is_valid({"game": "house", "seats": [{"name": "a"}], "options": {"rounds": 11}})  # HD-SEAT-1
    assert "HouseCommand" not in (ROOT / "server" / "openapi.yaml").read_text()


def test_the_api_plays_it_with_its_bot_and_the_export_verifies(client, service):
    """A person in seat 0 beside its random bot; the house moves between rounds (HD-HOUSE-1)."""
    created = client.post("/v1/games", json={"game": "house", "seats": [{"name": "you"}, {"name": "b", "bot": "random"}],
                                             "options": {"rounds": 2}}).json
    gid, me = created["id"], {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    with InProcessDriver(service) as driver:
        for _ in range(2 * 2 + 2):  # bounded: the person's moves, one a round
            game = client.get(f"/v1/games/{gid}").json
            if game["status"] == "finished":
                break
            legal = client.get(f"/v1/games/{gid}/legal-actions", headers=me).json
            assert [c["type"] for c in legal["commands"]] == ["roll", "stand"], legal
            moved = client.post(f"/v1/games/{gid}/actions", headers=me,
                                json={"expected_version": legal["version"], "command": {"type": "stand"}})
            assert moved.status_code == 201, moved.json
            try:
                driver.run([gid])  # the bot and the house answer, until it is the person's turn again
            except Stalled:
                pass
    assert not driver.errors
    game = client.get(f"/v1/games/{gid}").json
    assert game["status"] == "finished" and game["outcome"] == {"kind": "no_player_wins", "winners": ["actor:house"]}
    assert game["view"]["totals"][0] == 6  # stood twice (HD-TURN-1)
    export = client.get(f"/v1/games/{gid}/export")
    assert export.status_code == 200 and verify(export.data.decode().splitlines()).ok
    verdict = client.post("/v1/audit/verify", data=export.data, content_type="application/x-ndjson").json
    assert verdict["ok"], verdict


def test_a_refusal_cites_its_rule_and_links_its_rules_page(client):
    created = client.post("/v1/games", json={"game": "house", "seats": [{"name": "a"}, {"name": "b"}]}).json
    second = {"Authorization": f"Bearer {created['seats'][1]['token']}"}
    refused = client.post(f"/v1/games/{created['id']}/actions", headers=second,
                          json={"expected_version": created["version"], "command": {"type": "roll"}})
    assert refused.status_code == 422
    assert (refused.json["code"], refused.json["rule"]) == ("not_your_turn", "HD-TURN-1")
    assert refused.json["rule_url"] == "/rules/house#HD-TURN-1"
    page = client.get("/rules/house")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert all(f'id="{rule}"' in html for rule in ("HD-SEAT-1", "HD-TURN-1", "HD-HOUSE-1", "HD-END-1"))


def test_the_viewer_page_shows_it(client):
    """The page and the scripts it loads; a game without a renderer is drawn by generic.js
    (the browser suite, tests/browser/test_viewer_browser.py, opens it in Chromium)."""
    created = client.post("/v1/games", json={"game": "house", "seats": [{"name": "a"}]}).json
    page = client.get(f"/web/games/{created['id']}")
    assert page.status_code == 200 and "/web/static/viewer.js" in page.get_data(as_text=True)
    viewer = client.get("/web/static/viewer.js").get_data(as_text=True)
    assert "if (!entry || !entry.renderer) return GENERIC;" in viewer
    assert client.get("/web/static/generic.js").status_code == 200
    assert "house" in site.GAMES


def test_every_cross_game_suite_runs_on_it():
    assert {"house"} <= {gid for gid, _n in test_conformance.TABLES}
    assert any(i.startswith("house-") for i in test_legal_both_ways.IDS)
    assert "house" in test_api_fuzz.GAMES and "house" in test_command_schemas.GAMES
    assert "house" in {g for g, _n in test_platform_commands.RESIGN_TABLES}
    assert "house" in {t[0] for t in test_real_games.TABLES}
    assert test_rule_citations.SPECS["house"] == "HD"  # each rule of its RULES.md is cited by a test


def test_nothing_outside_its_package_names_it_but_the_registry_line():
    """Outside its own package, its tests and this demonstration, only its registry line imports it."""
    own = {Path(__file__),
           ROOT / "tests" / "platform" / "test_platform_commands.py",  # its own rules tests (HD-HOUSE-1, HD-END-1)
           ROOT / "tests" / "kit" / "test_kit.py"}                      # the kit's sample game
    mentions = [p for folder in ("domain", "application", "server", "workers", "benchmarks", "delve", "tests")
                for p in (ROOT / folder).rglob("*.py")
                if PACKAGE not in p.parents and p not in own and "support.house" in p.read_text()]
    assert mentions == [ROOT / "tests" / "conftest.py"], mentions
