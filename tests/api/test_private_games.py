"""A private game is private: every route of a game, walked with every kind of token.

Joining, reading and streaming a private game need a token of that game (a seat's, a seated
player's, its invite token) or the admin's; nothing else gets in, whatever route it tries.
"""
from __future__ import annotations

import pytest

from tests.api.helpers import ADMIN, auth

READS = ("", "/legal-actions", "/events", "/events/stream", "/states/{version}", "/scores", "/audit", "/export")
WRITES = ("/actions", "/resign", "/abort", "/leave", "/cancel", "/join")
INSIDERS = ("seat", "seated_player", "invite", "admin")
OUTSIDERS = ("none", "garbage", "other_games_seat", "outsider_player")


def _player(client, name: str) -> dict:
    resp = client.post("/v1/players", json={"name": name})
    assert resp.status_code == 201
    return resp.json


@pytest.fixture
def private(client):
    """An active private game (seat 0 named, seat 1 taken by a player it was reserved for) and a token of each kind."""
    creator, seated, outsider = (_player(client, n) for n in ("cleo", "sam", "otto"))
    created = client.post("/v1/games", headers=auth(creator["token"]), json={
        "game": "tiny", "visibility": "private", "seats": [{"name": "a"}, {"player": seated["id"]}]}).json
    gid = created["id"]
    assert client.post(f"/v1/games/{gid}/join", headers=auth(seated["token"]), json={}).status_code == 201
    other = client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "x"}, {"name": "y"}]}).json
    tokens = {"none": None, "garbage": "not-a-token", "other_games_seat": other["seats"][0]["token"],
              "outsider_player": outsider["token"], "seat": created["seats"][0]["token"],
              "seated_player": seated["token"], "invite": created["invite_token"], "admin": "admin-secret"}
    return gid, tokens


def _get(client, gid: str, path: str, token: str | None):
    path = path.format(version=client.get(f"/v1/games/{gid}", headers=ADMIN).json["version"])
    resp = client.get(f"/v1/games/{gid}{path}?after=0" if path.endswith("stream") else f"/v1/games/{gid}{path}",
                      headers=auth(token), buffered=False)
    first = next(iter(resp.response), b"") if resp.status_code == 200 else b""
    status, body = resp.status_code, (resp.get_json(silent=True) if resp.status_code != 200 else None)
    resp.close()
    return status, body, first


@pytest.mark.parametrize("path", READS)
@pytest.mark.parametrize("kind", OUTSIDERS)
def test_an_outsider_reads_nothing_of_a_private_game(client, private, path, kind):
    gid, tokens = private
    status, body, _ = _get(client, gid, path, tokens[kind])
    assert (status, body["code"]) == ((401, "invalid_token") if kind in ("garbage", "other_games_seat")
                                      else (403, "private_game")), (path, kind)


@pytest.mark.parametrize("path", READS)
@pytest.mark.parametrize("kind", INSIDERS)
def test_a_token_of_the_game_reads_it(client, private, path, kind):
    gid, tokens = private
    status, body, first = _get(client, gid, path, tokens[kind])
    if path == "/export" and kind != "admin":  # before the end only the admin exports, private or public
        assert (status, body["code"]) == (403, "export_before_end")
    else:
        assert status == 200 and first, (path, kind)


@pytest.mark.parametrize("path", WRITES)
@pytest.mark.parametrize("kind", OUTSIDERS + ("invite",))
def test_an_outsider_changes_nothing_of_a_private_game(client, private, path, kind):
    gid, tokens = private
    before = client.get(f"/v1/games/{gid}", headers=ADMIN).json["version"]
    resp = client.post(f"/v1/games/{gid}{path}", headers=auth(tokens[kind]), json={})
    if kind == "invite":  # a spectator of the game: told what it may read, allowed nothing
        assert 400 <= resp.status_code < 500, (path, resp.json)
    else:  # told nothing about the game
        assert resp.status_code in (401, 403), (path, kind, resp.json)
        assert resp.json["code"] in ("private_game", "invalid_token", "token_required", "player_token_required",
                                     "invalid_player_token", "admin_only", "not_creator"), (path, kind, resp.json)
    assert client.get(f"/v1/games/{gid}", headers=ADMIN).json["version"] == before


def test_joining_a_private_game_needs_its_invite_token(client):
    creator, guest = _player(client, "cleo"), _player(client, "gus")
    created = client.post("/v1/games", headers=auth(creator["token"]), json={
        "game": "tiny", "visibility": "private", "seats": [{"name": "a"}, {"open": True}]}).json
    gid = created["id"]
    for body in ({}, {"invite": "guessed"}, {"invite": None}):
        refused = client.post(f"/v1/games/{gid}/join", headers=auth(guest["token"]), json=body)
        assert refused.status_code == 403 and refused.json["code"] == "private_game", body
    assert client.get(f"/v1/games/{gid}", headers=auth(guest["token"])).json["code"] == "private_game"
    joined = client.post(f"/v1/games/{gid}/join", headers=auth(guest["token"]),
                         json={"invite": created["invite_token"]})
    assert joined.status_code == 201 and joined.json["status"] == "active"
    assert client.get(f"/v1/games/{gid}", headers=auth(guest["token"])).json["seats"][1]["player"] == guest["id"]
