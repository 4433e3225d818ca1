"""Through the API: game-driven actor steps, resign and abort -- recorded, re-run by verify.

The house dice game (``tests/support/house/``) has a game-driven actor:
its steps are appended by the platform's ``actor`` job with no seat, and the
house always ends ahead (HD-HOUSE-1), so the outcome is ``no_player_wins``.
"""
from __future__ import annotations

import pytest

from application.replay import verify
from domain import registry
from workers.inprocess import InProcessDriver

ADMIN = {"Authorization": "Bearer admin-secret"}


def create(client, game, players, bots=(), options=None):
    seats = [{"name": f"p{i}", **({"bot": "random"} if i in bots else {})} for i in range(players)]
    resp = client.post("/v1/games", json={"game": game, "seats": seats, "options": options or {}})
    assert resp.status_code == 201, resp.json
    return resp.json


def export_verdict(client, gid):
    resp = client.get(f"/v1/games/{gid}/export")
    assert resp.status_code == 200, resp.json
    return verify(resp.data.decode().splitlines())


def test_HD_HOUSE_1_END_1_the_house_moves_through_the_workers_and_no_player_wins(client, service):
    with InProcessDriver(service) as driver:
        gid = create(client, "house", 3, bots={0, 1, 2}, options={"rounds": 3})["id"]
        driver.run([gid])
    assert not driver.errors
    summary = client.get(f"/v1/games/{gid}").json
    assert summary["status"] == "finished"
    assert summary["outcome"] == {"kind": "no_player_wins", "winners": ["actor:house"]}
    assert summary["turn"] == {"seats": [], "actor": None, "terminal": True}
    scores = client.get(f"/v1/games/{gid}/scores").json
    assert scores["outcome"]["kind"] == "no_player_wins" and scores["participants"][0]["id"] == "actor:house"
    events = client.get(f"/v1/games/{gid}/events?limit=1000").json["events"]
    house = [e for e in events if e["type"] == "HouseRolled"]
    assert len(house) == 3 and all(e["seat"] is None for e in house)
    assert all(e["command"] == {"type": "actor_step", "actor": "house"} for e in house)
    verdict = export_verdict(client, gid)
    assert verdict.ok, verdict.problems


def test_summary_shows_the_actor_turn_before_the_house_moves(client):
    created = create(client, "house", 1)
    gid = created["id"]
    assert client.get(f"/v1/games/{gid}").json["turn"] == {"seats": [0], "actor": None, "terminal": False}
    client.post(f"/v1/games/{gid}/actions", headers=_seat_token(created, 0),
                json={"expected_version": created["version"], "command": {"type": "stand"}})
    game = client.get(f"/v1/games/{gid}").json
    assert game["turn"] == {"seats": [], "actor": "house", "terminal": False} and game["active_seats"] == []


def _seat_token(created, seat):
    return {"Authorization": f"Bearer {created['seats'][seat]['token']}"}


# Every registered game, at its smallest table with a seat 1 to resign.
RESIGN_TABLES = [(gid, max(2, registry.get(gid).min_players)) for gid in registry.available()
                 if registry.get(gid).max_players >= 2]


@pytest.mark.parametrize("game,players", RESIGN_TABLES)
def test_resign_ends_the_game_with_the_seat_last_and_verifies(client, game, players):
    created = create(client, game, players)
    gid = created["id"]
    resp = client.post(f"/v1/games/{gid}/resign", headers=_seat_token(created, 1))
    assert resp.status_code == 201, resp.json
    assert resp.json["terminal"] and resp.json["events"][0]["type"] == "SeatConceded"
    summary = client.get(f"/v1/games/{gid}").json
    assert summary["status"] == "finished" and summary["turn"]["terminal"]
    scores = client.get(f"/v1/games/{gid}/scores").json
    places = {line["id"]: line["place"] for line in scores["participants"] if line["place"] is not None}
    assert places["seat:1"] == max(places.values()) > 1          # last of the placed (Indagar's monsters: none)
    assert "seat:1" not in scores["outcome"]["winners"]
    verdict = export_verdict(client, gid)
    assert verdict.ok, verdict.problems
    again = client.post(f"/v1/games/{gid}/resign", headers=_seat_token(created, 0))
    assert again.status_code == 409 and again.json["code"] == "game_finished"


@pytest.mark.parametrize("game,players", [(gid, registry.get(gid).min_players) for gid in registry.available()])
def test_abort_ends_the_game_aborted_and_verifies(client, game, players):
    created = create(client, game, players)
    gid = created["id"]
    assert client.post(f"/v1/games/{gid}/abort", headers=_seat_token(created, 0)).status_code == 403
    assert client.post(f"/v1/games/{gid}/abort").status_code == 401
    resp = client.post(f"/v1/games/{gid}/abort", headers=ADMIN, json={"expected_version": created["version"]})
    assert resp.status_code == 201, resp.json
    summary = client.get(f"/v1/games/{gid}").json
    assert summary["status"] == "aborted" and summary["outcome"] == {"kind": "aborted", "winners": []}
    assert client.get("/v1/games?status=aborted").json["games"][0]["id"] == gid
    verdict = export_verdict(client, gid)
    assert verdict.ok, verdict.problems
    move = client.post(f"/v1/games/{gid}/actions", headers=_seat_token(created, 0),
                       json={"expected_version": summary["version"], "command": {"type": "pass"}})
    assert move.status_code == 409


def test_abort_with_a_stale_version_is_a_conflict_and_writes_nothing(client):
    created = create(client, "tiny", 2)
    resp = client.post(f"/v1/games/{created['id']}/abort", headers=ADMIN, json={"expected_version": 1})
    assert resp.status_code == 409 and resp.json["current_version"] == created["version"]
    assert client.get(f"/v1/games/{created['id']}").json["status"] == "active"


def test_a_forged_platform_command_fails_verification(client):
    """verify re-runs the platform command: a resign re-attributed to another seat is caught."""
    import json

    from tests.support.forge import envelopes, rechain
    created = create(client, "tiny", 3)
    gid = created["id"]
    client.post(f"/v1/games/{gid}/resign", headers=_seat_token(created, 2))
    envs = envelopes(client.get(f"/v1/games/{gid}/export").data.decode().splitlines())
    conceded = next(e for e in envs if e["type"] == "SeatConceded")
    conceded["seat"] = 0
    verdict = verify(rechain(envs))
    assert verdict.chain_ok and not verdict.replay_ok


def test_a_command_that_breaks_the_schema_is_refused_with_its_code(client):
    created = create(client, "saboteur", 3)
    gid = created["id"]
    turn = client.get(f"/v1/games/{gid}").json["active_seats"][0]
    resp = client.post(f"/v1/games/{gid}/actions", headers=_seat_token(created, turn),
                       json={"expected_version": created["version"],
                             "command": {"type": "map", "card": "A25", "goal": "Z"}})
    assert resp.status_code == 422 and (resp.json["code"], resp.json["rule"]) == ("bad_goal", "SAB-MAP-1")
    resp = client.post(f"/v1/games/{gid}/actions", headers=_seat_token(created, turn),
                       json={"expected_version": created["version"], "command": {"type": "pass", "extra": 1}})
    assert resp.status_code == 422 and resp.json["code"] == "bad_command"
    assert client.get(f"/v1/games/{gid}").json["version"] == created["version"]
