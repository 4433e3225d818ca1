"""Moves, not sequence numbers: GET /v1/games/{id}/moves and /states/at?move=n name one position
alike, a version inside a batch answers with the nearest held versions, and a seat sees the
labels and commands it may see (application/moves.py)."""
from __future__ import annotations

from tests.api.helpers import auth, tiny_game


def finished_saboteur(client, service) -> str:
    resp = client.post("/v1/games", json={"game": "saboteur",
                                          "seats": [{"name": f"b{i}", "bot": "heuristic"} for i in range(3)]})
    assert resp.status_code == 201, resp.json
    gid = resp.json["id"]
    for _ in range(3000):
        g = service.load(gid)
        if g.game.is_terminal(g.state):
            break
        service.bot_turn(gid, g.version)
    assert service.finalize(gid)
    return gid


def test_move_n_is_the_nth_accepted_command_with_its_label_seat_time_and_seqs(client, service):
    gid = finished_saboteur(client, service)
    listed = client.get(f"/v1/games/{gid}/moves").json["moves"]
    events = client.get(f"/v1/games/{gid}/events?limit=1000").json["events"]
    commanded = [e for e in events if e["command"] is not None]
    assert [m["move"] for m in listed] == list(range(1, len(commanded) + 1))
    assert [m["first_seq"] for m in listed] == [e["seq"] for e in commanded]
    m30 = listed[29]
    assert m30["label"] and m30["seat"] == commanded[29]["seat"] and m30["at"] == commanded[29]["at"]
    assert m30["command"] == commanded[29]["command"]
    by_move = client.get(f"/v1/games/{gid}/states/at?move=30").json
    by_version = client.get(f"/v1/games/{gid}/states/{m30['last_seq']}").json
    assert by_move["view"] == by_version["view"] and by_move["version"] == by_version["version"] == m30["last_seq"]
    assert by_move["move"] == 30 and by_move["label"] == m30["label"]


def test_a_version_inside_a_batch_names_the_nearest_held_versions(client, service):
    gid = finished_saboteur(client, service)
    listed = client.get(f"/v1/games/{gid}/moves").json["moves"]
    inside = next(m for m in listed if m["last_seq"] > m["first_seq"])
    resp = client.get(f"/v1/games/{gid}/states/{inside['first_seq']}")
    assert resp.status_code == 422 and resp.json["code"] == "not_a_held_version"
    before, after = resp.json["nearest_held"]
    assert before < inside["first_seq"] <= inside["last_seq"] == after
    assert str(after) in resp.json["detail"]
    assert client.get(f"/v1/games/{gid}/states/at?move=9999").json["code"] == "no_such_move"
    assert client.get(f"/v1/games/{gid}/states/at?move=x").json["code"] == "bad_move"


def test_before_the_end_a_seat_sees_its_own_commands_only(client):
    created = tiny_game(client, turns=4)
    gid, (t0, t1) = created["id"], [s["token"] for s in created["seats"]]
    for turn, token in enumerate((t0, t1)):
        version = client.get(f"/v1/games/{gid}").json["version"]
        assert client.post(f"/v1/games/{gid}/actions", headers=auth(token), json={
            "expected_version": version, "command": {"type": "guess", "target": 1 - turn, "digit": 3}}).status_code == 201
    mine = client.get(f"/v1/games/{gid}/moves", headers=auth(t0)).json["moves"]
    assert [m["seat"] for m in mine] == [0, 1]
    assert mine[0]["command"] == {"type": "guess", "target": 1, "digit": 3} and mine[1]["command"] is None
    spectator = client.get(f"/v1/games/{gid}/moves").json["moves"]
    assert [m["command"] for m in spectator] == [None, None] and all(m["label"] for m in spectator)
