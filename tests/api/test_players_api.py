"""Players, open seats, joining and private games over HTTP (issue 9)."""
from __future__ import annotations

import hashlib
import hmac
import secrets

from application.replay import verify


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def new_player(client, name):
    resp = client.post("/v1/players", json={"name": name})
    assert resp.status_code == 201 and resp.headers["Location"] == f"/v1/players/{resp.json['id']}"
    return resp.json


def test_create_player_shows_the_token_once_and_stores_its_hash(client, r, prefix):
    ann = new_player(client, "ann")
    assert set(ann) == {"id", "name", "token", "created_at"} and ann["name"] == "ann"
    dump = b"".join(v for k in r.scan_iter(f"{prefix}:players:*") if r.type(k) == b"string" for v in [r.get(k)])
    dump += b"".join(b"".join(r.hgetall(k).values()) for k in r.scan_iter(f"{prefix}:players:*")
                     if r.type(k) == b"hash")
    assert ann["token"].encode() not in dump
    profile = client.get(f"/v1/players/{ann['id']}").json
    assert profile == {"id": ann["id"], "name": "ann", "created_at": ann["created_at"], "ratings": {},
                       "rating_history": [], "games": []}
    assert "token" not in profile


def test_player_errors_are_problems(client):
    assert client.post("/v1/players", json={"name": ""}).status_code == 400
    assert client.post("/v1/players", json={"name": "x", "extra": 1}).status_code == 400
    missing = client.get("/v1/players/pnope")
    assert missing.status_code == 404 and missing.json["code"] == "player_not_found"
    game = client.post("/v1/games", json={"game": "tiny", "seats": [{"open": True}, {"open": True}]}).json
    assert client.post(f"/v1/games/{game['id']}/join", json={}).json["code"] == "player_token_required"
    bad = client.post(f"/v1/games/{game['id']}/join", json={}, headers=bearer("nope"))
    assert bad.status_code == 401 and bad.json["code"] == "invalid_player_token"
    seat = client.post("/v1/games", json={"game": "tiny", "seats": [{"open": True, "name": "x"}, {"name": "b"}]})
    assert seat.status_code == 400
    reserved = client.post("/v1/games", json={"game": "tiny", "seats": [{"player": "pnobody"}, {"name": "b"}]})
    assert reserved.status_code == 422 and reserved.json["code"] == "unknown_player"


def test_two_players_join_with_entropy_play_and_verify(client):
    ann, bob = new_player(client, "ann"), new_player(client, "bob")
    created = client.post("/v1/games", headers=bearer(ann["token"]),
                          json={"game": "tiny", "seats": [{"open": True}, {"player": bob["id"]}],
                                "options": {"turns": 2}})
    assert created.status_code == 201 and created.json["status"] == "open"
    gid = created.json["id"]
    lobby = client.get("/v1/games?status=open&game=tiny").json
    assert [g["open_seats"] for g in lobby["games"] if g["id"] == gid] == [2]
    assert client.get(f"/v1/games/{gid}").json["view"] == {}

    joined = client.post(f"/v1/games/{gid}/join", headers=bearer(bob["token"]),
                         json={"entropy": secrets.token_hex(32)})
    assert joined.status_code == 201 and joined.json["seat"] == 1 and joined.json["status"] == "open"
    started = client.post(f"/v1/games/{gid}/join", headers=bearer(ann["token"]),
                          json={"seat": 0, "entropy": secrets.token_hex(64)})
    assert started.json == {"seat": 0, "version": started.json["version"], "status": "active"}

    while True:
        summary = client.get(f"/v1/games/{gid}").json
        if not summary["active_seats"]:
            break
        seat = summary["active_seats"][0]
        token = (ann, bob)[seat]["token"]
        legal = client.get(f"/v1/games/{gid}/legal-actions", headers=bearer(token)).json
        assert legal["seat"] == seat
        resp = client.post(f"/v1/games/{gid}/actions", headers=bearer(token),
                           json={"expected_version": legal["version"], "command": legal["commands"][0]})
        assert resp.status_code == 201
    client.application.extensions["delve.service"].finalize(gid)
    audit = client.get(f"/v1/games/{gid}/audit").json
    assert [e["seat"] for e in audit["entropy"]] == [0, 1] and audit["seed"] and audit["server_seed"]
    export = client.get(f"/v1/games/{gid}/export")
    assert verify(export.data.decode().splitlines()).ok
    profile = client.get(f"/v1/players/{bob['id']}").json
    assert profile["games"] == [{"id": gid, "game": "tiny", "status": "finished", "seat": 1,
                                 "visibility": "public", "created_at": summary["created_at"]}]


def test_leave_and_cancel_over_http(client):
    ann, bob = new_player(client, "ann"), new_player(client, "bob")
    gid = client.post("/v1/games", headers=bearer(ann["token"]),
                      json={"game": "tiny", "seats": [{"open": True}, {"open": True}, {"open": True}]}).json["id"]
    assert client.post(f"/v1/games/{gid}/join", headers=bearer(bob["token"]), json={}).status_code == 201
    assert client.post(f"/v1/games/{gid}/leave", headers=bearer(bob["token"])).json["seat"] == 0
    again = client.post(f"/v1/games/{gid}/leave", headers=bearer(bob["token"]))
    assert again.status_code == 422 and again.json["code"] == "not_seated"
    assert client.post(f"/v1/games/{gid}/cancel", headers=bearer(bob["token"])).status_code == 403
    assert client.post(f"/v1/games/{gid}/cancel").status_code == 403
    done = client.post(f"/v1/games/{gid}/cancel", headers=bearer(ann["token"]))
    assert done.status_code == 201 and done.json["status"] == "aborted"
    assert client.get(f"/v1/games/{gid}").json["status"] == "aborted"
    late = client.post(f"/v1/games/{gid}/join", headers=bearer(bob["token"]), json={})
    assert late.status_code == 422 and late.json["code"] == "game_not_open"
    gid2 = client.post("/v1/games", json={"game": "tiny", "seats": [{"open": True}, {"name": "b"}]}).json["id"]
    assert client.post(f"/v1/games/{gid2}/cancel", headers=bearer("admin-secret")).status_code == 201


def test_private_game_views_need_a_seat_player_or_invite_token(client):
    ann = new_player(client, "ann")
    created = client.post("/v1/games", headers=bearer(ann["token"]), json={
        "game": "tiny", "visibility": "private", "seats": [{"name": "a"}, {"open": True}]}).json
    gid, invite = created["id"], created["invite_token"]
    assert gid not in [g["id"] for g in client.get("/v1/games").json["games"]]
    for path in ("", "/events", "/scores", "/legal-actions"):
        resp = client.get(f"/v1/games/{gid}{path}")
        assert resp.status_code == 403 and resp.json["code"] == "private_game", path
        allowed = client.get(f"/v1/games/{gid}{path}", headers=bearer(invite))
        assert allowed.status_code == 200 or allowed.json["code"] == "game_not_started", path
    assert client.get(f"/v1/games/{gid}", headers=bearer(created["seats"][0]["token"])).status_code == 200
    client.post(f"/v1/games/{gid}/join", headers=bearer(ann["token"]), json={})
    mine = client.get(f"/v1/games/{gid}", headers=bearer(ann["token"]))
    assert mine.status_code == 200 and mine.json["status"] == "active"
    assert client.get(f"/v1/games/{gid}/scores", headers=bearer(invite)).status_code == 200


def test_me_names_the_token_and_lists_its_private_games(client):
    """A stored player token says whose it is (GET /v1/players/me), with private games the
    public profile leaves out; without a player token it is a 401."""
    me = client.post("/v1/players", json={"name": "mira"}).json
    created = client.post("/v1/games", json={"game": "tiny", "visibility": "private",
                                             "seats": [{"player": me["id"]}, {"name": "b", "bot": "random"}]})
    assert created.status_code == 201, created.json
    joined = client.post(f"/v1/games/{created.json['id']}/join", json={"entropy": "ab"},
                         headers={"Authorization": f"Bearer {me['token']}"})
    assert joined.status_code == 201, joined.json
    mine = client.get("/v1/players/me", headers={"Authorization": f"Bearer {me['token']}"}).json
    assert (mine["id"], mine["name"]) == (me["id"], "mira")
    assert [(g["id"], g["visibility"]) for g in mine["games"]] == [(created.json["id"], "private")]
    assert client.get(f"/v1/players/{me['id']}").json["games"] == []
    assert client.get("/v1/players/me").status_code == 401


def test_the_audit_seeds_check_as_the_contract_says(client):
    """What openapi.yaml (Audit) and docs/disputes.md tell a verifier, step by step: the commitment
    is SHA-256 of the server seed's raw bytes; a game created with every seat taken is dealt with
    the server seed itself; one that waited for players with HMAC-SHA256(server seed, the seats'
    entropy bytes in seat order), entropy or none."""
    ann, bob = new_player(client, "ann"), new_player(client, "bob")
    kept = client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "a"}, {"name": "b"}]}).json
    waited = client.post("/v1/games", json={"game": "tiny", "seats": [{"open": True}, {"open": True}]}).json["id"]
    bare = client.post("/v1/games", json={"game": "tiny", "seats": [{"open": True}, {"name": "b"}]}).json["id"]
    client.post(f"/v1/games/{waited}/join", headers=bearer(bob["token"]), json={"seat": 1, "entropy": "00ff" * 8})
    client.post(f"/v1/games/{waited}/join", headers=bearer(ann["token"]), json={"entropy": secrets.token_hex(64)})
    client.post(f"/v1/games/{bare}/join", headers=bearer(ann["token"]), json={})
    before = client.get(f"/v1/games/{waited}/audit").json
    assert before["seed"] is None and before["server_seed"] is None and before["seed_commitment"]
    ends = [(kept["id"], bearer(kept["seats"][0]["token"])), (waited, bearer(ann["token"])),
            (bare, bearer(ann["token"]))]
    for gid, token in ends:
        assert client.post(f"/v1/games/{gid}/resign", headers=token).status_code == 201
    audits = {gid: client.get(f"/v1/games/{gid}/audit").json for gid, _ in ends}
    for gid, audit in audits.items():
        server_seed = bytes.fromhex(audit["server_seed"])
        assert len(server_seed) == 32 and audit["seed_commitment"] == audit["server_seed_commitment"]
        assert hashlib.sha256(server_seed).hexdigest() == audit["seed_commitment"]
        if gid == waited:
            assert audit["seed_commitment"] == before["seed_commitment"]  # published before the deal, unchanged
        if gid == kept["id"]:
            assert audit["seed"] == audit["server_seed"] and all(e["value"] == "" for e in audit["entropy"])
            continue
        message = b"".join(bytes.fromhex(e["value"]) for e in sorted(audit["entropy"], key=lambda e: e["seat"]))
        assert audit["seed"] == hmac.new(server_seed, message, hashlib.sha256).hexdigest() != audit["server_seed"]
    assert all(e["value"] == "" for e in audits[bare]["entropy"])  # joined without entropy: derived all the same
    assert [e["value"] for e in audits[waited]["entropy"]][1] == "00ff" * 8
