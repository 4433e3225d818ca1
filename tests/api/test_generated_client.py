"""The spec is valid and a generated client plays with it (issue 12, item 2).

openapi-spec-validator checks the served document; openapi-python-client
generates a client from it once per session into a temporary directory (offline,
a few seconds; nothing generated is committed), and that client — typed commands
and all — plays a Saboteur game to the end against the app, reads the export
and has it verified. The games' command and option schemas in the spec are
every registered game's own, composed when the document is served.
"""
from __future__ import annotations

import importlib
import io
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import yaml
from openapi_spec_validator import validate

from domain import registry
from server import openapi_games, spec

ROOT = Path(__file__).resolve().parents[2]
SPEC_TEXT = spec.text()


def test_the_spec_validates():
    validate(yaml.safe_load(SPEC_TEXT))


def test_the_spec_publishes_each_registered_games_own_schemas():
    """Composed when served: a game's schema change, or a new game's registry line, needs no edit of the file."""
    schemas = yaml.safe_load(SPEC_TEXT)["components"]["schemas"]
    games = openapi_games.registered_games()
    assert [g.id for g in games] == registry.available()
    assert {name: schemas.get(name) for name in openapi_games.components(games)} == openapi_games.components(games)
    for game in games:
        name = openapi_games.pascal(game.id)
        union = schemas[f"{name}Command"]
        kinds = {b["properties"]["type"]["const"] for b in game.command_schema["oneOf"]}
        assert union["discriminator"]["propertyName"] == "type" and set(union["discriminator"]["mapping"]) == kinds
        assert {"$ref": f"#/components/schemas/{name}Command"} in schemas["GameCommand"]["anyOf"]
        assert schemas["CreateGameRequest"]["discriminator"]["mapping"][game.id].endswith(f"/Create{name}Game")
    committed = yaml.safe_load(spec.PATH.read_text())["components"]["schemas"]
    assert not set(committed) & set(openapi_games.components(games)), "the file holds no game's schemas"


def test_every_operation_declares_429_500_503():
    for path, item in yaml.safe_load(SPEC_TEXT)["paths"].items():
        for method, op in item.items():
            assert {"429", "500", "503"} <= set(op["responses"]), (method, path)


@pytest.fixture(scope="session")
def delve_client(tmp_path_factory):
    out = tmp_path_factory.mktemp("generated") / "client"
    served = out.with_name("openapi.yaml")
    served.write_text(SPEC_TEXT)
    done = subprocess.run([str(Path(sys.executable).with_name("openapi-python-client")), "generate",
                           "--path", str(served),
                           "--config", str(ROOT / "clients" / "openapi-python-client.yaml"),
                           "--output-path", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout, done.stdout  # a skipped operation or response is a warning
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("delve_client")
    finally:
        sys.path.remove(str(out))


def test_a_generated_client_plays_a_game_reads_the_export_and_verifies(app, delve_client):
    from delve_client import AuthenticatedClient, Client
    from delve_client.api.audit import export_game, get_audit, verify_export
    from delve_client.api.games import create_game, get_game, get_legal_actions, post_action
    from delve_client.models import ActionRequest, CreateSaboteurGame, SaboteurCommandPass, Verdict
    from delve_client.types import File

    wsgi = {"transport": httpx.WSGITransport(app=app)}
    base = "http://delve.test"
    spectator = Client(base_url=base, httpx_args=wsgi, raise_on_unexpected_status=True)
    created = create_game.sync(client=spectator, body=CreateSaboteurGame.from_dict(
        {"game": "saboteur", "seats": [{"name": f"p{i}"} for i in range(3)], "options": {}}))
    seats = [AuthenticatedClient(base_url=base, token=s.token, httpx_args=wsgi, raise_on_unexpected_status=True)
             for s in created.seats]
    service = app.extensions["delve.service"]
    typed = set()
    for _ in range(600):
        summary = get_game.sync(created.id, client=spectator)
        if not summary.active_seats:
            break
        me = seats[summary.active_seats[0]]
        legal = get_legal_actions.sync(created.id, client=me)
        request = ActionRequest.from_dict({"expected_version": legal.version,
                                           "command": legal.commands[0].to_dict()})
        typed.add(type(request.command).__name__)
        answer = post_action.sync_detailed(created.id, client=me, body=request)
        assert answer.status_code == 201, answer.content
    assert "SaboteurCommandPass" in typed and SaboteurCommandPass  # commands travel as typed models
    assert service.finalize(created.id)
    export = export_game.sync(created.id, client=spectator)
    assert isinstance(export, File)
    body = export.payload.read()
    verdict = verify_export.sync(client=spectator, body=File(payload=io.BytesIO(body)))
    assert isinstance(verdict, Verdict) and verdict.ok, verdict
    assert verdict.chain_head == get_audit.sync(created.id, client=spectator).chain_head


def a_set_option(game) -> dict:
    """Options with the game's last boolean option set away from its default: something to lose
    (the last: a first one such as Mountain King's `teams` asks for a table of its own); a game
    with no boolean option has its first integer one at its maximum."""
    props = game.options_schema["properties"]
    flags = [k for k, v in props.items() if v.get("type") == "boolean"]
    if flags:
        return {flags[-1]: not props[flags[-1]].get("default", False)}
    name = next(k for k, v in props.items() if v.get("type") == "integer")
    return {name: props[name]["maximum"]}


def test_a_generated_client_round_trips_every_games_options(app, delve_client):
    """CreateGameRequest was an anyOf of the options alone: a generated client parsed Mountain King's,
    DWARF's and Indagar's options as Saboteur's and dropped them. Now it is one shape per game, told
    apart by `game`, and every game's options survive the client and reach the game as sent."""
    from delve_client import Client, models
    from delve_client.api.games import create_game

    client = Client(base_url="http://delve.test", httpx_args={"transport": httpx.WSGITransport(app=app)},
                    raise_on_unexpected_status=True)
    service = app.extensions["delve.service"]
    for game in openapi_games.registered_games():
        body = {"game": game.id, "seats": [{"name": f"p{i}"} for i in range(max(game.min_players, 2))],
                "options": a_set_option(game)}
        model = getattr(models, f"Create{openapi_games.pascal(game.id)}Game").from_dict(body)
        assert model.to_dict() == body, game.id
        created = create_game.sync(client=client, body=model)
        assert hasattr(created, "id"), (game.id, created)
        stored = service.store.read(created.id, after=0, limit=1)[0]["data"]["options"]
        assert stored.items() >= body["options"].items(), game.id


def test_what_the_create_schema_accepts_is_a_game_the_server_creates():
    """The probe found {} as a seat, and one game's options under another, passing the schema and
    then refused by the server: the schema now says what the server takes."""
    from jsonschema import Draft202012Validator

    spec = yaml.safe_load(SPEC_TEXT)
    check = Draft202012Validator({"$ref": "#/components/schemas/CreateGameRequest", "components": spec["components"]})
    seats = [{"name": "a"}, {"name": "b"}, {"name": "c"}]
    assert check.is_valid({"game": "saboteur", "seats": seats, "options": {"auto_pass_empty_hand": True}})
    assert not check.is_valid({"game": "saboteur", "seats": [{}, {"name": "b"}, {"name": "c"}]})
    assert not check.is_valid({"game": "saboteur", "seats": seats, "options": {"clan_carts_generic_payment": True}})
    assert not check.is_valid({"game": "mountain-king", "seats": seats, "options": {"auto_pass_empty_hand": True}})
    assert not check.is_valid({"game": "saboteur", "seats": [{"name": "a\u200bb"}, *seats[1:]]})
