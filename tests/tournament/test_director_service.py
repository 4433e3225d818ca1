"""Director's results over HTTP and in the bundle (issue 25, finding 2): the route, who may use
it, the running game aborted under a decided result that stands, withdrawal from the round
being played, and ``delve verify`` re-deriving standings with the decisions (TRN-DIR-1)."""
from __future__ import annotations

import json

from click.testing import CliRunner

from delve.cli import cli
from application.tournament_verify import verify_bundle
from application.tournaments import TournamentService
from tests.support.forge import rechain
from tests.tournament.test_tournament_jobs import CLOCK

ADMIN = {"Authorization": "Bearer admin-secret"}


def bearer(player: dict) -> dict:
    return {"Authorization": f"Bearer {player['token']}"}


def organized(client, service, rounds: int = 2) -> tuple[str, dict, dict, TournamentService]:
    """ann organizes a Swiss of ann and bob (she enters herself; bob accepts her invitation), started
    and round 1 paired: its game runs, waiting for a move."""
    ann, bob = (client.post("/v1/players", json={"name": n}).json for n in ("ann", "bob"))
    created = client.post("/v1/tournaments", headers=bearer(ann), json={
        "game": "tiny", "format": "swiss", "table_size": 2, "rounds": rounds, "options": {"turns": 2},
        "clock": CLOCK, "entrants": [{"player": ann["id"]}, {"player": bob["id"]}]})
    tid = created.json["id"]
    assert client.post(f"/v1/players/me/invitations/{tid}/accept", headers=bearer(bob)).status_code in (200, 201)
    assert client.post(f"/v1/tournaments/{tid}/start", headers=bearer(ann)).status_code == 200
    ts = TournamentService(service)
    ts.advance(tid)
    return tid, ann, bob, ts


def test_TRN_DIR_1_a_forfeit_aborts_the_running_game_and_stands(client, service):
    tid, ann, bob, ts = organized(client, service)
    gid = ts.get(tid)["rounds"][0]["tables"][0]["game_id"]
    assert service.store.meta(gid)["status"] == "active"
    url = f"/v1/tournaments/{tid}/rounds/1/tables/0/result"
    body = {"kind": "forfeit", "losers": ["e1"], "reason": "bob left the hall"}
    assert client.post(url, json=body, headers=bearer(bob)).json["code"] == "not_organizer"
    assert client.post(url, json=body).status_code == 401
    decided = client.post(url, json=body, headers=bearer(ann))
    assert decided.status_code == 200, decided.json
    table = decided.json["rounds"][0]["tables"][0]
    assert table["decision"] == {"kind": "forfeit", "reason": "bob left the hall", "by": ann["id"]}
    assert table["result"]["places"] == {"e0": 1, "e1": 2} and table["result"]["outcome"] == "forfeit"
    assert service.store.meta(gid)["status"] == "aborted"  # through the platform's abort
    again = client.post(url, json=body, headers=ADMIN)
    assert again.status_code == 422 and (again.json["code"], again.json["rule"]) == ("already_decided", "TRN-DIR-1")
    ts.advance(tid)
    after = ts.get(tid)
    assert after["rounds"][0]["tables"][0]["result"]["outcome"] == "forfeit"  # the aborted game changed nothing
    assert [s["entrant"] for s in after["standings"]][0] == "e0" and len(after["rounds"]) == 2


def test_TRN_DIR_1_bad_requests_are_problems(client, service):
    tid, ann, _bob, _ts = organized(client, service)
    url = f"/v1/tournaments/{tid}/rounds/1/tables/0/result"
    bad = "malformed_request"
    cases = [
        (url, {"kind": "forfeit", "reason": "r"}, 422, "bad_losers"),  # a forfeit names its losers
        (url, {"kind": "walkover", "reason": "r"}, 422, "bad_losers"),
        (url, {"kind": "adjudicated", "reason": "r"}, 422, "bad_places"),  # every seat's place
        (url, {"kind": "forfeit", "losers": ["e0"]}, 400, bad),  # no reason
        (url, {"kind": "adjudicated", "places": {"e0": 1, "e1": 1}, "reason": "r", "extra": 1}, 400, bad),
        (url, {"kind": "double_forfeit", "losers": ["e0"], "reason": "r"}, 400, bad),
        (url, {"kind": "forfeit", "losers": ["e0", "e1"], "reason": "r"}, 422, "bad_losers"),
        (url, {"kind": "adjudicated", "places": {"e0": 2, "e1": 2}, "reason": "r"}, 422, "bad_places"),
        (f"/v1/tournaments/{tid}/rounds/3/tables/0/result", {"kind": "double_forfeit", "reason": "r"}, 422,
         "no_such_table"),
        (f"/v1/tournaments/{tid}/rounds/1/tables/4/result", {"kind": "double_forfeit", "reason": "r"}, 422,
         "no_such_table"),
        ("/v1/tournaments/tnope/rounds/1/tables/0/result", {"kind": "double_forfeit", "reason": "r"}, 404, None),
        (f"/v1/tournaments/{tid}/rounds/x/tables/0/result", {"kind": "double_forfeit", "reason": "r"}, 404, None),
    ]
    for path, body, status, code in cases:
        got = client.post(path, json=body, headers=bearer(ann))
        assert got.status_code == status, (path, body, got.json)
        assert got.headers["Content-Type"].startswith("application/problem+json"), (path, body)
        assert code is None or got.json["code"] == code, (body, got.json)
    assert client.post(url, data="[", headers={**bearer(ann), "Content-Type": "application/json"}).status_code == 400


def test_TRN_WD_2_withdrawing_from_the_round_being_played_over_http(client, service):
    tid, ann, bob, ts = organized(client, service, rounds=3)
    gid = ts.get(tid)["rounds"][0]["tables"][0]["game_id"]
    wrong = client.post(f"/v1/tournaments/{tid}/entrants/e1/withdraw", json={"from_round": 3}, headers=bearer(bob))
    assert wrong.status_code == 422 and (wrong.json["code"], wrong.json["rule"]) == ("bad_round", "TRN-WD-2")
    left = client.post(f"/v1/tournaments/{tid}/entrants/e1/withdraw", json={"from_round": 1}, headers=bearer(bob))
    assert left.status_code == 200, left.json
    assert left.json["entrants"][1]["withdrawn_from"] == 1
    assert left.json["rounds"][0]["tables"][0]["decision"]["reason"] == "withdrew from round 1"
    assert service.store.meta(gid)["status"] == "aborted"
    ts.advance(tid)
    done = ts.get(tid)
    assert done["status"] == "finished"  # ann alone cannot be paired
    bundle = list(ts.bundle(tid))
    assert verify_bundle(bundle).ok

    def earlier(log):
        next(e for e in log if e["type"] == "EntrantWithdrew")["data"]["from_round"] = 3
    assert any("a withdrawal the rules refuse (TRN-WD-2)" in p for p in forged(bundle, tid, earlier))

    def kept_playing(log):
        """The withdrawal from the round being played, without the forfeit of its table."""
        at = next(i for i, e in enumerate(log) if e["type"] == "ResultDecided")
        del log[at]
        for seq, e in enumerate(log, start=log[0]["seq"]):
            e["seq"] = seq
    assert any("is not forfeited by it (TRN-WD-2)" in p for p in forged(bundle, tid, kept_playing))


def played_with_decisions(client, service) -> tuple[str, list[str]]:
    """Round 1 forfeited by bob, round 2 adjudicated a draw; the bundle of the finished Swiss."""
    tid, ann, _bob, ts = organized(client, service)
    assert client.post(f"/v1/tournaments/{tid}/rounds/1/tables/0/result", headers=bearer(ann), json={
        "kind": "forfeit", "losers": ["e1"], "reason": "no-show"}).status_code == 200
    ts.advance(tid)
    assert client.post(f"/v1/tournaments/{tid}/rounds/2/tables/0/result", headers=ADMIN, json={
        "kind": "adjudicated", "places": {"e0": 1, "e1": 1}, "scores": {"e0": 3}, "reason": "flag fell on both"},
    ).status_code == 200
    ts.advance(tid)
    assert ts.get(tid)["status"] == "finished"
    return tid, list(ts.bundle(tid))


def test_TRN_DIR_1_delve_verify_passes_a_bundle_with_decided_results_and_fails_a_tampered_one(
        client, service, signer, tmp_path):
    _tid, bundle = played_with_decisions(client, service)
    lines = [json.loads(line) for line in bundle]
    assert sum(1 for e in lines if e.get("type") == "ResultDecided") == 2
    final = next(e for e in lines if e.get("type") == "TournamentFinished")["data"]["standings"]
    assert [(s["entrant"], s["points"]) for s in final] == [("e0", 1.5), ("e1", 0.5)]
    good, keys = tmp_path / "t.ndjson", tmp_path / "keys.json"
    good.write_text("".join(bundle))
    keys.write_text(json.dumps(signer.keys()))
    report = tmp_path / "report.md"
    ok = CliRunner().invoke(cli, ["verify", str(good), "--keys", str(keys), "--report", str(report)])
    assert ok.exit_code == 0, ok.output
    assert "pairings, 2 director's results and standings follow" in ok.output.splitlines()[0]
    judged = report.read_text()
    assert "## Director's results" in judged and "| 1 | 0 | forfeit | ann #1, bob #2 | no-show |" in judged

    decided = next(i for i, line in enumerate(bundle) if '"adjudicated"' in line)
    changed = list(bundle)
    changed[decided] = changed[decided].replace('"places":{"e0":1,"e1":1}', '"places":{"e0":2,"e1":1}')
    assert changed[decided] != bundle[decided]
    bad = tmp_path / "bad.ndjson"
    bad.write_text("".join(changed))
    refused = CliRunner().invoke(cli, ["verify", str(bad)])
    assert refused.exit_code == 1 and f"tournament seq {lines[decided]['seq']}" in refused.output


def forged(bundle: list[str], tid: str, forge) -> list[dict]:
    """The problems verify finds in the bundle once ``forge`` edited a tournament envelope and the
    log was re-chained (a sound chain: only the replay can tell)."""
    envs = [json.loads(line) for line in bundle]
    log = [e for e in envs if e.get("game_id") == tid]
    forge(log)
    lines = [bundle[0], *rechain(log), *(line for line, e in zip(bundle[1:], envs[1:]) if e.get("game_id") != tid)]
    verdict = verify_bundle(lines)
    assert not verdict.ok and verdict.chain_ok
    return [p["problem"] for p in verdict.problems]


def _decision(log: list[dict], kind: str) -> dict:
    return next(e for e in log if e["type"] == "ResultDecided" and e["data"]["kind"] == kind)["data"]


def test_TRN_DIR_1_a_forged_decision_is_caught_even_with_a_sound_chain(client, service):
    tid, bundle = played_with_decisions(client, service)

    def swap_places(log):
        _decision(log, "forfeit")["result"]["places"] = {"e0": 2, "e1": 1}
    assert any("is not what its kind and entrants give" in p for p in forged(bundle, tid, swap_places))

    def other_winner(log):
        _decision(log, "adjudicated")["result"]["places"] = {"e0": 2, "e1": 1}
    assert any("the final standings do not follow" in p for p in forged(bundle, tid, other_winner))

    def no_such_table(log):
        _decision(log, "forfeit")["table"] = 3
    assert any("rules refuse (TRN-DIR-1)" in p and "has no table 3" in p for p in forged(bundle, tid, no_such_table))

    def report_over_it(log):
        """A game's report appended after the decision of its table, as if the aborted game counted."""
        at = next(i for i, e in enumerate(log) if e["type"] == "ResultDecided")
        d = log[at]["data"]
        log.insert(at + 1, {**log[at], "type": "GameFinished", "data": {
            "round": d["round"], "table": d["table"], "game_id": d["game_id"], "chain_head": "00" * 32,
            "result": {"places": {"e0": None, "e1": None}, "scores": {"e0": 0, "e1": 0}, "outcome": "aborted"}}})
        for seq, e in enumerate(log, start=log[0]["seq"]):
            e["seq"] = seq
    assert any("reported for a table the director decided" in p for p in forged(bundle, tid, report_over_it))


def test_TRN_DIR_1_a_decision_whose_abort_was_lost_is_repaired_by_the_next_advance(client, service, monkeypatch):
    """The decision is logged first; a process that dies before aborting the game leaves it to the
    next advance, which closes the decided table's game (the result stands either way)."""
    from application import tournament_games
    tid, _ann, _bob, ts = organized(client, service)
    gid = ts.get(tid)["rounds"][0]["tables"][0]["game_id"]
    real = tournament_games.close

    class Killed(Exception):
        pass

    def killed(*_args):
        raise Killed()
    monkeypatch.setattr(tournament_games, "close", killed)
    try:
        ts.decide_result(tid, 1, 0, {"kind": "double_forfeit", "reason": "both late"})
    except Killed:
        pass
    assert ts.get(tid)["rounds"][0]["tables"][0]["decision"]["kind"] == "double_forfeit"
    assert service.store.meta(gid)["status"] == "active"
    monkeypatch.setattr(tournament_games, "close", real)
    TournamentService(service).advance(tid)  # a fresh process
    assert service.store.meta(gid)["status"] == "aborted"
    assert [line["points"] for line in ts.get(tid)["standings"]] == [0, 0]
