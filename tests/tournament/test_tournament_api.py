"""The tournament API over HTTP: the director's walk-through of the README, and
refusals as problem+json with codes (server/routes/tournaments.py)."""
from __future__ import annotations

import json

from application.tournaments import TournamentService
from delve.tournament import play_out
from tests.tournament.test_tournament_service import driver  # noqa: F401 - the fixture

ADMIN = {"Authorization": "Bearer admin-secret"}


def test_director_walk_through(client, service, driver):  # noqa: F811
    body = {"game": "tiny", "format": "swiss", "table_size": 2, "rounds": 2, "options": {"turns": 1},
            "name": "Friday Swiss", "start_at": "2099-01-01T18:00:00+01:00",
            "entrants": [{"bot": "random", "name": f"b{i}"} for i in range(4)]}
    created = client.post("/v1/tournaments", json=body, headers=ADMIN)
    assert created.status_code == 201 and created.json["status"] == "registering"
    tid = created.json["id"]
    assert created.headers["Location"] == f"/v1/tournaments/{tid}"
    late = client.post(f"/v1/tournaments/{tid}/entrants", json={"bot": "random", "name": "late"}, headers=ADMIN)
    assert late.status_code == 201 and late.json["id"] == "e4"
    started = client.post(f"/v1/tournaments/{tid}/start", headers=ADMIN)
    assert started.status_code == 200 and started.json["status"] == "running" and started.json["rounds"] == []
    assert client.get(f"/v1/tournaments/{tid}/bundle").json["code"] == "tournament_not_finished"
    play_out(TournamentService(service), tid, driver)
    t = client.get(f"/v1/tournaments/{tid}").json
    assert t["status"] == "finished" and len(t["rounds"]) == 2 and len(t["standings"]) == 5
    assert client.get(f"/v1/tournaments/{tid}/standings").json["standings"] == t["standings"]
    assert client.get(f"/v1/tournaments/{tid}/rounds").json["rounds"] == t["rounds"]
    table = t["rounds"][1]["tables"][0]["game_id"]  # a game's summary names the tournament and round it plays in
    assert client.get(f"/v1/games/{table}").json["tournament"] == {"id": tid, "round": 2}
    assert client.get(f"/v1/tournaments?status=finished").json["tournaments"][0]["id"] == tid
    events = client.get(f"/v1/tournaments/{tid}/events?limit=1000").json["events"]
    assert events[0]["type"] == "TournamentCreated" and events[-1]["type"] == "TournamentFinished"
    bundle = client.get(f"/v1/tournaments/{tid}/bundle")
    assert bundle.status_code == 200 and bundle.mimetype == "application/x-ndjson"
    verdict = client.post("/v1/audit/verify", data=bundle.data, content_type="application/x-ndjson").json
    assert verdict["ok"] and len(verdict["games"]) == 4
    lines = bundle.data.decode().splitlines()
    i = next(i for i, line in enumerate(lines) if '"GameFinished"' in line and f'"game_id":"{tid}"' in line)
    lines[i] = lines[i].replace('"chain_head":"', '"chain_head":"0', 1)
    bad = client.post("/v1/audit/verify", data="\n".join(lines), content_type="application/x-ndjson").json
    assert not bad["ok"] and bad["problems"][0]["place"] == f"tournament seq {json.loads(lines[i])['seq']}"


def test_managing_takes_the_admin_token_or_a_player_token(client):
    body = {"game": "tiny", "format": "swiss", "table_size": 2}
    assert client.post("/v1/tournaments", json=body).json["code"] == "token_required"
    wrong = client.post("/v1/tournaments", json=body, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401 and wrong.json["code"] == "invalid_player_token"
    tid = client.post("/v1/tournaments", json=body, headers=ADMIN).json["id"]
    assert client.post(f"/v1/tournaments/{tid}/start").status_code == 401
    assert client.post(f"/v1/tournaments/{tid}/entrants", json={"bot": "random"}).status_code == 401


def test_refusals_are_problems_with_codes(client):
    def create(**body):
        return client.post("/v1/tournaments", json={"game": "tiny", "format": "swiss", "table_size": 2, **body},
                           headers=ADMIN)
    assert create(format="ladder").json["code"] == "unknown_format"
    bad = create(table_size=9)
    assert bad.status_code == 422 and bad.json["rule"] == "TRN-CFG-1"
    assert create(entrants=[{"bot": "random"}]).json["code"] == "too_few_entrants"
    assert create(colour="white").status_code == 400
    assert client.get("/v1/tournaments/tnope").json["code"] == "tournament_not_found"
    tid = create().json["id"]
    assert client.post(f"/v1/tournaments/{tid}/start", headers=ADMIN).json["code"] == "too_few_entrants"
    gone = client.post(f"/v1/tournaments/{tid}/entrants/e7/withdraw", headers=ADMIN)
    assert gone.status_code == 422 and gone.json["code"] == "no_such_entrant"


def test_planned_rounds_of_a_field_too_small_to_pair_is_zero(client):
    """A round robin with no entrant yet answered planned_rounds -1 (n - 1 for n = 0); with fewer
    than two entrants no round can be paired, so the plan is 0 rounds; a knockout's stays null."""
    def planned(fmt, entrants):
        body = {"game": "tiny", "format": fmt, "table_size": 2, "start_at": "2099-01-01T00:00:00Z",
                "entrants": [{"bot": "random", "name": f"b{i}"} for i in range(entrants)]}
        created = client.post("/v1/tournaments", json=body, headers=ADMIN)
        assert created.status_code == 201, created.json
        tid = created.json["id"]
        whole, rounds = client.get(f"/v1/tournaments/{tid}").json, client.get(f"/v1/tournaments/{tid}/rounds").json
        assert whole["planned_rounds"] == rounds["planned_rounds"]
        return whole["planned_rounds"]
    assert [planned("round-robin", n) for n in (0, 1, 2, 3, 4)] == [0, 0, 1, 3, 3]
    assert [planned("swiss", n) for n in (0, 1, 4)] == [0, 0, 2]
    assert planned("knockout", 0) is None


def test_a_search_bot_entrant_takes_a_level_as_the_contract_says(client):
    """``{"bot": "search", "level": "hard"}`` (EntrantSpec, docs/tournaments.md) enters ``search-hard``,
    at creation and later; a bad level is 422 bad_bot_level, as for a game's seat, and writes nothing."""
    body = {"game": "saboteur", "format": "swiss", "table_size": 3, "start_at": "2099-01-01T00:00:00Z",
            "entrants": [{"bot": "search", "level": "hard", "name": "thinker"}, {"bot": "search", "level": "easy"}]}
    created = client.post("/v1/tournaments", json=body, headers=ADMIN)
    assert created.status_code == 201, created.json
    assert [(e["bot"], e["name"]) for e in created.json["entrants"]] == [("search-hard", "thinker"),
                                                                         ("search-easy", "search-easy-2")]
    tid = created.json["id"]
    late = client.post(f"/v1/tournaments/{tid}/entrants", json={"bot": "search", "level": "normal"}, headers=ADMIN)
    assert late.status_code == 201 and late.json["bot"] == "search-normal", late.json
    for entrant, status, code in [({"bot": "search", "level": "expert"}, 422, "bad_bot_level"),
                                  ({"bot": "heuristic", "level": "hard"}, 422, "bad_bot_level"),
                                  ({"player": "p1", "level": "hard"}, 400, "malformed_request")]:
        refused = [client.post("/v1/tournaments", json={**body, "entrants": [entrant]}, headers=ADMIN),
                   client.post(f"/v1/tournaments/{tid}/entrants", json=entrant, headers=ADMIN)]
        assert [(r.status_code, r.json["code"]) for r in refused] == [(status, code)] * 2, (entrant, refused[0].json)
    assert client.get("/v1/tournaments").json["total"] == 1
    assert len(client.get(f"/v1/tournaments/{tid}").json["entrants"]) == 3
