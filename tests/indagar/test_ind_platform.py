"""Indagar through the API on a real Redis: bot seats and monster turns (game-driven actor
steps appended by the platform's workers) play to a result, and the export verifies."""
from __future__ import annotations

import pytest

from application.replay import verify
from workers.inprocess import InProcessDriver


def create(client, players, bot, options=None):
    seats = [{"name": f"p{i}", "bot": bot} for i in range(players)]
    resp = client.post("/v1/games", json={"game": "indagar", "seats": seats, "options": options or {}})
    assert resp.status_code == 201, resp.json
    return resp.json


@pytest.mark.parametrize("players,bot", [(1, "greedy"), (2, "random"), (3, "greedy"), (4, "greedy")])
def test_bot_games_with_monsters_run_to_a_result_and_verify(client, players, bot, service):
    """One POST each; solo is the greedy bot against all 4 monsters (IND-SOLO-2)."""
    with InProcessDriver(service) as driver:
        gid = create(client, players, bot)["id"]
        driver.run([gid])
    assert not driver.errors
    summary = client.get(f"/v1/games/{gid}").json
    assert summary["status"] == "finished"
    assert summary["outcome"]["kind"] in ("win", "no_player_wins")
    events = client.get(f"/v1/games/{gid}/events?limit=1000").json["events"]
    placed = next(e for e in events if e["type"] == "MonstersPlaced")
    assert len(placed["data"]["homes"]) == (4 if players == 1 else players)
    monster_steps = [e for e in events if e["command"] and e["command"].get("type") == "actor_step"]
    assert monster_steps and all(e["seat"] is None for e in monster_steps)
    assert {e["command"]["actor"].split("-")[0] for e in monster_steps} <= {"monster", "event"}
    resp = client.get(f"/v1/games/{gid}/export")
    verdict = verify(resp.data.decode().splitlines())
    assert verdict.ok, verdict.problems


def test_IND_FOG_1_the_api_never_shows_a_face_down_tile_to_a_seat(client):
    created = client.post("/v1/games", json={"game": "indagar", "seats": [{"name": "a"}, {"name": "b"}]}).json
    gid = created["id"]
    token = created["seats"][0]["token"]
    view = client.get(f"/v1/games/{gid}", headers={"Authorization": f"Bearer {token}"}).json["view"]
    assert "hidden" not in view and all(view["tiles"][t]["type"] is None for t in view["face_down"])
    shuffled = [e for e in client.get(f"/v1/games/{gid}/events?limit=100",
                                      headers={"Authorization": f"Bearer {token}"}).json["events"]
                if e["type"] == "TilesShuffled"]
    assert shuffled and set(shuffled[0]["data"]) == {"face_down"}
    legal = client.get(f"/v1/games/{gid}/legal-actions", headers={"Authorization": f"Bearer {token}"}).json
    assert legal["commands"] == [] or all(c["type"] == "declare" for c in legal["commands"])
