"""The /v1 API end to end against a real Redis, with the tiny platform game."""
from __future__ import annotations

import json
import threading

import pytest

from application.replay import verify
from tests.support.forge import envelopes

ADMIN = {"Authorization": "Bearer admin-secret"}


def auth(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def game(client):
    resp = client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "ann"}, {"name": "bob"}],
                                          "options": {"turns": 4}})
    assert resp.status_code == 201, resp.json
    return resp.json


def act(client, game, seat, command, version=None, **headers):
    if version is None:
        version = client.get(f"/v1/games/{game['id']}").json["version"]
    return client.post(f"/v1/games/{game['id']}/actions", json={"expected_version": version, "command": command},
                       headers={**auth(game["seats"][seat]["token"]), **headers})


def finish(client, game):
    for turn in range(4):
        assert act(client, game, turn % 2, {"type": "pass"}).status_code == 201
    client.application.extensions["delve.service"].finalize(game["id"])


def test_create_shape_and_location(client, game):
    assert game["game"] == "tiny" and game["version"] == 4
    assert [s["seat"] for s in game["seats"]] == [0, 1] and all(s["token"] for s in game["seats"])
    resp = client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "a"}, {"name": "b", "bot": "random"}]})
    assert resp.headers["Location"] == f"/v1/games/{resp.json['id']}"
    assert resp.json["seats"][1]["token"] is None


@pytest.mark.parametrize("body,status,code", [
    ({"game": "tiny"}, 400, "malformed_request"),
    ({"game": "tiny", "seats": [{"name": ""}]}, 400, "malformed_request"),
    ({"game": "tiny", "seats": [{"name": "a"}, {"name": "b"}], "extra": 1}, 400, "malformed_request"),
    ({"game": "chess", "seats": [{"name": "a"}]}, 422, "unknown_game"),
    ({"game": "tiny", "seats": [{"name": "a"}]}, 422, "bad_player_count"),
    ({"game": "tiny", "seats": [{"name": "a"}, {"name": "b"}], "options": {"turns": 0}}, 422, "bad_option"),
])
def test_bad_create_is_a_problem(client, body, status, code):
    resp = client.post("/v1/games", json=body)
    assert resp.status_code == status and resp.mimetype == "application/problem+json"
    assert resp.json["code"] == code


def test_broken_json_and_wrong_media_type(client):
    assert client.post("/v1/games", data="{nope", content_type="application/json").json["code"] == "malformed_json"
    assert client.post("/v1/games", data="x", content_type="text/plain").status_code == 415


def test_views_differ_by_seat_and_etag(client, game):
    gid = game["id"]
    mine = client.get(f"/v1/games/{gid}", headers=auth(game["seats"][0]["token"]))
    spectator = client.get(f"/v1/games/{gid}")
    assert mine.json["view"]["my_digit"] is not None and spectator.json["view"]["my_digit"] is None
    etag = mine.headers["ETag"]
    again = client.get(f"/v1/games/{gid}", headers={**auth(game["seats"][0]["token"]), "If-None-Match": etag})
    assert again.status_code == 304
    act(client, game, 0, {"type": "pass"})
    assert client.get(f"/v1/games/{gid}", headers={"If-None-Match": etag}).status_code == 200
    # If-Match: "*" matches any current representation (RFC 9110 13.1.1); a stale ETag does not.
    assert client.get(f"/v1/games/{gid}", headers={"If-Match": "*"}).status_code == 200
    stale = client.get(f"/v1/games/{gid}", headers={**auth(game["seats"][0]["token"]), "If-Match": etag})
    assert (stale.status_code, stale.json["code"]) == (412, "precondition_failed")


def test_auth_failures(client, game):
    gid = game["id"]
    assert client.get(f"/v1/games/{gid}", headers=auth("forged")).status_code == 401
    assert client.get(f"/v1/games/{gid}", headers={"Authorization": "Basic x"}).json["code"] == \
        "malformed_authorization"
    resp = client.post(f"/v1/games/{gid}/actions", json={"expected_version": 4, "command": {"type": "pass"}})
    assert resp.status_code == 401 and resp.json["code"] == "token_required"
    resp = client.post(f"/v1/games/{gid}/actions", json={"expected_version": 4, "command": {"type": "pass"}},
                       headers=ADMIN)
    assert resp.status_code == 403


def test_a_valid_token_that_holds_no_seat_is_403_not_401(client, game):
    """A player who is not seated here sent their (valid) token: 403 not_a_seat for acting or
    resigning, 403 admin_only for aborting; 401 is for no token (or one that names nobody)."""
    gid = game["id"]
    stranger = auth(client.post("/v1/players", json={"name": "stranger"}).json["token"])
    resp = client.post(f"/v1/games/{gid}/actions", json={"expected_version": 4, "command": {"type": "pass"}},
                       headers=stranger)
    assert (resp.status_code, resp.json["code"]) == (403, "not_a_seat"), resp.json
    resp = client.post(f"/v1/games/{gid}/resign", headers=stranger)
    assert (resp.status_code, resp.json["code"]) == (403, "not_a_seat"), resp.json
    for token in (stranger, auth(game["seats"][0]["token"])):
        resp = client.post(f"/v1/games/{gid}/abort", headers=token)
        assert (resp.status_code, resp.json["code"]) == (403, "admin_only"), resp.json
    resp = client.post(f"/v1/games/{gid}/abort")
    assert (resp.status_code, resp.json["code"]) == (401, "token_required")
    resp = client.post(f"/v1/games/{gid}/abort", headers=auth("no-such-token"))  # said as an abort's refusal
    assert (resp.status_code, resp.json["code"]) == (401, "invalid_token") and "admin token" in resp.json["detail"]
    assert 'error="invalid_token"' in resp.headers["WWW-Authenticate"]
    assert client.get(f"/v1/games/{gid}").json["version"] == 4


def test_action_accepted_then_stale_version_conflicts_whatever_the_command(client, game):
    ok = act(client, game, 0, {"type": "pass"}, version=4)
    assert ok.status_code == 201 and ok.json["version"] == 5 and ok.json["events"][0]["type"] == "Passed"
    stale = client.post(f"/v1/games/{game['id']}/actions",
                        json={"expected_version": 4, "command": "garbage", "junk": True},
                        headers=auth(game["seats"][1]["token"]))
    assert stale.status_code == 409 and stale.json["current_version"] == 5


def test_illegal_command_is_422_with_rule_and_writes_nothing(client, game):
    resp = act(client, game, 1, {"type": "pass"})
    assert resp.status_code == 422 and resp.json["code"] == "not_your_turn" and resp.json["rule"] == "TINY-2"
    assert client.get(f"/v1/games/{game['id']}").json["version"] == 4
    resp = act(client, game, 0, {"no_type": 1})
    assert resp.status_code == 422 and resp.json["code"] == "malformed_command"
    for not_an_object in ("pass", None, [], 5):  # the contract: "not an object with a string type"
        resp = act(client, game, 0, not_an_object)
        assert resp.status_code == 422 and resp.json["code"] == "malformed_command", (not_an_object, resp.json)
    assert client.get(f"/v1/games/{game['id']}").json["version"] == 4


def test_idempotency_key_replays_the_stored_response(client, game):
    first = act(client, game, 0, {"type": "pass"}, version=4, **{"Idempotency-Key": "k1"})
    again = act(client, game, 0, {"type": "pass"}, version=4, **{"Idempotency-Key": "k1"})
    assert first.status_code == again.status_code == 201 and first.json == again.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert client.get(f"/v1/games/{game['id']}").json["version"] == 5
    other = act(client, game, 0, {"type": "guess", "target": 1, "digit": 1}, version=4, **{"Idempotency-Key": "k1"})
    assert other.status_code == 422 and other.json["code"] == "idempotency_key_reused"


def test_concurrent_clients_race_one_wins(app, game):
    results = []

    def racer():
        c = app.test_client()
        r = c.post(f"/v1/games/{game['id']}/actions", json={"expected_version": 4, "command": {"type": "pass"}},
                   headers=auth(game["seats"][0]["token"]))
        results.append(r.status_code)

    threads = [threading.Thread(target=racer) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [201] + [409] * 11
    events = app.test_client().get(f"/v1/games/{game['id']}/events", headers=ADMIN).json["events"]
    assert [e["seq"] for e in events] == list(range(1, 6))


def test_events_are_redacted_per_seat(client, game):
    gid = game["id"]
    full = client.get(f"/v1/games/{gid}/events", headers=ADMIN).json["events"]
    secret = {e["data"]["seat"]: e["data"]["digit"] for e in full if e["type"] == "SecretDealt"}
    for seat in (0, 1):
        evs = client.get(f"/v1/games/{gid}/events", headers=auth(game["seats"][seat]["token"])).json["events"]
        seen = {e["data"]["seat"]: e["data"].get("digit") for e in evs if e["type"] == "SecretDealt"}
        assert seen == {seat: secret[seat], 1 - seat: None}
    page = client.get(f"/v1/games/{gid}/events?after=2&limit=1").json
    assert [e["seq"] for e in page["events"]] == [3]
    assert client.get(f"/v1/games/{gid}/events?after=-1").status_code == 400


def test_export_verify_scores_audit_after_the_end(client, game):
    gid = game["id"]
    assert client.get(f"/v1/games/{gid}/export").status_code == 403
    assert client.get(f"/v1/games/{gid}/audit").json["seed"] is None
    finish(client, game)
    summary = client.get(f"/v1/games/{gid}").json
    assert summary["status"] == "finished" and summary["finished_at"]
    export = client.get(f"/v1/games/{gid}/export")
    assert export.mimetype == "application/x-ndjson"
    verdict = client.post("/v1/audit/verify", data=export.data, content_type="application/x-ndjson").json
    assert verdict["ok"] and verdict["events"] == summary["version"]
    lines = export.data.decode().splitlines()
    env = json.loads(lines[-3])
    env["data"]["hacked"] = True
    lines[-3] = json.dumps(env)
    bad = client.post("/v1/audit/verify", data="\n".join(lines), content_type="application/x-ndjson").json
    assert not bad["ok"] and bad["problems"][0]["seq"] == env["seq"]
    audit = client.get(f"/v1/games/{gid}/audit").json
    assert audit["seed"] and audit["chain_head"] == envelopes(export.data.decode().splitlines())[-1]["hash"]
    assert [s["statement"]["kind"] for s in audit["signatures"]] == ["seed_commitment", "game_record"]
    scores = client.get(f"/v1/games/{gid}/scores").json
    assert scores["final"] and sorted(scores["ranking"]) == [0, 1]
    assert verify(export.data.splitlines()).ok


def test_admin_reads_export_before_the_end(client, game):
    assert client.get(f"/v1/games/{game['id']}/export", headers=ADMIN).status_code == 200


def test_state_at_version(client, game):
    gid = game["id"]
    act(client, game, 0, {"type": "pass"})
    mine = client.get(f"/v1/games/{gid}/states/4", headers=auth(game["seats"][0]["token"])).json
    assert mine["version"] == 4 and mine["view"]["played"] == 0 and "state" not in mine
    assert client.get(f"/v1/games/{gid}/states/99").json["code"] == "no_such_version"
    assert client.get(f"/v1/games/{gid}/states/2").json["code"] == "not_a_held_version"
    finish_rest = [act(client, game, t % 2, {"type": "pass"}) for t in range(1, 4)]
    assert all(r.status_code == 201 for r in finish_rest)
    client.application.extensions["delve.service"].finalize(gid)
    after = client.get(f"/v1/games/{gid}/states/5").json
    assert after["state"]["played"] == 1


def test_sse_stream_of_a_finished_game(client, game):
    finish(client, game)
    resp = client.get(f"/v1/games/{game['id']}/events/stream", headers={"Last-Event-ID": "2"})
    body = resp.get_data(as_text=True)
    assert resp.mimetype == "text/event-stream"
    ids = [int(line[4:]) for line in body.splitlines() if line.startswith("id: ")]
    assert ids[0] == 3 and ids == sorted(ids) and "event: GameFinished" in body and body.rstrip().endswith("data: {}")


def test_list_games_and_catalog(client, game):
    listed = client.get("/v1/games?game=tiny&status=active").json
    assert game["id"] in [g["id"] for g in listed["games"]]
    assert client.get("/v1/games?status=bogus").status_code == 400
    assert any(g["id"] == "tiny" for g in client.get("/v1/catalog").json["games"])


def test_errors_are_problems(client):
    for resp, status in ((client.get("/v1/games/nope"), 404), (client.get("/nowhere"), 404),
                         (client.delete("/v1/catalog"), 405)):
        assert resp.status_code == status and resp.mimetype == "application/problem+json"
        assert resp.json["status"] == status and resp.json["code"]


def test_ops_endpoints(client, game):
    assert client.get("/healthz").json == {"status": "ok"}
    ready = client.get("/readyz").json  # no worker or reactor runs beside this test's API
    assert ready["status"] == "degraded" and ready["down"] == ["reactor", "workers"]
    assert ready["parts"]["store"] == {"up": True} and ready["parts"]["timers"] == {"up": True, "overdue": 0}
    resp = client.get("/metrics")
    metrics = resp.get_data(as_text=True)
    assert "delve_http_requests_total" in metrics and "delve_games_created_total" in metrics
    assert resp.headers["Content-Type"].count("charset") == 1, resp.headers["Content-Type"]


def test_rate_limit(service):
    from server.app import create_app
    c = create_app(service, RATE_LIMIT=2).test_client()
    codes = [c.post("/v1/games", json={"game": "tiny", "seats": [{"name": "a"}, {"name": "b"}]}).status_code
             for _ in range(5)]
    assert 429 in codes and codes[0] == 201


@pytest.mark.parametrize("game_id,key", [("saboteur", "cards"), ("mountain-king", "boards"), ("tiny", "digits")])
def test_catalog_game_serves_public_components(client, game_id, key):
    resp = client.get(f"/v1/catalog/{game_id}")
    assert resp.status_code == 200 and resp.json["id"] == game_id and resp.json["content"][key]
    assert client.get("/v1/catalog/chess").json["code"] == "unknown_game"


def test_mountain_king_view_ids_resolve_in_the_catalog(client):
    """Every troll card id a Mountain King view shows can be looked up in the catalog."""
    content = client.get("/v1/catalog/mountain-king").json["content"]
    trolls = {t["id"] for t in content["horde_trolls"]}
    gid = client.post("/v1/games", json={"game": "mountain-king", "seats": [{"name": "a"}, {"name": "b"}]}).json["id"]
    slots = client.get(f"/v1/games/{gid}").json["view"]["horde"]["slots"]
    shown = {s["card"] for s in slots.values() if s["card"]}
    assert shown and shown <= trolls


def test_legal_actions_label_every_command_for_the_seat(client):
    """A human label per command, in the same order, written by the game (Saboteur's
    labels name the seat's own hand to that seat only)."""
    created = client.post("/v1/games", json={"game": "saboteur", "seats": [{"name": f"p{i}"} for i in range(3)]}).json
    gid = created["id"]
    seat = client.get(f"/v1/games/{gid}").json["active_seats"][0]
    legal = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(created["seats"][seat]["token"])).json
    assert legal["commands"] and len(legal["labels"]) == len(legal["commands"])
    for cmd, text in zip(legal["commands"], legal["labels"]):
        assert text and (cmd.get("card") is None or cmd["card"] in text), (cmd, text)
    other = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(created["seats"][(seat + 1) % 3]["token"])).json
    assert other["commands"] == other["labels"] == []
