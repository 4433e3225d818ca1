"""A director's results (issue 25, finding 2): forfeits, walkovers, double forfeits and
adjudications as events of the tournament log, withdrawal from a round, knockout tables
that wait for a decision, and the tie-breaks of unplayed rounds (pairing version 3).
Pure: decide.py, log.py, standings.py."""
from __future__ import annotations

from fractions import Fraction

import pytest

from domain.core import Illegal
from domain.tournament import Config, decide, is_complete, pair_round, standings
from domain.tournament.log import TOURNAMENT, fold, pairing_view
from tests.tournament.support import config, field

SEED = bytes(32)


def running(fmt: str, n: int, k: int = 2, **extra) -> dict:
    """A tournament of ``n`` bots folded from its log, round 1 paired."""
    bots: list[dict] = []
    for _ in range(n):
        bots.append(decide.bot_entrant(bots, "random", {"random": None}))
    cfg = Config.parse({"format": fmt, "table_size": k, **extra}, min_players=2, max_players=4)
    t = fold(decide.created("t1", name="cup", game="tiny", options={}, config=cfg, rules_version="tiny-1",
                            clock=None, start_at=None, organizer=None, seed_commitment="00" * 32, entrants=bots))
    apply(t, decide.progress(t, SEED, lambda *_: None))
    return t


def apply(t: dict, step: decide.Step) -> dict:
    for ev in step.events:
        TOURNAMENT.evolve(t, ev)
    return t


def report(t: dict, index: int, places: list[int | None]) -> None:
    """The game of table ``index`` of the current round finished with these places in seat order."""
    rnd = t["rounds"][-1]
    table = rnd["tables"][index]
    result = {"places": dict(zip(table["seats"], places)), "scores": {e: 0 for e in table["seats"]},
              "outcome": "aborted" if places[0] is None else "win"}
    apply(t, decide.Step([{"type": "GameFinished", "data": {
        "round": rnd["round"], "table": index, "game_id": table["game_id"], "chain_head": "ab" * 32,
        "result": result}}], "report"))


def settle(t: dict) -> None:
    """Run progress until it waits (a round to play) or the tournament ends."""
    for _ in range(10):
        step = decide.progress(t, SEED, lambda *_: None)
        if step is None:
            return
        apply(t, step)


def refused(t: dict, round_no: int, index: int, body: dict) -> Illegal:
    with pytest.raises(Illegal) as caught:
        decide.decide_result(t, round_no, index, body, "admin")
    return caught.value


def test_TRN_DIR_1_a_forfeit_is_a_logged_result_that_scores_like_a_loss():
    t = running("swiss", 4, rounds=2)
    seats = t["rounds"][0]["tables"][0]["seats"]
    step = decide.decide_result(t, 1, 0, {"kind": "forfeit", "losers": [seats[1]], "reason": "no-show"}, "p1")
    assert step.command_id == f"decide:{t['rounds'][0]['tables'][0]['game_id']}"
    [ev] = step.events
    assert ev["type"] == "ResultDecided" and ev["data"]["by"] == "p1" and ev["data"]["reason"] == "no-show"
    assert ev["data"]["result"] == {"places": {seats[0]: 1, seats[1]: 2}, "scores": {seats[0]: 0, seats[1]: 0},
                                    "outcome": "forfeit"}
    apply(t, step)
    table = t["rounds"][0]["tables"][0]
    assert table["decision"] == {"kind": "forfeit", "reason": "no-show", "by": "p1"}
    asked = []
    assert decide.progress(t, SEED, lambda r, i, tb: asked.append(i)) is None  # table 1 still plays
    assert asked == [1]  # the decided table is not reported
    line = {s["entrant"]: s for s in standings(Config.from_dict(t["config"]), t["entrants"], pairing_view(t["rounds"]))}
    assert line[seats[0]]["points"] == 1 and line[seats[1]]["points"] == 0


def test_TRN_DIR_1_walkover_double_forfeit_and_adjudication_at_a_four_seat_table():
    t = running("round-robin", 8, k=4, rounds=1)
    first, second = t["rounds"][0]["tables"]
    a, b, c, d = first["seats"]
    walk = decide.decide_result(t, 1, 0, {"kind": "walkover", "losers": [c, a], "reason": "never came"}, "admin")
    assert walk.events[0]["data"]["losers"] == [a, c]  # in seat order
    assert walk.events[0]["data"]["result"]["places"] == {a: 3, b: 1, c: 3, d: 1}  # share 1-2 and 3-4
    adjudged = decide.decide_result(t, 1, 1, {"kind": "adjudicated", "reason": "server down at move 40",
                                              "places": dict(zip(second["seats"], [2, 1, 2, 4])),
                                              "scores": {second["seats"][1]: 12}}, "admin")
    result = adjudged.events[0]["data"]["result"]
    assert result["scores"][second["seats"][1]] == 12 and result["scores"][second["seats"][0]] == 0
    both = decide.decide_result(t, 1, 1, {"kind": "double_forfeit", "reason": "both late"}, "admin")
    assert set(both.events[0]["data"]["result"]["places"].values()) == {None}
    apply(t, walk)
    apply(t, adjudged)
    settle(t)
    assert t["status"] == "finished"
    board = {s["entrant"]: s["points"]
             for s in standings(Config.from_dict(t["config"]), t["entrants"], pairing_view(t["rounds"]))}
    assert board[b] == board[d] == 2.5 and board[a] == board[c] == 0.5  # (3+2)/2 and (1+0)/2 (TRN-PTS-1)
    assert board[second["seats"][1]] == 3 and board[second["seats"][3]] == 0


@pytest.mark.parametrize("round_no,index,body,code", [
    (2, 0, {"kind": "forfeit", "losers": ["e0"], "reason": "r"}, "no_such_table"),
    (1, 5, {"kind": "forfeit", "losers": ["e0"], "reason": "r"}, "no_such_table"),
    (1, -1, {"kind": "forfeit", "losers": ["e0"], "reason": "r"}, "no_such_table"),
    (1, 0, {"kind": "resign", "reason": "r"}, "bad_decision"),
    (1, 0, {"kind": "double_forfeit", "reason": "  "}, "reason_required"),
    (1, 0, {"kind": "forfeit", "losers": [], "reason": "r"}, "bad_losers"),
    (1, 0, {"kind": "forfeit", "losers": ["e9"], "reason": "r"}, "bad_losers"),
    (1, 0, {"kind": "walkover", "losers": "SEATS", "reason": "r"}, "bad_losers"),
    (1, 0, {"kind": "adjudicated", "places": "FIRST_TWO", "reason": "r"}, "bad_places"),
    (1, 0, {"kind": "adjudicated", "places": "ONE_AND_THREE", "reason": "r"}, "bad_places"),
    (1, 0, {"kind": "adjudicated", "places": "ONE_ONE", "scores": {"e9": 1}, "reason": "r"}, "bad_scores"),
])
def test_TRN_DIR_1_bad_decisions_are_refused_with_stable_codes(round_no, index, body, code):
    t = running("swiss", 4, rounds=2)
    seats = t["rounds"][0]["tables"][0]["seats"]
    fill = {"SEATS": list(seats), "FIRST_TWO": {seats[0]: 1}, "ONE_AND_THREE": {seats[0]: 1, seats[1]: 3},
            "ONE_ONE": {seats[0]: 1, seats[1]: 1}}
    body = {k: fill.get(v, v) if isinstance(v, str) else v for k, v in body.items()}
    if body.get("losers") == ["e0"]:
        body["losers"] = [seats[0]]
    problem = refused(t, round_no, index, body)
    assert (problem.code, problem.rule) == (code, "TRN-DIR-1")


def test_TRN_DIR_1_only_an_undecided_table_without_a_result_in_the_running_round():
    t = running("swiss", 4, rounds=2)
    seats = t["rounds"][0]["tables"][0]["seats"]
    report(t, 1, [1, 2])
    assert refused(t, 1, 1, {"kind": "double_forfeit", "reason": "r"}).code == "result_recorded"
    apply(t, decide.decide_result(t, 1, 0, {"kind": "forfeit", "losers": [seats[0]], "reason": "r"}, "admin"))
    assert refused(t, 1, 0, {"kind": "double_forfeit", "reason": "r"}).code == "already_decided"
    settle(t)  # round 1 completes, round 2 is paired
    assert len(t["rounds"]) == 2 and t["rounds"][0]["completed"]
    assert refused(t, 1, 0, {"kind": "double_forfeit", "reason": "r"}).code == "round_completed"
    for i in range(2):
        report(t, i, [1, 2])
    settle(t)
    assert refused(t, 2, 0, {"kind": "double_forfeit", "reason": "r"}).code == "tournament_not_running"


def aborted_final(version: int) -> dict:
    """Knockout of two (the final at once); its game was aborted and reported as such."""
    t = running("knockout", 2)
    t["config"]["pairing"] = version
    report(t, 0, [None, None])
    return t


def test_TRN_DIR_2_an_aborted_knockout_final_waits_for_the_director_and_is_decided():
    """Finding 2: an aborted final was won by the better seed without play (pairing version 2)."""
    t = aborted_final(3)
    settle(t)
    assert t["status"] == "running" and not t["rounds"][0]["completed"]
    cfg, view = Config.from_dict(t["config"]), pairing_view(t["rounds"])
    assert not is_complete(cfg, t["entrants"], view)
    problem = refused(t, 1, 0, {"kind": "double_forfeit", "reason": "both gone"})
    assert (problem.code, problem.rule) == ("knockout_needs_winner", "TRN-DIR-2")
    apply(t, decide.decide_result(t, 1, 0, {"kind": "forfeit", "losers": ["e0"], "reason": "left the hall"}, "admin"))
    settle(t)
    assert t["status"] == "finished"
    board = standings(Config.from_dict(t["config"]), t["entrants"], pairing_view(t["rounds"]))
    assert [(s["place"], s["entrant"]) for s in board] == [(1, "e1"), (2, "e0")]


def test_TRN_KO_2_a_version_2_aborted_final_still_crowns_the_better_seed():
    t = aborted_final(2)
    settle(t)
    assert t["status"] == "finished"
    assert standings(Config.from_dict(t["config"]), t["entrants"], pairing_view(t["rounds"]))[0]["entrant"] == "e0"


def test_TRN_WD_2_withdrawing_from_the_round_being_played_forfeits_its_table():
    t = running("swiss", 4, rounds=3)
    seats = t["rounds"][0]["tables"][0]["seats"]
    leaver = decide.find_entrant(t, seats[1])
    with pytest.raises(Illegal) as bad:
        decide.withdraw(t, leaver, 3, by="admin")
    assert (bad.value.code, bad.value.rule) == ("bad_round", "TRN-WD-2")
    step = decide.withdraw(t, leaver, 1, by="admin")
    assert [e["type"] for e in step.events] == ["EntrantWithdrew", "ResultDecided"]
    assert step.events[0]["data"] == {"entrant": seats[1], "from_round": 1, "by": "admin"}
    forfeit = step.events[1]["data"]
    assert forfeit["losers"] == [seats[1]] and forfeit["reason"] == "withdrew from round 1"
    apply(t, step)
    assert decide.find_entrant(t, seats[1])["withdrawn_from"] == 1
    later = decide.withdraw(t, decide.find_entrant(t, seats[0]), by="admin")  # the default: the next round
    assert later.events == [{"type": "EntrantWithdrew", "data": {"entrant": seats[0], "from_round": 2, "by": "admin"}}]


def test_TRN_WD_2_a_withdrawal_from_the_next_round_leaves_the_running_game_alone():
    t = running("swiss", 4, rounds=3)
    seats = t["rounds"][0]["tables"][0]["seats"]
    step = decide.withdraw(t, decide.find_entrant(t, seats[0]), 2, by="admin")
    assert [e["type"] for e in step.events] == ["EntrantWithdrew"]


def won(table: dict, winner: str) -> None:
    loser = next(e for e in table["seats"] if e != winner)
    table["result"] = {"places": {winner: 1, loser: 2}, "scores": {winner: 0, loser: 0}, "outcome": "win"}


def forfeited(table: dict, loser: str) -> None:
    winner = next(e for e in table["seats"] if e != loser)
    table["result"] = {"places": {winner: 1, loser: 2}, "scores": {winner: 0, loser: 0}, "outcome": "forfeit"}


def test_TRN_TB_4_unplayed_rounds_count_by_the_virtual_opponent():
    """Four entrants, two seats, three rounds by hand. Round 1: e0 beats e1; e3 wins by forfeit
    against e2. Round 2: e0 beats e3; e1 beats e2. e2 withdraws: round 3, e0 beats e1, e3 a bye.

    Version 3: e2's missing round and its forfeit count as draws in e2's score for its opponents
    (0 + 1/2 + 0 + 1/2 = 1 instead of 0); e3's forfeit win and bye are games against virtual
    opponents: round 1, 0 before + 0 (the opposite of a win) + 1/2 x 2 later rounds = 1; round 3,
    1 before + 0 + 0 = 1."""
    cfg = config("swiss", 2, rounds=3)
    entrants = field(4)
    rounds = [{"round": 1, "byes": [], "tables": [{"seats": ["e0", "e1"]}, {"seats": ["e3", "e2"]}]},
              {"round": 2, "byes": [], "tables": [{"seats": ["e0", "e3"]}, {"seats": ["e1", "e2"]}]},
              {"round": 3, "byes": ["e3"], "tables": [{"seats": ["e0", "e1"]}]}]
    won(rounds[0]["tables"][0], "e0")
    forfeited(rounds[0]["tables"][1], "e2")
    won(rounds[1]["tables"][0], "e0")
    won(rounds[1]["tables"][1], "e1")
    won(rounds[2]["tables"][0], "e0")
    entrants[2]["withdrawn"] = True
    lines = {s["entrant"]: s for s in standings(cfg, entrants, rounds)}
    assert lines["e3"]["points"] == 2 and lines["e1"]["points"] == 1
    # e1 met e0 (3 points) twice and e2 (adjusted: 0 + 1/2 for the forfeit + 0 + 1/2 absent)
    assert Fraction(str(lines["e1"]["tiebreaks"]["buchholz"])) == 3 + 3 + 1
    # e3 met e0 once; its forfeit win and its bye are virtual opponents of 1 point each
    assert lines["e3"]["tiebreaks"]["buchholz"] == 3 + 1 + 1
    assert lines["e3"]["tiebreaks"]["sonneborn_berger"] == 0 + 1 + 1  # lost to e0; won both virtual games
    v2 = Config.from_dict({**cfg.to_dict(), "pairing": 2})
    old = {s["entrant"]: s for s in standings(v2, entrants, rounds)}
    assert old["e3"]["tiebreaks"]["buchholz"] == 3 + 0  # as before: e2's real score, the bye adds nothing
    assert old["e1"]["tiebreaks"]["buchholz"] == 3 + 3 + 0


def test_TRN_TB_4_at_three_seats_an_opponents_missed_rounds_count_at_the_mean_and_forfeits_are_left_out():
    cfg = config("round-robin", 3, rounds=2)
    entrants = field(6)
    rounds = [{"round": 1, "byes": [], "tables": [{"seats": ["e0", "e1", "e2"]}, {"seats": ["e3", "e4", "e5"]}]},
              {"round": 2, "byes": [], "tables": [{"seats": ["e0", "e3", "e4"]}, {"seats": ["e1", "e2", "e5"]}]}]
    places = [[1, 2, 3], [1, 2, 3], [1, 2, 3]]
    for table, ps in zip([rounds[0]["tables"][0], rounds[0]["tables"][1], rounds[1]["tables"][0]], places):
        table["result"] = {"places": dict(zip(table["seats"], ps)), "scores": {}, "outcome": "win"}
    rounds[1]["tables"][1]["result"] = {"places": {"e1": 1, "e2": 1, "e5": 3}, "scores": {}, "outcome": "forfeit"}
    lines = {s["entrant"]: s["tiebreaks"]["opponents_average"] for s in standings(cfg, entrants, rounds)}
    # e1 played only round 1 (e0: 2 + 2, e2: 0 + 1 for its forfeit round at the mean of 2/1/0)
    assert lines["e1"] == (4 + 1) / 2
    assert pair_round(cfg, entrants, rounds, SEED)["round"] == 3


def test_TRN_DIR_1_a_table_not_played_is_no_meeting_from_pairing_version_4():
    """Round 1 of a four-entrant Swiss is settled by two double forfeits: nobody played. From
    pairing version 4 the same pairs may meet in round 2 (FIDE: a pairing not actually played
    is not illegal later), and the Dutch order pairs them again; version 3 counted each table
    as a meeting and paired round 2 around them. A played (adjudicated) table stays a meeting."""
    cfg = config("swiss", 2, rounds=3)
    assert cfg.pairing == 4
    entrants = field(4)
    first = pair_round(cfg, entrants, [], SEED)
    for table in first["tables"]:
        table["result"] = {"places": {e: None for e in table["seats"]}, "scores": {e: 0 for e in table["seats"]},
                           "outcome": "double_forfeit"}
    pairs = {frozenset(t["seats"]) for t in first["tables"]}
    again = pair_round(cfg, entrants, [first], SEED)
    assert {frozenset(t["seats"]) for t in again["tables"]} == pairs
    v3 = Config.from_dict({**cfg.to_dict(), "pairing": 3})
    before = pair_round(v3, entrants, [first], SEED)
    assert not {frozenset(t["seats"]) for t in before["tables"]} & pairs
    first["tables"][0]["result"] = {"places": dict(zip(first["tables"][0]["seats"], [1, 2])),
                                    "scores": {}, "outcome": "adjudicated"}
    played = pair_round(cfg, entrants, [first], SEED)
    assert frozenset(first["tables"][0]["seats"]) not in {frozenset(t["seats"]) for t in played["tables"]}
