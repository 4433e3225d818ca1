"""Request bodies are ``application/json``, the only media type the contract names for them; the
API has no PATCH. An outside audit found ``application/merge-patch+json`` (and any ``+json`` type)
read as plain JSON, so a client sending an RFC 7396 merge patch had it applied as a whole document.
Every JSON-body operation now answers it 415 ``unsupported_media_type`` and does nothing."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.api.helpers import ADMIN, auth, tiny_game

SPEC = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
JSON_BODIES = [(method, path) for path, ops in SPEC["paths"].items() for method, op in ops.items()
               if isinstance(op, dict) and "application/json" in op.get("requestBody", {}).get("content", {})]
REFUSED = ["application/merge-patch+json", "application/json-patch+json", "application/vnd.delve+json",
           "application/problem+json", "text/json"]


def test_the_contract_names_only_application_json_for_those_bodies_and_no_patch():
    assert len(JSON_BODIES) >= 10
    for method, path in JSON_BODIES:
        assert list(SPEC["paths"][path][method]["requestBody"]["content"]) == ["application/json"], (method, path)
        assert "415" in SPEC["paths"][path][method]["responses"]
    assert not any("patch" in ops for ops in SPEC["paths"].values())


@pytest.fixture
def urls(client) -> dict[str, tuple[str, dict]]:
    """Each JSON-body path with real ids in it (a game, a tournament with an entrant, its round 0 table 0)
    and the token it wants (a seat's, a player's, else the admin's), so only the body is wrong."""
    game = tiny_game(client)
    player = client.post("/v1/players", json={"name": "pat"}).json
    t = client.post("/v1/tournaments", headers=ADMIN, json={
        "game": "tiny", "format": "swiss", "table_size": 2, "start_at": "2099-01-01T00:00:00Z",
        "entrants": [{"bot": "random"}, {"bot": "random"}]}).json
    ids = {"id": game["id"], "tournament_id": t["id"], "entrant": t["entrants"][0]["id"], "round_no": "0", "table": "0"}
    token = {"/v1/games/{id}/actions": auth(game["seats"][0]["token"]),
             "/v1/games/{id}/resign": auth(game["seats"][0]["token"]), "/v1/games/{id}/join": auth(player["token"])}
    return {path: (path.format(**ids), token.get(path, ADMIN)) for _m, path in JSON_BODIES}


@pytest.mark.parametrize("method,path", JSON_BODIES, ids=[p for _m, p in JSON_BODIES])
@pytest.mark.parametrize("media_type", REFUSED)
def test_a_body_of_another_media_type_is_a_415_problem(client, urls, method, path, media_type):
    url, headers = urls[path]
    resp = client.open(url, method=method.upper(), data=json.dumps({"name": "x"}), content_type=media_type,
                       headers=headers)
    assert resp.status_code == 415 and resp.mimetype == "application/problem+json", resp.get_data(as_text=True)
    assert resp.json["code"] == "unsupported_media_type" and "application/json" in resp.json["detail"]


def test_a_merge_patch_writes_nothing_and_says_the_api_takes_none(client):
    before = client.get("/v1/games").json
    resp = client.post("/v1/games", data=json.dumps({"game": "tiny", "seats": [{"name": "a"}, {"name": "b"}]}),
                       content_type="application/merge-patch+json")
    assert resp.status_code == 415 and "merge patch" in resp.json["detail"]
    assert client.get("/v1/games").json == before


def test_application_json_with_a_charset_is_read(client):
    resp = client.post("/v1/players", data=json.dumps({"name": "ann"}), content_type="application/json; charset=utf-8")
    assert resp.status_code == 201


def test_a_patch_is_a_405_that_names_the_methods(client):
    game = tiny_game(client)
    resp = client.patch(f"/v1/games/{game['id']}", data=json.dumps({"status": "finished"}),
                        content_type="application/merge-patch+json", headers=auth(game["seats"][0]["token"]))
    assert resp.status_code == 405 and resp.mimetype == "application/problem+json"
    assert "PATCH" not in resp.headers["Allow"]
