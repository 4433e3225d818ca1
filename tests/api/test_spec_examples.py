"""The spec's examples are true: each one fits its own schema, each example request is accepted
by the running API as written, and each example response is one the API produces.

A client author copies these examples first; an example that names an event the server never
emits (or a body it refuses) sends them astray. A new example in openapi.yaml fails
``test_every_example_is_exercised`` until a test here sends or compares it.
"""
from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from server import spec

SPEC = spec.document()
REGISTRY = Registry().with_resource("urn:delve-openapi", DRAFT202012.create_resource(SPEC))
JSON = "application/json"
# Every example in the spec, by where it sits; the tests below exercise each.
EXERCISED = {
    ("createGame", "request"), ("createGame", "201"), ("getLegalActions", "200"),
    ("postAction", "request"), ("postAction", "201"), ("postAction", "422"),
}


def pointer(*parts: str) -> str:
    return "/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def operation(operation_id: str) -> tuple[str, str, dict]:
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            if isinstance(op, dict) and op.get("operationId") == operation_id:
                return path, method, op
    raise KeyError(operation_id)


def media(operation_id: str, where: str) -> tuple[str, dict]:
    """(JSON pointer of the schema, the media object) of a request body or a response."""
    path, method, op = operation(operation_id)
    if where == "request":
        parts = ("paths", path, method, "requestBody", "content", JSON)
    else:
        [kind] = op["responses"][where]["content"]
        parts = ("paths", path, method, "responses", where, "content", kind)
    node = SPEC
    for p in parts:
        node = node[p]
    return pointer(*parts, "schema"), node


def validate(schema_pointer: str, value) -> None:
    Draft202012Validator({"$ref": "urn:delve-openapi#" + schema_pointer}, registry=REGISTRY).validate(value)


def example(operation_id: str, where: str):
    return media(operation_id, where)[1]["example"]


def all_examples() -> set[tuple[str, str]]:
    found = set()
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            if not isinstance(op, dict):
                continue
            for m in op.get("requestBody", {}).get("content", {}).values():
                if "example" in m or "examples" in m:
                    found.add((op["operationId"], "request"))
            for status, resp in op.get("responses", {}).items():
                for m in resp.get("content", {}).values():
                    if "example" in m or "examples" in m:
                        found.add((op["operationId"], status))
    for name, schema in SPEC["components"]["schemas"].items():
        if "example" in schema or "examples" in schema:
            found.add((name, "schema"))
    return found


def test_every_example_is_exercised():
    assert all_examples() == EXERCISED


@pytest.mark.parametrize("where", sorted(EXERCISED))
def test_every_example_fits_its_schema(where):
    name, place = where
    if place == "schema":
        validate(pointer("components", "schemas", name), SPEC["components"]["schemas"][name]["example"])
    else:
        schema_pointer, m = media(name, place)
        validate(schema_pointer, m["example"])


def same_shape(example_value, actual, where: str = "") -> None:
    """The example has the keys (recursively, through lists) of what the API really answered."""
    if isinstance(example_value, dict):
        assert isinstance(actual, dict), where
        assert set(example_value) == set(actual), (where, sorted(set(example_value) ^ set(actual)))
        for key, value in example_value.items():
            same_shape(value, actual[key], f"{where}.{key}")
    elif isinstance(example_value, list) and example_value and actual:
        pairs = zip(example_value, actual) if len(example_value) == len(actual) else \
            ((item, actual[0]) for item in example_value)  # a few of many alike (seats, commands)
        for i, (item, real) in enumerate(pairs):
            same_shape(item, real, f"{where}[{i}]")


def _game_where_the_example_move_is_legal(client, attempts: int = 300):
    """Games created by createGame's example until one deals the example's move to its first seat
    (the example's seat 0 starts: ``first_player`` 0); returns its create response and legal actions."""
    move = example("postAction", "request")
    for _ in range(attempts):
        resp = client.post("/v1/games", json=example("createGame", "request"))
        assert resp.status_code == 201, resp.json
        created = resp.json
        auth = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
        legal = client.get(f"/v1/games/{created['id']}/legal-actions", headers=auth).json
        if move["command"] in legal["commands"]:
            return created, auth, legal
    raise AssertionError(f"no deal of {attempts} put the example's move in the first seat's hand")


def test_the_game_examples_are_what_the_api_says(client):
    """createGame's body is accepted; legal-actions lists the example's commands with its labels;
    postAction's body, as written, is accepted (201) at that version, and answers the example's events."""
    created, auth, legal = _game_where_the_example_move_is_legal(client)
    validate(media("createGame", "201")[0], created)
    same_shape(example("createGame", "201"), created, "createGame 201")
    assert created["version"] == example("createGame", "201")["version"]

    validate(media("getLegalActions", "200")[0], legal)
    shown = example("getLegalActions", "200")
    assert (legal["version"], legal["seat"]) == (shown["version"], shown["seat"])
    key = lambda command: json.dumps(command, sort_keys=True)  # noqa: E731
    labels = {key(c): label for c, label in zip(legal["commands"], legal["labels"])}
    for command, label in zip(shown["commands"], shown["labels"], strict=True):
        assert labels.get(key(command)) == label, (command, labels.get(key(command)))

    move = example("postAction", "request")
    resp = client.post(f"/v1/games/{created['id']}/actions", headers=auth, json=move)
    assert resp.status_code == 201, resp.json
    validate(media("postAction", "201")[0], resp.json)
    answered = example("postAction", "201")
    same_shape(answered, resp.json, "postAction 201")
    assert [e["type"] for e in resp.json["events"]] == [e["type"] for e in answered["events"]]
    assert resp.json["version"] == answered["version"]


def test_the_refusal_example_is_a_real_refusal(client):
    """postAction's 422 example is what the API answers to the example's move aimed at the start card's cell."""
    created, auth, legal = _game_where_the_example_move_is_legal(client)
    move = example("postAction", "request")
    onto_start = {**move, "command": {**move["command"], "x": 0, "y": 0}}
    refused = client.post(f"/v1/games/{created['id']}/actions", headers=auth, json=onto_start)
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json"
    assert refused.json == example("postAction", "422")
