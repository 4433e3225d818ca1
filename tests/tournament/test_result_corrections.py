"""A director corrects a recorded result (TRN-DIR-3): a game's reported result or an earlier
decision, in the round being played or a completed one, logged as ``ResultCorrected`` with the
result it replaces. Pure: decide.py, log.py, standings.py, pairing.py."""
from __future__ import annotations

import copy

import pytest

from domain.core import Illegal
from domain.tournament import Config, decide, pair_round, standings
from domain.tournament.log import pairing_view
from tests.tournament.test_director_results import SEED, aborted_final, apply, report, running, settle


def corrected(t: dict, round_no: int, index: int, body: dict, by: str = "admin") -> dict:
    """Apply a correction; its event."""
    step = decide.correct_result(t, round_no, index, body, by)
    apply(t, step)
    return step.events[0]


def refused(t: dict, round_no: int, index: int, body: dict) -> Illegal:
    with pytest.raises(Illegal) as caught:
        decide.correct_result(t, round_no, index, body, "admin")
    return caught.value


def board(t: dict) -> list[dict]:
    return standings(Config.from_dict(t["config"]), t["entrants"], pairing_view(t["rounds"]))


def logged(t: dict) -> list[dict]:
    """Run progress like ``settle``, returning the events it appended."""
    events = []
    for _ in range(10):
        step = decide.progress(t, SEED, lambda *_: None)
        if step is None:
            return events
        apply(t, step)
        events += step.events
    return events


def test_TRN_DIR_3_a_reported_result_is_replaced_and_the_previous_one_logged():
    t = running("swiss", 4, rounds=2)
    table = t["rounds"][0]["tables"][0]
    a, b = table["seats"]
    report(t, 0, [1, 2])
    played = copy.deepcopy(table["result"])
    step = decide.correct_result(t, 1, 0, {"kind": "adjudicated", "places": {a: 2, b: 1}, "scores": {b: 5},
                                          "reason": "the arbiter saw an illegal move"}, "p1")
    assert step.command_id == f"correct:{table['game_id']}:1"
    [ev] = step.events
    assert ev["type"] == "ResultCorrected"
    assert ev["data"] == {"round": 1, "table": 0, "game_id": table["game_id"], "kind": "adjudicated",
                          "reason": "the arbiter saw an illegal move", "by": "p1",
                          "result": {"places": {a: 2, b: 1}, "scores": {a: 0, b: 5}, "outcome": "adjudicated"},
                          "previous": played}
    apply(t, step)
    assert table["result"] == ev["data"]["result"] and table.get("decision") is None
    assert table["corrections"] == [{"kind": "adjudicated", "reason": "the arbiter saw an illegal move", "by": "p1",
                                     "previous": played}]
    line = {s["entrant"]: s["points"] for s in board(t)}
    assert (line[a], line[b]) == (0, 1)


def test_TRN_DIR_3_a_decision_is_corrected_again_and_again_each_correction_logged():
    t = running("swiss", 4, rounds=2)
    table = t["rounds"][0]["tables"][0]
    a, b = table["seats"]
    apply(t, decide.decide_result(t, 1, 0, {"kind": "forfeit", "losers": [a], "reason": "late"}, "admin"))
    decided = copy.deepcopy(table["result"])
    first = corrected(t, 1, 0, {"kind": "walkover", "losers": [a], "reason": "never came at all"})
    assert first["data"]["previous"] == decided  # the same places: the kind is what changed
    second = decide.correct_result(t, 1, 0, {"kind": "double_forfeit", "reason": "both late, it turns out"}, "admin")
    assert second.command_id.endswith(":2") and second.events[0]["data"]["previous"] == first["data"]["result"]
    apply(t, second)
    assert table["decision"] == {"kind": "forfeit", "reason": "late", "by": "admin"}  # what was decided, kept
    assert [c["kind"] for c in table["corrections"]] == ["walkover", "double_forfeit"]
    assert table["result"]["outcome"] == "double_forfeit"
    assert {s["entrant"]: s["points"] for s in board(t)}[b] == 0


def test_TRN_DIR_3_a_table_without_a_result_is_decided_not_corrected():
    t = running("swiss", 4, rounds=2)
    problem = refused(t, 1, 0, {"kind": "forfeit", "losers": [t["rounds"][0]["tables"][0]["seats"][0]],
                                "reason": "r"})
    assert (problem.code, problem.rule) == ("no_result_to_correct", "TRN-DIR-3")
    assert "decide it (TRN-DIR-1)" in problem.message


def test_TRN_DIR_3_refusals_have_stable_codes():
    t = running("swiss", 4, rounds=2)
    a, b = t["rounds"][0]["tables"][0]["seats"]
    report(t, 0, [1, 2])
    corrected(t, 1, 0, {"kind": "forfeit", "losers": [b], "reason": "r"})
    same = refused(t, 1, 0, {"kind": "forfeit", "losers": [b], "reason": "another reason"})
    assert (same.code, same.rule) == ("same_result", "TRN-DIR-3")
    for round_no, index in ((3, 0), (1, 2), (0, 0)):
        missing = refused(t, round_no, index, {"kind": "double_forfeit", "reason": "r"})
        assert (missing.code, missing.rule) == ("no_such_table", "TRN-DIR-3")
    assert refused(t, 1, 0, {"kind": "forfeit", "losers": [a, b], "reason": "r"}).code == "bad_losers"
    assert refused(t, 1, 0, {"kind": "adjudicated", "places": {a: 1}, "reason": "r"}).code == "bad_places"
    assert refused(t, 1, 0, {"kind": "double_forfeit", "reason": " "}).code == "reason_required"
    report(t, 1, [1, 2])
    settle(t)
    for i in range(2):
        report(t, i, [1, 2])
    settle(t)
    assert t["status"] == "finished"
    done = refused(t, 1, 0, {"kind": "double_forfeit", "reason": "r"})
    assert (done.code, done.rule) == ("tournament_not_running", "TRN-DIR-3")


def test_TRN_DIR_3_a_game_result_adjudicated_alike_is_a_correction_of_its_kind():
    """The same places and scores under another kind (a game's win adjudicated as such) is a new
    result: its outcome differs. Only the very result the table has is refused (same_result)."""
    t = running("swiss", 4, rounds=2)
    a, b = t["rounds"][0]["tables"][0]["seats"]
    report(t, 0, [1, 2])
    ev = corrected(t, 1, 0, {"kind": "adjudicated", "places": {a: 1, b: 2}, "reason": "confirmed on appeal"})
    assert ev["data"]["previous"]["outcome"] == "win" and ev["data"]["result"]["outcome"] == "adjudicated"


def test_TRN_DIR_3_knockout_corrects_the_round_being_played_with_a_winner_never_a_completed_round():
    t = running("knockout", 4)
    first, second = t["rounds"][0]["tables"]
    report(t, 0, [1, 2])
    report(t, 1, [1, 2])
    no_winner = refused(t, 1, 0, {"kind": "double_forfeit", "reason": "both cheated"})
    assert (no_winner.code, no_winner.rule) == ("knockout_needs_winner", "TRN-DIR-2")
    upset = first["seats"][1]
    corrected(t, 1, 0, {"kind": "adjudicated", "places": {first["seats"][0]: 2, upset: 1}, "reason": "appeal"})
    settle(t)  # round 1 completes; the final is paired from the corrected result
    assert t["rounds"][0]["completed"] and upset in t["rounds"][1]["tables"][0]["seats"]
    settled = refused(t, 1, 1, {"kind": "forfeit", "losers": [second["seats"][0]], "reason": "r"})
    assert (settled.code, settled.rule) == ("knockout_settled", "TRN-DIR-3")


def test_TRN_DIR_3_an_aborted_knockout_game_awaiting_the_director_is_decided_not_corrected():
    t = aborted_final(3)
    problem = refused(t, 1, 0, {"kind": "forfeit", "losers": ["e0"], "reason": "r"})
    assert (problem.code, problem.rule) == ("no_result_to_correct", "TRN-DIR-3")


def test_TRN_DIR_3_a_completed_swiss_round_corrected_counts_from_then_on():
    """Round 1 completes and round 2 is paired; then a round-1 result is corrected. Round 2 stands
    as paired and round 1's RoundCompleted keeps its standings; round 2's completion, round 3's
    pairing and the final standings count the corrected result."""
    t = running("swiss", 4, rounds=3)
    for i in range(2):
        report(t, i, [1, 2])
    [completed_1, paired_2] = logged(t)
    assert completed_1["type"] == "RoundCompleted" and paired_2["type"] == "RoundPaired"
    recorded = copy.deepcopy(completed_1["data"]["standings"])
    round_2 = [tb["seats"] for tb in t["rounds"][1]["tables"]]
    for i in range(2):
        report(t, i, [1, 2])
    uncorrected = copy.deepcopy(t)
    a, b = t["rounds"][0]["tables"][0]["seats"]
    corrected(t, 1, 0, {"kind": "adjudicated", "places": {a: 2, b: 1}, "reason": "result sheet signed wrongly"})
    assert [tb["seats"] for tb in t["rounds"][1]["tables"]] == round_2 and completed_1["data"]["standings"] == recorded
    assert board(t) != board(uncorrected)
    cfg = Config.from_dict(t["config"])
    assert recorded != standings(cfg, t["entrants"], pairing_view(t["rounds"][:1]))  # what round 1 gives now
    [completed_2, paired_3] = logged(t)
    assert completed_2["data"]["standings"] == board(t)
    got = {"round": 3, "tables": [{"seats": tb["seats"]} for tb in paired_3["data"]["tables"]],
           "byes": paired_3["data"]["byes"]}
    assert got == pair_round(cfg, t["entrants"], pairing_view(t["rounds"][:2]), SEED)
    assert got != pair_round(cfg, uncorrected["entrants"], pairing_view(uncorrected["rounds"]), SEED)
    for i in range(2):
        report(t, i, [1, 2])
    final = logged(t)[-1]
    assert final["type"] == "TournamentFinished" and final["data"]["standings"] == board(t)


def test_TRN_DIR_3_a_completed_round_robin_round_corrected_changes_the_standings():
    t = running("round-robin", 6, k=3, rounds=2)
    for i in range(2):
        report(t, i, [1, 2, 3])
    settle(t)
    assert t["rounds"][0]["completed"] and len(t["rounds"]) == 2
    before = board(t)
    a, b, c = t["rounds"][0]["tables"][0]["seats"]
    corrected(t, 1, 0, {"kind": "walkover", "losers": [a], "reason": "never came: the sheet was filled in for him"})
    line = {s["entrant"]: s["points"] for s in board(t)}
    assert (line[a], line[b], line[c]) == (0, 1.5, 1.5)  # b and c share places 1-2: (2 + 1) / 2
    assert board(t) != before


def test_TRN_DIR_3_a_corrected_forfeit_is_unplayed_for_tie_breaks_like_a_decided_one():
    """TRN-TB-4: the same forfeit, decided at once in one tournament and corrected from a played
    game in its twin, gives the same standings and tie-breaks."""
    twins = [running("swiss", 4, rounds=3) for _ in range(2)]
    b = twins[0]["rounds"][0]["tables"][0]["seats"][1]
    apply(twins[0], decide.decide_result(twins[0], 1, 0, {"kind": "forfeit", "losers": [b], "reason": "r"}, "admin"))
    report(twins[1], 0, [1, 2])
    corrected(twins[1], 1, 0, {"kind": "forfeit", "losers": [b], "reason": "r"})
    for t in twins:
        for _ in range(3):
            for i, table in enumerate(t["rounds"][-1]["tables"]):
                if table["result"] is None:
                    report(t, i, [1, 2])
            settle(t)
        assert t["status"] == "finished"
    assert board(twins[0]) == board(twins[1])
    views = [[r["tables"] for r in pairing_view(t["rounds"])] for t in twins]
    assert views[0] == views[1]  # the same pairings and results, round by round


def test_TRN_DIR_3_a_log_without_corrections_folds_as_before():
    """Records are forever: a table nobody corrected has no ``corrections`` in the fold."""
    t = running("swiss", 4, rounds=2)
    apply(t, decide.decide_result(t, 1, 0, {"kind": "double_forfeit", "reason": "r"}, "admin"))
    report(t, 1, [1, 2])
    settle(t)
    assert all("corrections" not in table for r in t["rounds"] for table in r["tables"])
