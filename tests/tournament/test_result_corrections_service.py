"""Corrected results over HTTP and in the bundle (TRN-DIR-3): the route, who may use it, its
refusals as problem+json, and ``delve verify`` re-checking every correction at its place in the
log (allowed then, naming the result it replaced) and listing them in its report."""
from __future__ import annotations

import json

from click.testing import CliRunner

from application.tournament_verify import verify_bundle
from delve.cli import cli
from delve.tournament import play_out
from tests.tournament.test_director_service import ADMIN, bearer, forged, organized
from tests.tournament.test_tournament_service import bots, driver, ts  # noqa: F401 - the fixtures


def correction(tid: str, round_no: int = 1, table: int = 0) -> str:
    return f"/v1/tournaments/{tid}/rounds/{round_no}/tables/{table}/correction"


def test_TRN_DIR_3_a_director_corrects_over_http_in_the_round_being_played_and_after_it(client, service):
    tid, ann, bob, ts = organized(client, service)
    forfeit = {"kind": "forfeit", "losers": ["e1"], "reason": "no-show"}
    early = client.post(correction(tid), json=forfeit, headers=bearer(ann))
    assert early.status_code == 422 and early.headers["Content-Type"].startswith("application/problem+json")
    assert (early.json["code"], early.json["rule"]) == ("no_result_to_correct", "TRN-DIR-3")
    assert client.post(f"/v1/tournaments/{tid}/rounds/1/tables/0/result", json=forfeit,
                       headers=bearer(ann)).status_code == 200
    draw = {"kind": "adjudicated", "places": {"e0": 1, "e1": 1}, "reason": "bob was there: the clock was wrong"}
    assert client.post(correction(tid), json=draw, headers=bearer(bob)).json["code"] == "not_organizer"
    assert client.post(correction(tid), json=draw).status_code == 401
    assert client.post(correction("tnope"), json=draw, headers=ADMIN).status_code == 404
    missing = client.post(correction(tid), json={"kind": "forfeit", "reason": "r"}, headers=ADMIN)
    assert (missing.status_code, missing.json["code"]) == (422, "bad_losers")  # the kind's own field, as decided
    fixed = client.post(correction(tid), json=draw, headers=bearer(ann))
    assert fixed.status_code == 200, fixed.json
    table = fixed.json["rounds"][0]["tables"][0]
    assert table["result"] == {"places": {"e0": 1, "e1": 1}, "scores": {"e0": 0, "e1": 0}, "outcome": "adjudicated"}
    assert table["decision"]["kind"] == "forfeit"  # what was decided stays on record
    assert table["corrections"] == [{"kind": "adjudicated", "reason": "bob was there: the clock was wrong",
                                     "by": ann["id"], "previous": {"places": {"e0": 1, "e1": 2},
                                                                   "scores": {"e0": 0, "e1": 0}, "outcome": "forfeit"}}]
    same = client.post(correction(tid), json={**draw, "reason": "once more"}, headers=ADMIN)
    assert same.status_code == 422 and (same.json["code"], same.json["rule"]) == ("same_result", "TRN-DIR-3")
    ts.advance(tid)
    assert ts.get(tid)["rounds"][0]["completed"] and len(ts.get(tid)["rounds"]) == 2
    later = client.post(correction(tid), json={"kind": "forfeit", "losers": ["e0"], "reason": "ann's appeal failed"},
                        headers=ADMIN)
    assert later.status_code == 200 and len(later.json["rounds"][0]["tables"][0]["corrections"]) == 2
    assert {s["entrant"]: s["points"] for s in later.json["standings"]} == {"e0": 0, "e1": 1}
    assert later.json["rounds"][1]["tables"][0]["corrections"] == []  # an uncorrected table lists none


def test_TRN_DIR_3_a_correction_aborts_a_game_still_running_at_its_table(client, service, monkeypatch):
    """A decision whose abort was lost leaves its game running; a correction of that table aborts it."""
    from application import tournament_games
    tid, _ann, _bob, ts = organized(client, service)
    gid = ts.get(tid)["rounds"][0]["tables"][0]["game_id"]
    real = tournament_games.close
    monkeypatch.setattr(tournament_games, "close", lambda *_args: None)
    ts.decide_result(tid, 1, 0, {"kind": "double_forfeit", "reason": "both late"})
    assert service.store.meta(gid)["status"] == "active"
    monkeypatch.setattr(tournament_games, "close", real)
    ts.correct_result(tid, 1, 0, {"kind": "forfeit", "losers": ["e1"], "reason": "only bob was late"})
    assert service.store.meta(gid)["status"] == "aborted"


def corrected_swiss(client, service) -> tuple[str, list[str]]:
    """Round 1 decided, corrected while played and corrected again once completed; round 2 decided."""
    tid, ann, _bob, ts = organized(client, service)
    assert client.post(f"/v1/tournaments/{tid}/rounds/1/tables/0/result", headers=bearer(ann), json={
        "kind": "forfeit", "losers": ["e1"], "reason": "no-show"}).status_code == 200
    assert client.post(correction(tid), headers=bearer(ann), json={
        "kind": "adjudicated", "places": {"e0": 1, "e1": 1}, "reason": "bob was there"}).status_code == 200
    ts.advance(tid)
    assert client.post(correction(tid), headers=ADMIN, json={
        "kind": "forfeit", "losers": ["e0"], "reason": "ann's appeal failed"}).status_code == 200
    assert client.post(f"/v1/tournaments/{tid}/rounds/2/tables/0/result", headers=ADMIN, json={
        "kind": "walkover", "losers": ["e1"], "reason": "bob went home"}).status_code == 200
    ts.advance(tid)
    assert ts.get(tid)["status"] == "finished"
    late = client.post(correction(tid), headers=ADMIN, json={"kind": "double_forfeit", "reason": "too late"})
    assert late.status_code == 422 and (late.json["code"], late.json["rule"]) == ("tournament_not_running", "TRN-DIR-3")
    return tid, list(ts.bundle(tid))


def test_TRN_DIR_3_delve_verify_passes_a_bundle_with_corrections_and_reports_them(client, service, signer, tmp_path):
    _tid, bundle = corrected_swiss(client, service)
    verdict = verify_bundle(bundle)
    assert verdict.ok, verdict.problems
    assert [c["reason"] for c in verdict.corrections] == ["bob was there", "ann's appeal failed"]
    final = next(json.loads(line) for line in bundle if '"TournamentFinished"' in line)["data"]["standings"]
    assert {s["entrant"]: s["points"] for s in final} == {"e0": 1, "e1": 1}  # bob's round 1, ann's round 2
    good, keys, report = tmp_path / "t.ndjson", tmp_path / "keys.json", tmp_path / "report.md"
    good.write_text("".join(bundle))
    keys.write_text(json.dumps(signer.keys()))
    ok = CliRunner().invoke(cli, ["verify", str(good), "--keys", str(keys), "--report", str(report)])
    assert ok.exit_code == 0, ok.output
    assert "pairings, 2 director's results, 2 corrections and standings follow" in ok.output.splitlines()[0]
    judged = report.read_text()
    assert "## Corrected results" in judged
    assert "| 1 | 0 | forfeit: ann #1, bob #2 | adjudicated: ann #1, bob #1 | bob was there |" in judged
    assert "| 1 | 0 | adjudicated: ann #1, bob #1 | forfeit: ann #2, bob #1 | ann's appeal failed | admin |" in judged


def _corrections(log: list[dict]) -> list[dict]:
    return [e["data"] for e in log if e["type"] == "ResultCorrected"]


def _renumber(log: list[dict]) -> None:
    for seq, e in enumerate(log, start=log[0]["seq"]):
        e["seq"] = seq


def test_TRN_DIR_3_a_forged_correction_is_caught_even_with_a_sound_chain(client, service):
    tid, bundle = corrected_swiss(client, service)

    def other_previous(log):
        _corrections(log)[1]["previous"]["places"] = {"e0": 2, "e1": 1}
    assert any("names a previous result other than the one recorded" in p
               for p in forged(bundle, tid, other_previous))

    def swapped(log):
        _corrections(log)[1]["result"]["places"] = {"e0": 1, "e1": 2}
    assert any("corrected result of round 1 table 0 is not what its kind and entrants give" in p
               for p in forged(bundle, tid, swapped))

    def after_the_end(log):
        last = _corrections(log)[1]
        log.append({**log[-1], "type": "ResultCorrected", "data": {
            "round": 1, "table": 0, "game_id": last["game_id"], "kind": "double_forfeit", "reason": "too late",
            "by": "admin", "previous": last["result"],
            "result": {"places": {"e0": None, "e1": None}, "scores": {"e0": 0, "e1": 0}, "outcome": "double_forfeit"}}})
        _renumber(log)
    problems = forged(bundle, tid, after_the_end)
    assert any("a corrected result the rules refuse (TRN-DIR-3)" in p and "it is finished" in p for p in problems)


def test_TRN_DIR_3_verify_refuses_a_correction_of_a_completed_knockout_round(ts, driver):  # noqa: F811
    t = ts.create({"game": "tiny", "format": "knockout", "table_size": 2, "options": {"turns": 1},
                   "entrants": bots(4)})
    done = play_out(ts, t["id"], driver)
    bundle = list(ts.bundle(t["id"]))
    assert verify_bundle(bundle).ok
    table = done["rounds"][0]["tables"][0]
    winner = next(e for e in table["seats"] if table["result"]["places"][e] == 1)

    def overturned(log):
        """The round-1 winner forfeits after the final was paired on its win."""
        at = next(i for i, e in enumerate(log) if e["type"] == "SeedRevealed")
        log.insert(at, {**log[at], "type": "ResultCorrected", "data": {
            "round": 1, "table": 0, "game_id": table["game_id"], "kind": "forfeit", "reason": "appeal",
            "by": "admin", "losers": [winner],
            "result": {"places": {e: 2 if e == winner else 1 for e in table["seats"]},
                       "scores": {e: 0 for e in table["seats"]}, "outcome": "forfeit"},
            "previous": table["result"]}})
        _renumber(log)
    problems = forged(bundle, t["id"], overturned)
    assert any("a corrected result the rules refuse (TRN-DIR-3)" in p and "paired on" in p for p in problems)
