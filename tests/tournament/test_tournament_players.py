"""Player entrants over HTTP: an organizer player, players registering and
withdrawing themselves, seeding by rating, humans playing their reserved seats
with their own token; the log's SSE stream and the list's filters."""
from __future__ import annotations

import json

import pytest

from domain.tournament.history import initial_rank
from domain.tournament.log import game_id_for
from errors import Stalled
from application.tournaments import TournamentService
from tests.tournament.test_tournament_service import driver  # noqa: F401 - the fixture

ADMIN = {"Authorization": "Bearer admin-secret"}
CLOCK = {"initial_s": 600, "increment_s": 5, "on_timeout": "forfeit"}


def bearer(player: dict) -> dict:
    return {"Authorization": f"Bearer {player['token']}"}


def new_player(client, name: str) -> dict:
    return client.post("/v1/players", json={"name": name}).json


def play_humans(client, service, tid: str, tokens: dict[str, str], driver, max_moves: int = 500) -> None:  # noqa: F811
    """Run the jobs; whenever only humans can move, each player to act posts their first legal command."""
    ts = TournamentService(service)
    for _ in range(max_moves):
        try:
            driver.run_until(lambda: ts.status(tid) == "finished")
            return
        except Stalled:
            pass
        moved = False
        for rnd in ts.get(tid)["rounds"]:
            for tb in rnd["tables"]:
                for token in tokens.values():
                    legal = client.get(f"/v1/games/{tb['game_id']}/legal-actions",
                                       headers={"Authorization": f"Bearer {token}"}).json
                    if legal.get("commands"):
                        posted = client.post(f"/v1/games/{tb['game_id']}/actions",
                                             headers={"Authorization": f"Bearer {token}"},
                                             json={"expected_version": legal["version"],
                                                   "command": legal["commands"][0]})
                        assert posted.status_code == 201, posted.json
                        moved = True
        assert moved, "nobody can move and the tournament has not finished"
    raise AssertionError("the tournament did not finish")


def test_TRN_REG_1_players_enter_themselves_and_an_organizer_player_runs_the_tournament(client, service,
                                                                                          driver):  # noqa: F811
    ann, bob, cy, dee = (new_player(client, n) for n in ("ann", "bob", "cy", "dee"))
    # dee has won a rated game before: she is seeded above the unrated (TRN-RANK-1)
    service.ratings.rate("tiny", "g-past", [{"seat": 0, "player": dee["id"]}, {"seat": 1, "bot": "random"}],
                         {"seats": [{"seat": 0, "place": 1}, {"seat": 1, "place": 2}]}, "2026-01-01T00:00:00Z")
    body = {"game": "tiny", "format": "knockout", "table_size": 2, "options": {"turns": 1}, "clock": CLOCK,
            "start_at": "2099-01-01T00:00:00Z", "entrants": [{"bot": "random", "name": "robo"}]}
    created = client.post("/v1/tournaments", json=body, headers=bearer(ann))
    assert created.status_code == 201 and created.json["organizer"] == ann["id"]
    tid = created.json["id"]
    for p in (bob, cy, dee):
        joined = client.post(f"/v1/tournaments/{tid}/entrants", json={"player": p["id"]}, headers=bearer(p))
        assert joined.status_code == 201 and joined.json["player"] == p["id"] and joined.json["name"] == p["name"]
    again = client.post(f"/v1/tournaments/{tid}/entrants", json={"player": bob["id"]}, headers=bearer(bob))
    assert again.status_code == 422 and again.json["code"] == "already_registered"
    # bob may not register others, nor start it: only the organizer (or the admin) manages
    other = client.post(f"/v1/tournaments/{tid}/entrants", json={"bot": "random"}, headers=bearer(bob))
    assert other.status_code == 403 and other.json["code"] == "not_organizer"
    assert client.post(f"/v1/tournaments/{tid}/start", headers=bearer(bob)).json["code"] == "not_organizer"
    assert client.post(f"/v1/tournaments/{tid}/entrants", json={"bot": "random", "name": "tin"},
                       headers=bearer(ann)).status_code == 201
    # cy withdraws herself before the start
    left = client.post(f"/v1/tournaments/{tid}/entrants/e2/withdraw", headers=bearer(cy))
    assert left.status_code == 200 and [e["withdrawn"] for e in left.json["entrants"]][2]
    assert client.get(f"/v1/tournaments?player={dee['id']}").json["tournaments"][0]["id"] == tid
    assert client.get(f"/v1/tournaments?player={cy['id']}&format=swiss").json["total"] == 0
    started = client.post(f"/v1/tournaments/{tid}/start", headers=bearer(ann))
    assert started.status_code == 200 and started.json["status"] == "running"
    late = client.post(f"/v1/tournaments/{tid}/entrants", json={"player": ann["id"]}, headers=bearer(ann))
    assert late.json["code"] == "registration_closed"
    entrants = {e["id"]: e for e in started.json["entrants"]}
    assert entrants["e3"]["rating"] > 0 and entrants["e1"]["rating"] is None
    play_humans(client, service, tid, {p["id"]: p["token"] for p in (bob, dee)}, driver)
    t = client.get(f"/v1/tournaments/{tid}").json
    assert t["status"] == "finished"
    first = t["rounds"][0]
    # seeds: dee (rated) first, then by registration; 1 v 4 and 2 v 3 (TRN-KO-1); cy (e2) withdrew
    assert sorted(sorted(tb["seats"]) for tb in first["tables"]) == [["e0", "e1"], ["e3", "e4"]]
    for rnd in t["rounds"]:
        for i, tb in enumerate(rnd["tables"]):
            assert tb["game_id"] == game_id_for(tid, rnd["round"], i)
            seats = client.get(f"/v1/games/{tb['game_id']}").json["seats"]
            for seat, eid in zip(seats, tb["seats"]):
                assert seat.get("player") == entrants[eid]["player"]
    # the log names who registered, withdrew and started: the player itself, or the organizer
    log = client.get(f"/v1/tournaments/{tid}/events?limit=1000").json["events"]
    acted = [(e["type"], e["data"].get("entrant", {}).get("name") if e["type"] == "EntrantRegistered"
              else e["data"].get("entrant"), e["data"]["by"]) for e in log
             if e["type"] in ("EntrantRegistered", "EntrantWithdrew", "TournamentStarted")]
    assert acted == [("EntrantRegistered", "robo", ann["id"]), ("EntrantRegistered", "bob", bob["id"]),
                     ("EntrantRegistered", "cy", cy["id"]), ("EntrantRegistered", "dee", dee["id"]),
                     ("EntrantRegistered", "tin", ann["id"]), ("EntrantWithdrew", "e2", cy["id"]),
                     ("TournamentStarted", None, ann["id"])]
    bundle = client.get(f"/v1/tournaments/{tid}/bundle").data
    assert client.post("/v1/audit/verify", data=bundle, content_type="application/x-ndjson").json["ok"]


def test_TRN_CLK_1_player_entrants_need_a_clock(client):
    ann = new_player(client, "ann")
    body = {"game": "tiny", "format": "swiss", "table_size": 2, "entrants": [{"player": ann["id"]}]}
    refused = client.post("/v1/tournaments", json=body, headers=ADMIN)
    assert refused.status_code == 422 and refused.json["code"] == "clock_required" and refused.json["rule"] == "TRN-CLK-1"
    assert client.post("/v1/tournaments", json={**body, "entrants": [{"player": ann["id"], "bot": "random"}]},
                       headers=ADMIN).status_code == 400


def test_the_log_streams_as_server_sent_events(client, service, driver):  # noqa: F811
    from delve.tournament import play_out
    created = client.post("/v1/tournaments", headers=ADMIN, json={
        "game": "tiny", "format": "round-robin", "table_size": 2, "options": {"turns": 1},
        "entrants": [{"bot": "random"} for _ in range(3)]}).json
    play_out(TournamentService(service), created["id"], driver)
    stream = client.get(f"/v1/tournaments/{created['id']}/events/stream")
    assert stream.status_code == 200 and stream.mimetype == "text/event-stream"
    frames = [f for f in stream.data.decode().split("\n\n") if f.startswith("id: ")]
    events = [json.loads(f.split("data: ", 1)[1]) for f in frames]
    log = client.get(f"/v1/tournaments/{created['id']}/events?limit=1000").json["events"]
    assert events == log and stream.data.decode().rstrip().endswith("event: end\ndata: {}")
    resumed = client.get(f"/v1/tournaments/{created['id']}/events/stream", headers={"Last-Event-ID": "5"})
    assert resumed.data.decode().count("id: ") == len(log) - 5
    assert client.get("/v1/tournaments/tnope/events/stream").status_code == 404
    assert client.get("/v1/tournaments?format=round-robin&status=finished").json["total"] == 1
    assert client.get("/v1/tournaments?format=knockout").json["total"] == 0


def test_TRN_RANK_1_a_player_with_three_losses_is_seeded_above_the_unrated_and_bots(client, service):
    """The audit's case: three losses give an ordinal of -4.65, which seeded below every unrated
    player and bot (who were recorded at 0). Rated entrants now come first, the unrated after."""
    lou, nia = new_player(client, "lou"), new_player(client, "nia")
    for n in range(3):
        service.ratings.rate("tiny", f"g-loss{n}", [{"seat": 0, "player": lou["id"]}, {"seat": 1, "player": f"w{n}"}],
                             {"seats": [{"seat": 0, "place": 2}, {"seat": 1, "place": 1}]}, "2026-01-01T00:00:00Z")
    assert service.ratings.of("tiny", lou["id"])["ordinal"] == pytest.approx(-4.65, abs=0.005)
    body = {"game": "tiny", "format": "knockout", "table_size": 2, "options": {"turns": 1}, "clock": CLOCK,
            "start_at": "2099-01-01T00:00:00Z",
            "entrants": [{"bot": "random", "name": "robo"}]}
    tid = client.post("/v1/tournaments", json=body, headers=ADMIN).json["id"]
    for p in (nia, lou):
        joined = client.post(f"/v1/tournaments/{tid}/entrants", json={"player": p["id"]}, headers=bearer(p))
        assert joined.status_code == 201, joined.json
    entrants = client.get(f"/v1/tournaments/{tid}").json["entrants"]
    assert [e["rating"] for e in entrants[:2]] == [None, None] and entrants[2]["rating"] < 0
    assert initial_rank(entrants) == ["e2", "e0", "e1"]  # lou, then robo and nia by registration
    # a log written before, with the unrated recorded at 0, keeps its order (it re-derives the same rounds)
    before = [{**e, "rating": 0.0 if e["rating"] is None else e["rating"]} for e in entrants]
    assert initial_rank(before) == ["e0", "e1", "e2"]
