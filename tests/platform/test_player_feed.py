"""A player's own feed (issue 9): seat reserved, game started, your turn, game finished — across games,
written once per version by the notifications follower, read as SSE or NDJSON."""
from __future__ import annotations

import json

from application import feed, joining
from workers import table
from workers.follower import Follow

NOTIFICATIONS = next(f for f in table.FOLLOWERS if f.name == "notifications")

AT = "2026-01-01T00:00:00.000Z"


def notes(service, pid):
    return [note for _id, note in service.feed.wait(pid, "0-0", 0)]


def players(service, gid):
    return list(feed.players_of(service.store.meta(gid)).values())


def run_due(service, gid):
    """Step the notifications follower over the feed entries since its last position; how many
    notifications reached the feeds."""
    before = sum(len(notes(service, pid)) for pid in players(service, gid))
    Follow(service, NOTIFICATIONS).step()
    return sum(len(notes(service, pid)) for pid in players(service, gid)) - before


def test_the_feed_follows_a_game_from_reservation_to_the_end(service):
    ann = service.players.register("ann", AT)[0]
    bob = service.players.register("bob", AT)[0]
    gid = service.create("tiny", [{"open": True}, {"player": bob.id}], {"turns": 2})["id"]
    assert [n["type"] for n in notes(service, bob.id)] == ["seat_reserved"]
    joining.join(service, gid, ann)
    joining.join(service, gid, bob)
    assert run_due(service, gid) == 3
    assert run_due(service, gid) == 0  # redelivered: nothing twice
    kinds = [(n["type"], n.get("seat")) for n in notes(service, ann.id)]
    assert kinds == [("game_started", 0), ("your_turn", 0)]
    g = service.load(gid)
    service.submit(gid, 0, g.version, {"type": "pass"}, "c1")
    run_due(service, gid)
    assert notes(service, bob.id)[-1] == {"type": "your_turn", "game_id": gid, "seat": 1,
                                         "version": g.version + 1, "deadline": None}
    g = service.load(gid)
    service.submit(gid, 1, g.version, {"type": "pass"}, "c2")
    assert service.finalize(gid)
    run_due(service, gid)
    assert notes(service, ann.id)[-1]["type"] == "game_finished"
    assert notes(service, bob.id)[-1]["status"] == "finished"


def test_games_without_players_owe_nothing(service):
    gid = service.create("tiny", [{"name": "a"}, {"name": "b"}], {})["id"]
    assert Follow(service, NOTIFICATIONS).step() == 1
    assert "notified" not in service.store.meta(gid)  # nothing owed, nothing marked


def read_lines(resp, n):
    got = []
    for chunk in resp.response:
        got += [line for line in chunk.decode().split("\n") if line.strip() and not line.startswith((":", "retry"))]
        if len(got) >= n:
            break
    resp.close()
    return got


def test_my_stream_over_http_as_ndjson_and_sse(client):
    service = client.application.extensions["delve.service"]
    ann = client.post("/v1/players", json={"name": "ann"}).json
    auth = {"Authorization": f"Bearer {ann['token']}"}
    service.feed.publish(ann["id"], "your_turn", {"game_id": "g1", "seat": 0, "version": 3, "deadline": None})
    service.feed.publish(ann["id"], "game_finished", {"game_id": "g1", "seat": 0, "status": "finished",
                                                      "version": 9})
    resp = client.get("/v1/players/me/stream?after=0-0", headers={**auth, "Accept": "application/x-ndjson"},
                      buffered=False)
    assert resp.mimetype == "application/x-ndjson"
    first, second = [json.loads(line) for line in read_lines(resp, 2)]
    assert first["type"] == "your_turn" and second["type"] == "game_finished"
    resp = client.get("/v1/players/me/stream", headers={**auth, "Last-Event-ID": first["id"]}, buffered=False)
    assert resp.mimetype == "text/event-stream"
    assert read_lines(resp, 3) == [f"id: {second['id']}", "event: game_finished",
                                   "data: " + json.dumps({k: v for k, v in second.items() if k != "id"})]
    assert client.get("/v1/players/me/stream").status_code == 401
    bad = client.get("/v1/players/me/stream?after=x", headers=auth)
    assert bad.status_code == 400 and bad.json["code"] == "bad_cursor"
