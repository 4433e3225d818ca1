"""Worked examples of the standings, the knockout and the settings (TRN-* in
domain/tournament/README.md), computed by hand."""
from __future__ import annotations

from fractions import Fraction

import pytest

from domain.core import Illegal
from domain.tournament import check_field, pair_round, standings
from domain.tournament.knockout import table_winner
from tests.tournament.support import config, field, run


def table(seats, places, scores=None):
    return {"seats": seats, "result": {"places": dict(zip(seats, places)),
                                       "scores": dict(zip(seats, scores or [0] * len(seats)))}}


def test_TRN_PTS_1_default_points_by_place_and_shared_places():
    cfg = config("swiss", 4)
    assert cfg.place_points([1, 2, 3, 4]) == [3, 2, 1, 0]
    assert cfg.place_points([1, 1, 3, 4]) == [Fraction(5, 2), Fraction(5, 2), 1, 0]
    assert cfg.place_points([1, 2, 2, 2]) == [3, 1, 1, 1]
    assert config("swiss", 2).place_points([1, 1]) == [Fraction(1, 2), Fraction(1, 2)]


def test_TRN_PTS_3_an_aborted_game_scores_nothing():
    assert config("swiss", 3).place_points([None, None, None]) == [0, 0, 0]


def test_TRN_TB_1_buchholz_and_sonneborn_berger_by_hand():
    """a beat b, c drew d; then a beat c, b beat d. Points: a 2, b 1, c ½, d ½."""
    entrants = field(4)
    a, b, c, d = (e["id"] for e in entrants)
    rounds = [{"round": 1, "byes": [], "tables": [table([a, b], [1, 2]), table([c, d], [1, 1], [5, 3])]},
              {"round": 2, "byes": [], "tables": [table([a, c], [1, 2]), table([b, d], [1, 2])]}]
    lines = {s["entrant"]: s for s in standings(config("swiss", 2), entrants, rounds)}
    assert lines[a]["points"] == 2 and lines[a]["place"] == 1
    # Buchholz of a: b (1) + c (½); SB of a: beat both, so the same.
    assert lines[a]["tiebreaks"] == {"buchholz": 1.5, "sonneborn_berger": 1.5, "game_score": 0}
    # c and d: ½ each. c met d (½) and a (2): 2.5; d met c (½) and b (1): 1.5. c is ahead.
    assert lines[c]["tiebreaks"]["buchholz"] == 2.5 and lines[d]["tiebreaks"]["buchholz"] == 1.5
    # SB: c drew d (½ × ½) and lost to a: ¼.
    assert lines[c]["tiebreaks"]["sonneborn_berger"] == 0.25
    assert [s["entrant"] for s in standings(config("swiss", 2), entrants, rounds)] == [a, b, c, d]


def test_TRN_STD_1_entrants_equal_on_everything_share_the_place():
    entrants = field(4)
    a, b, c, d = (e["id"] for e in entrants)
    rounds = [{"round": 1, "byes": [], "tables": [table([a, b], [1, 1]), table([c, d], [1, 1])]}]
    assert [s["place"] for s in standings(config("swiss", 2), entrants, rounds)] == [1, 1, 1, 1]


def test_TRN_TB_2_opponents_average_then_game_score_at_larger_tables():
    """TRN-TB-3: equal on opponents' average, the game's own score decides."""
    entrants = field(6)
    e = [x["id"] for x in entrants]
    rounds = [{"round": 1, "byes": [], "tables": [table(e[:3], [1, 2, 3], [9, 5, 1]),
                                                   table(e[3:], [2, 1, 3], [4, 8, 2])]}]
    lines = {s["entrant"]: s for s in standings(config("swiss", 3), entrants, rounds)}
    assert lines[e[0]]["points"] == 2 and lines[e[4]]["points"] == 2
    assert lines[e[0]]["tiebreaks"] == {"opponents_average": 0.5, "game_score": 9}
    assert lines[e[4]]["tiebreaks"] == {"opponents_average": 0.5, "game_score": 8}
    assert [s["entrant"] for s in standings(config("swiss", 3), entrants, rounds)][:2] == [e[0], e[4]]


def test_TRN_PTS_2_a_bye_scores_the_first_places_points_unless_configured():
    entrants = field(3)
    rounds = [{"round": 1, "byes": ["e2"], "tables": [table(["e0", "e1"], [1, 2])]}]
    assert {s["entrant"]: s["points"] for s in standings(config("swiss", 2), entrants, rounds)}["e2"] == 1
    half = config("swiss", 2, bye_points=0.5)
    assert {s["entrant"]: s["points"] for s in standings(half, entrants, rounds)}["e2"] == 0.5


def test_TRN_KO_1_eight_seeded_by_rating_best_against_worst():
    """Seeds follow the rating (TRN-RANK-1)."""
    entrants = field(8, ratings=[1500, 1900, 1700, 1600, 1800, 1400, 1300, 2000])
    first = pair_round(config("knockout", 2), entrants, [], b"k")
    seeds = ["e7", "e1", "e4", "e2", "e3", "e0", "e5", "e6"]
    assert [sorted(t["seats"], key=seeds.index) for t in first["tables"]] == [
        [seeds[0], seeds[7]], [seeds[1], seeds[6]], [seeds[2], seeds[5]], [seeds[3], seeds[4]]]
    assert first["byes"] == []


def test_TRN_KO_1_byes_only_in_the_first_round_go_to_the_top_seeds():
    rounds = run(config("knockout", 2), field(11), b"k", results=3)
    assert rounds[0]["byes"] == ["e0", "e1", "e2", "e3", "e4"]
    assert [len(r["tables"]) for r in rounds] == [3, 4, 2, 1] and all(not r["byes"] for r in rounds[1:])


def test_TRN_KO_2_table_winner_and_champion_on_top():
    rank = ["e0", "e1", "e2", "e3"]
    assert table_winner(table(["e2", "e0", "e1"], [2, 1, 3]), rank) == "e0"
    assert table_winner(table(["e2", "e0"], [1, 1], [5, 7]), rank) == "e0"
    assert table_winner(table(["e2", "e1"], [1, 1], [5, 5]), rank) == "e1"
    assert table_winner({"seats": ["e2", "e1"], "result": {"places": {}, "scores": {}}}, rank) == "e1"
    assert table_winner({"seats": ["e2", "e1"]}, rank) is None
    rounds = run(config("knockout", 4), field(16), b"k", results=5)
    champion = table_winner(rounds[-1]["tables"][0], [f"e{i}" for i in range(16)])
    final = standings(config("knockout", 4), field(16), rounds)
    assert [len(r["tables"]) for r in rounds] == [4, 1]
    assert final[0]["entrant"] == champion and final[0]["place"] == 1 and final[1]["place"] == 2


def test_TRN_KO_3_a_field_the_last_table_cannot_seat_is_refused():
    sab = config("knockout", 4)  # a 3-player minimum, like Saboteur
    check_field(sab, 16)
    check_field(sab, 4)
    with pytest.raises(Illegal) as exc:
        check_field(sab, 8)
    assert exc.value.code == "knockout_cannot_finish" and exc.value.rule == "TRN-KO-3"


@pytest.mark.parametrize("data, code, rule", [
    ({"format": "ladder", "table_size": 2}, "unknown_format", "TRN-CFG-1"),
    ({"format": "swiss", "table_size": 11}, "bad_table_size", "TRN-CFG-1"),
    ({"format": "swiss", "table_size": True}, "bad_table_size", "TRN-CFG-1"),
    ({"format": "swiss", "table_size": 2, "rounds": 0}, "bad_rounds", "TRN-SW-3"),
    ({"format": "knockout", "table_size": 2, "rounds": 3}, "bad_rounds", "TRN-KO-3"),
    ({"format": "swiss", "table_size": 2, "points": [0, 1]}, "bad_points", "TRN-PTS-1"),
    ({"format": "swiss", "table_size": 2, "points": [1]}, "bad_points", "TRN-PTS-1"),
    ({"format": "swiss", "table_size": 2, "bye_points": -1}, "bad_points", "TRN-PTS-2"),
])
def test_TRN_CFG_1_bad_settings_are_refused_with_code_and_rule(data, code, rule):
    with pytest.raises(Illegal) as exc:
        config(data["format"], data.pop("table_size"), **{k: v for k, v in data.items() if k != "format"})
    assert (exc.value.code, exc.value.rule) == (code, rule)


def test_TRN_CFG_2_fewer_entrants_than_a_table_are_refused():
    with pytest.raises(Illegal) as exc:
        check_field(config("swiss", 4), 3)
    assert exc.value.code == "too_few_entrants"


def test_TRN_SW_3_swiss_rounds_default_to_log2():
    assert len(run(config("swiss", 2), field(16))) == 4
    assert len(run(config("swiss", 2, rounds=2), field(16))) == 2


def test_a_field_of_fewer_than_two_plans_no_round():
    """A round robin at 2 seats planned n - 1 rounds for a field of n, so -1 for no entrant (and 1
    for one, as did every other format's default): the API said planned_rounds -1 while registration
    was open. Fewer than two entrants plan 0 rounds in every format but the knockout (None)."""
    for fmt, k, extra in [("round-robin", 2, {}), ("round-robin", 3, {}), ("swiss", 2, {}),
                          ("swiss", 2, {"rounds": 3})]:
        assert [config(fmt, k, **extra).default_rounds(n) for n in (0, 1)] == [0, 0], (fmt, k, extra)
    assert [config("round-robin", 2).default_rounds(n) for n in (2, 3, 4)] == [1, 3, 3]
    assert config("swiss", 2, rounds=3).default_rounds(2) == 3
    assert config("knockout", 2).default_rounds(0) is None


def test_TRN_SW_1_first_round_pairs_top_half_against_bottom_half():
    entrants = field(8, ratings=[800, 700, 600, 500, 400, 300, 200, 100])
    first = pair_round(config("swiss", 2), entrants, [], b"x")
    assert sorted(sorted(t["seats"]) for t in first["tables"]) == [
        ["e0", "e4"], ["e1", "e5"], ["e2", "e6"], ["e3", "e7"]]


def test_TRN_SEAT_1_seat_order_follows_the_seat_history():
    entrants = field(2)
    rounds = [{"round": 1, "byes": [], "tables": [table(["e0", "e1"], [1, 2])]}]
    again = pair_round(config("swiss", 2, rounds=2), entrants, rounds, b"x")
    assert again["tables"][0]["seats"] == ["e1", "e0"]


def test_TRN_SW_2_larger_tables_follow_the_score_groups_without_rematches():
    """Eight at 4-seat tables: round 2 seats the four leaders together and splits every
    round-1 table (each entrant meets three new ones, which is possible)."""
    import itertools
    entrants = field(8)
    cfg = config("swiss", 4, rounds=2)
    first = pair_round(cfg, entrants, [], b"s")
    for t in first["tables"]:
        t["result"] = {"places": {e: 1 if i < 2 else 3 for i, e in enumerate(t["seats"])}, "scores": {}}
    second = pair_round(cfg, entrants, [first], b"s")
    leaders = {e for t in first["tables"] for e in t["seats"][:2]}
    assert any(set(t["seats"]) == leaders for t in second["tables"])
    met = {frozenset(p) for t in first["tables"] for p in itertools.combinations(t["seats"], 2)}
    again = [p for t in second["tables"] for p in itertools.combinations(t["seats"], 2) if frozenset(p) in met]
    assert len(again) == 4  # a leader table of 2+2 must repeat two pairs; the other table too
