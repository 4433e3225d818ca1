"""What the contract documents is what the server does: a client that validates its requests
against openapi.yaml sends nothing the server refuses as malformed, and every problem code
the server answers is named in it (an outside audit's client, written from the contract alone,
found these apart)."""
from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator
from werkzeug.exceptions import RequestTimeout

from server import spec
from tests.api.helpers import ADMIN, tiny_game

SPEC = spec.document()


def schema_of(schema: dict) -> Draft202012Validator:
    """A validator of one of the contract's schemas, its ``#/components`` references resolved."""
    return Draft202012Validator({**schema, "components": SPEC["components"]})


def state_at_parameter(name: str) -> dict:
    params = SPEC["paths"]["/v1/games/{id}/states/{version}"]["get"]["parameters"]
    return next(p for p in params if p.get("name") == name)["schema"]


@pytest.mark.parametrize("move,status,code", [("999999999", 404, "no_such_move"), ("1000000000", 400, "bad_move"),
                                              ("9" * 40, 400, "bad_move")])
def test_the_documented_move_range_is_the_one_the_server_reads(client, move, status, code):
    """A move of ten digits was a 400 "a move is a whole number from 1", where the contract
    allowed any integer from 1 and promised a 404 for a move the game has not reached."""
    gid = tiny_game(client)["id"]
    resp = client.get(f"/v1/games/{gid}/states/at?move={move}")
    assert resp.status_code == status and resp.json["code"] == code
    assert schema_of(state_at_parameter("move")).is_valid(int(move)) == (status == 404)
    if status == 400:
        assert "999999999" in resp.json["detail"]


def test_states_at_without_a_move_says_the_move_is_missing(client):
    """`at` fits the version's documented pattern, for ``?move=n``: without it the 400 said "a version is
    a whole number", as if `at` were a typo, where the client left out the move."""
    gid = tiny_game(client)["id"]
    resp = client.get(f"/v1/games/{gid}/states/at")
    assert resp.status_code == 400 and resp.json["code"] == "bad_version" and "?move=" in resp.json["detail"]
    assert client.get(f"/v1/games/{gid}/states/at?move=1").status_code in (200, 404)


@pytest.mark.parametrize("version,status", [("9" * 30, 404), ("9" * 31, 400)])
def test_the_documented_version_pattern_is_the_one_the_server_reads(client, version, status):
    gid = tiny_game(client)["id"]
    resp = client.get(f"/v1/games/{gid}/states/{version}")
    assert resp.status_code == status
    assert schema_of(state_at_parameter("version")).is_valid(version) == (status == 404)


@pytest.mark.parametrize("body", [
    {"kind": "adjudicated", "reason": "r", "places": {"e0": 1}, "scores": {"e0": 1_000_001}},
    {"kind": "adjudicated", "reason": "r", "places": {"e0": 1}, "scores": {"e0": -1_000_001}},
    {"kind": "adjudicated", "reason": "r", "places": {}},
    {"kind": "adjudicated", "reason": "r", "places": {f"e{i}": 1 for i in range(17)}},
    {"kind": "adjudicated", "reason": "r", "places": {"e" * 17: 1}},
    {"kind": "adjudicated", "reason": "r", "places": {"e0": 1}, "scores": {f"e{i}": 0 for i in range(17)}},
    {"kind": "adjudicated", "reason": "r", "places": {"e0": 1}, "losers": ["e1"]},
    {"kind": "forfeit", "reason": "r", "losers": ["e0"], "places": {"e0": 1}},
    {"kind": "walkover", "reason": "r", "losers": ["e0"], "scores": {}},
    {"kind": "double_forfeit", "reason": "r", "losers": ["e0"]},
])
def test_a_director_result_the_server_refuses_as_malformed_breaks_the_documented_schema(client, body):
    """A score past a million, or a field of another kind (losers on an adjudicated result), was a
    400 malformed_request while DecideResult allowed it."""
    for action in ("result", "correction"):
        resp = client.post(f"/v1/tournaments/tnone/rounds/1/tables/0/{action}", json=body, headers=ADMIN)
        assert resp.status_code == 400 and resp.json["code"] == "malformed_request", resp.json
    assert not schema_of({"$ref": "#/components/schemas/DecideResult"}).is_valid(body)


@pytest.mark.parametrize("body", [{}, {"name": "n"}, {"bot": "random", "player": "p1"}, {"player": "p1", "name": "n"},
                                  {"player": "p1", "level": "easy"}])
def test_an_entrant_the_server_refuses_as_malformed_breaks_the_documented_schema(client, body):
    """EntrantSpec listed bot, level, name and player, all optional: {} or a bot and a player at once
    was valid by the contract and a 400 malformed_request from the server."""
    resp = client.post("/v1/tournaments/tnone/entrants", json=body, headers=ADMIN)
    assert resp.status_code == 400 and resp.json["code"] == "malformed_request", resp.json
    assert not schema_of({"$ref": "#/components/schemas/EntrantSpec"}).is_valid(body)


@pytest.mark.parametrize("body", [{"bot": "random"}, {"bot": "search", "level": "easy", "name": "S"}, {"player": "p1"}])
def test_the_entrants_the_contract_describes_are_read(client, body):
    assert schema_of({"$ref": "#/components/schemas/EntrantSpec"}).is_valid(body)
    resp = client.post("/v1/tournaments/tnone/entrants", json=body, headers=ADMIN)
    assert resp.status_code == 404 and resp.json["code"] == "tournament_not_found", resp.json


def test_the_largest_documented_scores_are_read(client):
    body = {"kind": "adjudicated", "reason": "r", "places": {"e0": 1, "e1": 2},
            "scores": {"e0": 1_000_000, "e1": -1_000_000}}
    assert schema_of({"$ref": "#/components/schemas/DecideResult"}).is_valid(body)
    resp = client.post("/v1/tournaments/tnone/rounds/1/tables/0/result", json=body, headers=ADMIN)
    assert resp.status_code == 404 and resp.json["code"] == "tournament_not_found"


def test_a_request_timeout_is_a_problem_whose_code_the_contract_names(app):
    """A body that does not arrive within DELVE_BODY_TIMEOUT is a 408 (server.streams.BodyDeadline):
    its code was named nowhere in the Problem schema's list of every code."""
    with app.test_request_context("/v1/players", method="POST"):
        resp = app.handle_user_exception(RequestTimeout("the request body did not arrive in time"))
    assert resp.status_code == 408 and resp.mimetype == "application/problem+json"
    code = resp.get_json()["code"]
    assert f"408 `{code}`" in SPEC["components"]["schemas"]["Problem"]["description"]
