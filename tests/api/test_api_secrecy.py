"""Hidden information never leaves the server through the API (SAB-SEC-*).

A 4-seat Saboteur game is played by humans through HTTP, each taking its first
legal action. After every move, every seat and a spectator read their view,
events, legal actions and the SSE stream; none may contain a card id that sits
in another seat's hand, or another seat's role.
"""
from __future__ import annotations

import json

from tests.api.helpers import auth, stream_start

SEATS = 4


def secrets_of(state: dict, seat: int | None) -> list[str]:
    """Canaries: JSON spellings of what ``seat`` must not see right now."""
    out = []
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            out += [json.dumps(card) for card in hand]
    return out


def test_no_seat_sees_another_seats_hand_or_role(client):
    created = client.post("/v1/games", json={"game": "saboteur", "seats": [{"name": f"p{i}"} for i in range(SEATS)]})
    assert created.status_code == 201, created.json
    gid, tokens = created.json["id"], [s["token"] for s in created.json["seats"]]
    admin = {"Authorization": "Bearer admin-secret"}
    for move in range(40):
        state = client.get(f"/v1/games/{gid}", headers=admin).json["view"]["state"]
        summary = client.get(f"/v1/games/{gid}").json
        if summary["status"] != "active" or not summary["active_seats"]:
            break
        for seat in [*range(SEATS), None]:
            token = tokens[seat] if seat is not None else None
            seen = [client.get(f"/v1/games/{gid}", headers=auth(token)).get_data(as_text=True),
                    client.get(f"/v1/games/{gid}/events?limit=1000", headers=auth(token)).get_data(as_text=True),
                    client.get(f"/v1/games/{gid}/legal-actions", headers=auth(token)).get_data(as_text=True)]
            if move % 10 == 0:
                seen.append(stream_start(client, gid, token, 0))
            for canary in secrets_of(state, seat):
                assert all(canary not in text for text in seen), (seat, canary)
            view = client.get(f"/v1/games/{gid}", headers=auth(token)).json["view"]
            for p in view["players"]:
                if p["seat"] != seat:
                    assert p["role"] is None and p["hand"] is None
        seat = summary["active_seats"][0]
        legal = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(tokens[seat])).json
        resp = client.post(f"/v1/games/{gid}/actions", headers=auth(tokens[seat]),
                           json={"expected_version": legal["version"], "command": legal["commands"][0]})
        assert resp.status_code == 201, resp.json
        illegal = client.post(f"/v1/games/{gid}/actions", headers=auth(tokens[seat]),
                              json={"expected_version": resp.json["version"], "command": {"type": "play_path"}})
        assert illegal.status_code in (422,) and illegal.json["code"]
        for canary in secrets_of(state, seat):
            assert canary not in illegal.get_data(as_text=True)
