"""Indagar through the real API and worker path (the in-process reactor and jobs on a real
Redis): a human seat plays by the README's client loop (legal-actions -> POST actions)
beside bot seats and monsters, and never sees what the fog hides (IND-FOG-1/7): no
face-down tile's type, no event-tile pool order, in views, events, legal actions or SSE."""
from __future__ import annotations

import json
import re

from errors import Stalled
from application.replay import verify
from tests.api.helpers import auth, stream_start
from workers.inprocess import InProcessDriver

HUMAN = 0
PREFERENCE = ("declare", "activate", "build", "upgrade", "gather", "attack", "pass", "reveal", "move", "end_turn")


def choose(commands: list[dict], moves_made: int) -> dict:
    """A plain client policy: take the first command of the most wanted kind; at most two moves
    a turn, so turns end."""
    kinds = [k for k in PREFERENCE if k != "move" or moves_made < 2]
    for kind in kinds:
        for cmd in commands:
            if cmd["type"] == kind:
                return cmd
    return commands[0]


def fog_canaries(state: dict, seat: int | None) -> list[re.Pattern]:
    """JSON spellings of what ``seat`` must not see now: the type under each face-down tile it
    has not explored, as the secret mapping (``hidden``) or a tile's record spells it."""
    known = state["peeks"].get(str(seat), {}) if seat is not None else {}
    out = []
    for tile, kind in state["hidden"].items():
        if tile not in known:
            out.append(re.compile(rf'"{tile}"\s*:\s*"{kind}"'))
            out.append(re.compile(rf'"{tile}"\s*:\s*\{{\s*"destroyed"\s*:\s*\w+\s*,\s*"type"\s*:\s*"{kind}"'))
            out.append(re.compile(rf'"{tile}"\s*:\s*\{{\s*"type"\s*:\s*"{kind}"'))
    return out


def check_fog(client, service, gid, token, seat, step) -> None:
    state = service.load(gid).state
    seen = [client.get(f"/v1/games/{gid}", headers=auth(token)).get_data(as_text=True),
            client.get(f"/v1/games/{gid}/legal-actions", headers=auth(token)).get_data(as_text=True)]
    if step % 5 == 0:
        seen.append(client.get(f"/v1/games/{gid}/events?limit=1000", headers=auth(token)).get_data(as_text=True))
    if step % 20 == 0:
        seen.append(stream_start(client, gid, token, max(0, service.load(gid).version - 40)))
    canaries = fog_canaries(state, seat)
    assert any(c.search(json.dumps(state["hidden"])) for c in canaries)       # the canaries can bite
    for canary in canaries:
        assert not any(canary.search(text) for text in seen), (seat, canary.pattern)
    view = json.loads(seen[0])["view"]
    assert "hidden" not in view and all(view["tiles"][t]["type"] is None for t in view["face_down"])
    events = client.get(f"/v1/games/{gid}/events?limit=1000", headers=auth(token)).json["events"] if step % 5 == 0 else []
    for e in events:
        assert "hidden" not in e["data"]
        if e["type"] == "TilePeeked" and e["data"]["seat"] != seat:
            assert "kind" not in e["data"]


def test_IND_FOG_1_IND_FOG_7_a_human_seat_plays_through_the_client_loop_beside_bots(client, service):
    """Seat 0 is a human played over HTTP; seats 1-3 greedy bots and the monsters are worker jobs."""
    seats = [{"name": "you"}] + [{"name": f"bot{i}", "bot": "greedy"} for i in (1, 2, 3)]
    with InProcessDriver(service) as driver:
        created = client.post("/v1/games", json={"game": "indagar", "seats": seats, "options": {"first_game": True}})
        assert created.status_code == 201, created.json
        gid, token = created.json["id"], created.json["seats"][HUMAN]["token"]
        turns = moves = 0
        for step in range(400):
            try:
                driver.run([gid])
                break                                       # finished
            except Stalled:
                pass
            summary = client.get(f"/v1/games/{gid}", headers=auth(token)).json
            assert summary["active_seats"] == [HUMAN]
            check_fog(client, service, gid, token, HUMAN, step)
            if step % 20 == 0:
                check_fog(client, service, gid, None, None, step)
            legal = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(token)).json
            cmd = choose(legal["commands"], moves)
            moves = 0 if cmd["type"] in ("activate", "end_turn") else moves + (cmd["type"] == "move")
            turns += cmd["type"] == "activate"
            resp = client.post(f"/v1/games/{gid}/actions", headers=auth(token),
                               json={"expected_version": legal["version"], "command": cmd})
            assert resp.status_code == 201, resp.json
            assert all("hidden" not in e["data"] for e in resp.json["events"])
    assert not driver.errors and turns >= 5
    summary = client.get(f"/v1/games/{gid}").json
    assert summary["status"] == "finished", "the game did not end within the bound"
    verdict = verify(client.get(f"/v1/games/{gid}/export").data.decode().splitlines())
    assert verdict.ok, verdict.problems
