"""POST /v1/audit/verify judges any upload: whatever an envelope or a signature line holds, the
answer is a 200 verdict, never a 500 (an outside audit's client found these: a list as an event's
type, a string as its data, a list as the game a GameCreated names, a list as a statement's key id,
a string as a statement, a string as a tournament event's data)."""
from __future__ import annotations

import json

import pytest

from tests.api.helpers import auth, tiny_game


def verify(client, lines: list) -> dict:
    body = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n"
    resp = client.post("/v1/audit/verify", data=body, content_type="application/x-ndjson")
    assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
    return resp.json


@pytest.fixture
def record(client) -> list[dict]:
    """The export of a finished tiny game: every envelope, then its signature lines."""
    created = tiny_game(client)
    resigned = client.post(f"/v1/games/{created['id']}/resign", headers=auth(created["seats"][0]["token"]))
    assert resigned.status_code == 201
    export = client.get(f"/v1/games/{created['id']}/export")
    assert export.status_code == 200
    return [json.loads(line) for line in export.data.decode().splitlines()]


def test_the_record_as_exported_verifies(client, record):
    assert verify(client, record)["ok"] is True


@pytest.mark.parametrize("line", [0, 1, -3])  # GameCreated, the next envelope, the last envelope
@pytest.mark.parametrize("field,value", [("type", ["GameCreated"]), ("type", {"a": 1}), ("type", None), ("type", 5),
                                         ("data", "x"), ("data", 5), ("data", ["x"]), ("data", None)])
def test_an_envelope_whose_type_or_data_is_of_another_kind_is_a_verdict(client, record, line, field, value):
    record[line][field] = value
    verdict = verify(client, record)
    assert verdict["ok"] is False and verdict["problems"]


@pytest.mark.parametrize("field,value", [("game", ["tiny"]), ("game", {"a": 1}), ("game", 5),
                                         ("rules_version", ["tiny-1"]), ("rules_version", {"a": 1})])
def test_a_game_created_naming_its_game_with_something_else_than_a_string_is_a_verdict(client, record, field, value):
    record[0]["data"][field] = value
    verdict = verify(client, record)
    assert verdict["ok"] is False
    assert any("GameCreated does not name its game" in p["problem"] for p in verdict["problems"])


@pytest.mark.parametrize("value", [[], ["x"], {}, {"a": 1}, 5])
def test_a_statement_whose_key_id_is_not_a_string_is_a_verdict(client, record, value):
    for line in record:
        if "signature" in line:
            line["signature"]["statement"]["key_id"] = value
    verdict = verify(client, record)
    assert verdict["ok"] is False and any("key_id" in p["problem"] for p in verdict["problems"])


@pytest.mark.parametrize("value", ["x", 5, 1.5, True, ["x"]])
def test_a_signature_line_whose_statement_is_not_an_object_is_a_verdict(client, record, value):
    """The line was read for its kind before anything else (``records.vouched``): a crash."""
    for line in record:
        if "signature" in line:
            line["signature"]["statement"] = value
    verify(client, record)
    verify(client, [record[0], {"signature": {"statement": value}}])


@pytest.mark.parametrize("data", ["x", 5, ["x"], None])
def test_a_tournament_event_whose_data_is_not_an_object_is_a_verdict(client, data):
    header = {"bundle": "delve-tournament", "tournament": "t1", "games": []}
    verdict = verify(client, [header, {"seq": 1, "game_id": "t1", "type": "EntrantRegistered", "data": data}])
    assert verdict["ok"] is False and verdict["tournament"] == "t1"
