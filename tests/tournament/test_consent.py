"""Consent (TRN-REG-1): a player enters a tournament, or sits in a seat reserved for them, only by
themselves or by accepting an invitation; they may decline; no game is played, and no rating
changes, for a player who did not agree to play."""
from __future__ import annotations

from tests.api.helpers import ADMIN, auth
from tests.tournament.test_tournament_players import new_player

CLOCK = {"per_move_s": 1, "on_timeout": "forfeit"}  # the probe's trap: forfeits by the second


def _invitations(client, player: dict) -> list[dict]:
    resp = client.get("/v1/players/me/invitations", headers=auth(player["token"]))
    assert resp.status_code == 200
    return resp.json["invitations"]


def test_an_organizer_cannot_enter_another_player_only_invite_them(client, service):
    org, victim = new_player(client, "org"), new_player(client, "vic")
    body = {"game": "tiny", "format": "round-robin", "table_size": 2, "clock": CLOCK,
            "entrants": [{"player": victim["id"]}, {"bot": "random"}, {"bot": "random"}]}
    created = client.post("/v1/tournaments", json=body, headers=auth(org["token"]))
    assert created.status_code == 201 and created.json["invited"] == [victim["id"]]
    t = created.json
    assert t["status"] == "registering" and victim["id"] not in [e["player"] for e in t["entrants"]]
    # Registering them afterwards is an invitation too, by the organizer and by the admin alike.
    for who in (auth(org["token"]), ADMIN):
        asked = client.post(f"/v1/tournaments/{t['id']}/entrants", json={"player": victim["id"]}, headers=who)
        assert asked.status_code == 202 and asked.json["invited"] == victim["id"], asked.json
    started = client.post(f"/v1/tournaments/{t['id']}/start", headers=auth(org["token"])).json
    assert [e["player"] for e in started["entrants"]] == [None, None]  # the victim plays no game
    assert client.get(f"/v1/players/{victim['id']}").json["ratings"] == {}
    assert _invitations(client, victim) == []  # registration closed: the invitation is gone


def test_an_invited_player_accepts_and_enters_or_declines_and_stays_out(client):
    org, ann, bob = (new_player(client, n) for n in ("org", "ann", "bob"))
    created = client.post("/v1/tournaments", headers=auth(org["token"]), json={
        "game": "tiny", "format": "swiss", "table_size": 2, "clock": CLOCK,
        "entrants": [{"player": ann["id"]}, {"player": bob["id"]}]}).json
    tid = created["id"]
    (inv,) = _invitations(client, ann)
    assert inv["kind"] == "tournament" and inv["id"] == tid and inv["by"] == org["id"] and inv["clock"] == CLOCK
    accepted = client.post(f"/v1/players/me/invitations/{tid}/accept", headers=auth(ann["token"]))
    assert accepted.status_code == 201 and accepted.json["entrant"]["player"] == ann["id"]
    declined = client.post(f"/v1/players/me/invitations/{tid}/decline", headers=auth(bob["token"]))
    assert declined.status_code == 200 and declined.json["declined"] is True
    assert _invitations(client, ann) == _invitations(client, bob) == []
    again = client.post(f"/v1/players/me/invitations/{tid}/accept", headers=auth(bob["token"]))
    assert again.status_code == 404 and again.json["code"] == "invitation_not_found"
    t = client.get(f"/v1/tournaments/{tid}").json
    assert [e["player"] for e in t["entrants"]] == [ann["id"]]
    # Nobody answers another's invitation.
    client.post(f"/v1/tournaments/{tid}/entrants", json={"player": bob["id"]}, headers=auth(org["token"]))
    stolen = client.post(f"/v1/players/me/invitations/{tid}/accept", headers=auth(ann["token"]))
    assert stolen.status_code == 404


def test_a_reserved_seat_is_taken_by_accepting_and_declining_cancels_the_game(client):
    host, guest = new_player(client, "host"), new_player(client, "guest")
    games = [client.post("/v1/games", headers=auth(host["token"]), json={
        "game": "tiny", "seats": [{"name": "h"}, {"player": guest["id"]}]}).json for _ in range(2)]
    listed = _invitations(client, guest)
    assert [(i["kind"], i["game_id"], i["seat"]) for i in listed] == [("seat", g["id"], 1) for g in games]
    took = client.post(f"/v1/players/me/invitations/{games[0]['id']}/accept", headers=auth(guest["token"]))
    assert took.status_code == 201 and took.json["seat"]["status"] == "active"
    no = client.post(f"/v1/players/me/invitations/{games[1]['id']}/decline", headers=auth(guest["token"]))
    assert no.status_code == 200
    assert client.get(f"/v1/games/{games[1]['id']}").json["status"] == "aborted"
    assert _invitations(client, guest) == []


def test_invitations_need_the_player_token(client):
    assert client.get("/v1/players/me/invitations").status_code == 401
    assert client.get("/v1/players/me/invitations", headers=auth("made-up")).json["code"] == "invalid_player_token"


def test_a_player_holds_at_most_DELVE_INVITATIONS_PER_PLAYER_pending_invitations(client, monkeypatch):
    monkeypatch.setenv("DELVE_INVITATIONS_PER_PLAYER", "2")
    org, ann = new_player(client, "org"), new_player(client, "ann")
    body = {"game": "tiny", "format": "swiss", "table_size": 2, "clock": CLOCK, "entrants": [{"player": ann["id"]}]}
    for _ in range(2):
        assert client.post("/v1/tournaments", json=body, headers=auth(org["token"])).json["invited"] == [ann["id"]]
    third = client.post("/v1/tournaments", json={**body, "entrants": []}, headers=auth(org["token"])).json
    refused = client.post(f"/v1/tournaments/{third['id']}/entrants", json={"player": ann["id"]},
                          headers=auth(org["token"]))
    assert refused.status_code == 422 and refused.json["code"] == "too_many_invitations", refused.json
    assert len(_invitations(client, ann)) == 2
    monkeypatch.setenv("DELVE_INVITATIONS_PER_PLAYER", "0")  # no limit
    assert client.post(f"/v1/tournaments/{third['id']}/entrants", json={"player": ann["id"]},
                       headers=auth(org["token"])).status_code == 202
