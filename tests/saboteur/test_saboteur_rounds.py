"""End of round, gold, next round and final ranking (SAB-END, SAB-GOLD, SAB-NEXT, SAB-WIN)."""
import pytest

from domain.core import Illegal, Scoreboard
from domain.saboteur.rounds import payout_options
from domain.saboteur.rules import GAME
from saboteur_support import Table, cards_run_out, data, treasure_found_by
from tests.support.positions import edit


def test_SAB_EX_9_SAB_GOLD_4_bundle_goes_counter_clockwise_to_miners():
    t = Table(6, first_player=0, gold_choice="auto")
    t.set_roles("MSMMSM")  # A, C, D, F miners; B, E saboteurs
    evs = treasure_found_by(t, 3)  # D finds
    assert len(data(evs, "GoldBundleDrawn")[0]["values"]) == 6  # SAB-GOLD-2
    assert data(evs, "GoldBundleDrawn")[0]["holder"] == 3
    assert [d["seat"] for d in data(evs, "GoldKept")] == [3, 2, 0, 5, 3, 2]
    counts = [len(g[0]) for g in t.state["gold"]]
    assert counts == [1, 0, 2, 2, 0, 1]


def test_SAB_GOLD_3_SAB_AMB_25_holder_sees_the_bundle_and_chooses():
    t = Table(6, first_player=0)
    t.set_roles("MSMMSM")
    evs = treasure_found_by(t, 3)
    assert t.types(evs)[-1] == "GoldBundleDrawn" and GAME.active_seats(t.state) == {3}
    bundle = sorted(t.state["bundle"], reverse=True)
    view = GAME.view(t.state, 3)["gold_choice"]
    assert view["cards"] == bundle
    for seat in (None, 0, 2):
        v = GAME.view(t.state, seat)["gold_choice"]
        assert "cards" not in v and v["bundle_count"] == 6
        assert "values" not in GAME.redact(evs[-1], seat)["data"]
    legal = GAME.legal_commands(t.state, 3)
    assert legal == [{"type": "take_gold", "values": [v]} for v in sorted(set(bundle), reverse=True)]
    pick = legal[-1]["values"][0]
    evs = t.do(3, legal[-1])
    assert evs[0] == {"type": "GoldKept", "data": {"seat": 3, "value": pick}}
    assert evs[1]["type"] == "GoldBundlePassed" and evs[1]["data"]["to"] == 2
    assert GAME.redact(evs[0], 0)["data"] == {"seat": 3}
    with pytest.raises(Illegal) as exc:
        t.do(3, {"type": "take_gold", "values": [1]})
    assert exc.value.code == "not_your_choice"


def test_SAB_AMB_17_saboteur_finder_gets_nothing():
    t = Table(5, first_player=0, gold_choice="auto")
    t.set_roles("MSMMS")
    evs = treasure_found_by(t, 1)
    assert data(evs, "RoundEnded")[0]["winner"] == "miners"
    assert data(evs, "GoldBundleDrawn")[0]["holder"] == 0  # nearest miner counter-clockwise
    assert t.state["gold"][1][0] == []


def test_SAB_EX_12_ten_players_draw_nine():
    t = Table(10, first_player=0, gold_choice="auto")
    t.set_roles("MMMSMMSMSM")
    evs = treasure_found_by(t, 0)
    assert len(data(evs, "GoldBundleDrawn")[0]["values"]) == 9


def test_SAB_AMB_16_option_gold_cards_for_miners():
    t = Table(5, first_player=0, gold_choice="auto", gold_cards_for_miners="miners")
    t.set_roles("MSMMS")
    evs = treasure_found_by(t, 0)
    assert len(data(evs, "GoldBundleDrawn")[0]["values"]) == 3


def test_SAB_AMB_20_small_gold_deck_draws_what_is_left():
    t = Table(5, first_player=0, gold_choice="auto")
    t.set_roles("MSMMS")
    edit(GAME, t.state, "gold_deck = [1, 2]")
    evs = treasure_found_by(t, 0)
    assert sorted(data(evs, "GoldBundleDrawn")[0]["values"]) == [1, 2]


def test_SAB_EX_10_SAB_GOLD_8_three_saboteurs_get_three_each():
    t = Table(8, first_player=0, gold_choice="auto")
    t.set_roles("MSMMSMSM")
    evs = cards_run_out(t, 0)
    ended = data(evs, "RoundEnded")[0]
    assert (ended["reason"], ended["winner"], ended["finder"]) == ("cards_out", "saboteurs", None)
    assert data(evs, "GoldPayoutDue")[0] == {"payees": [1, 4, 6], "nuggets": 3}
    assert [sum(t.state["gold"][s][0]) for s in range(8)] == [0, 3, 0, 0, 3, 0, 3, 0]
    assert [d["values"] for d in data(evs, "GoldPaid")] == [[3], [3], [3]]  # default: fewest cards


def test_SAB_AMB_18_saboteur_chooses_an_exact_set():
    t = Table(8, first_player=2)
    t.set_roles("MSMMSMSM")
    evs = cards_run_out(t, 2)
    assert data(evs, "GoldPayoutDue")[0]["payees"] == [4, 6, 1]  # clockwise from the left of the last player
    assert GAME.active_seats(t.state) == {4}
    assert GAME.legal_commands(t.state, 4) == [
        {"type": "take_gold", "values": [3]}, {"type": "take_gold", "values": [2, 1]},
        {"type": "take_gold", "values": [1, 1, 1]}]
    assert GAME.view(t.state, 4)["gold_choice"]["cards"] == sorted(t.state["gold_deck"], reverse=True)
    assert "cards" not in GAME.view(t.state, 6)["gold_choice"]
    with pytest.raises(Illegal) as exc:
        t.do(4, {"type": "take_gold", "values": [2, 2]})
    assert (exc.value.code, exc.value.rule) == ("bad_gold_choice", "SAB-AMB-18")
    evs = t.do(4, {"type": "take_gold", "values": [1, 2]})
    assert evs[0] == {"type": "GoldPaid", "data": {"seat": 4, "values": [2, 1]}}
    assert GAME.redact(evs[0], 1)["data"] == {"seat": 4, "count": 2}


def test_SAB_AMB_18_payout_fallbacks():
    assert payout_options([3, 2, 1], 4)[0] == [3, 1]
    assert payout_options([3, 3], 4) == [[3]]  # largest total below
    assert payout_options([3, 3], 2) == [[3]]  # nothing fits: the single lowest card
    assert payout_options([], 3) == [[]]
    assert payout_options([2, 2, 2], 3) == [[2]]


def test_SAB_EX_11_SAB_GOLD_9_no_saboteur_no_gold():
    t = Table(4, first_player=0)
    t.set_roles("MMMM")
    edit(GAME, t.state, "leftover = saboteur")
    evs = cards_run_out(t, 0)
    assert not [e for e in evs if e["type"].startswith("Gold")]
    assert all(g[0] == [] for g in t.state["gold"])
    assert t.state["round"] == 2


def test_SAB_END_3_SAB_AMB_21_roles_and_leftover_revealed_to_all():
    t = Table(4, first_player=0, gold_choice="auto")
    t.set_roles("MSMM")
    edit(GAME, t.state, "leftover = miner")
    evs = cards_run_out(t, 0)
    revealed = data(evs, "RolesRevealed")[0]
    assert revealed == {"roles": ["miner", "saboteur", "miner", "miner"], "leftover": "miner"}
    assert GAME.redact(evs[[e["type"] for e in evs].index("RolesRevealed")], None)["data"] == revealed
    assert GAME.view(t.state, None)["history"][0]["roles"] == revealed["roles"]


def test_SAB_EX_13_SAB_NEXT_6_next_round_starts_left_of_the_finder():
    t = Table(5, first_player=0, gold_choice="auto")
    t.set_roles("MMMSS")
    evs = treasure_found_by(t, 2)
    assert data(evs, "RoundStarted")[0] == {"round": 2, "first_seat": 3}
    assert t.turn == 3


def test_SAB_AMB_15_last_card_is_the_last_one_put_down():
    t = Table(5, first_player=0, gold_choice="auto", auto_pass_empty_hand=False)
    t.set_roles("MMMSS")
    t.empty_deck()
    edit(GAME, t.state, f"""
        discard_hand 0
        discard_hand 1 {t.state["hands"][1][0]}
        discard_hand 2
        discard_hand 3
        discard_hand 4
    """)
    t.do(0, {"type": "pass"})  # empty-handed passes do not count
    evs = t.do(1, {"type": "pass", "card": t.state["hands"][1][0]})
    assert data(evs, "RoundEnded")[0]["last_player"] == 1
    assert data(evs, "RoundStarted")[0]["first_seat"] == 2


def test_SAB_NEXT_1_to_5_next_round_is_dealt_afresh_and_gold_is_kept():
    t = Table(5, first_player=0, gold_choice="auto")
    t.set_roles("MSMMS")
    stage_break = t.free(lambda c: c.kind == "break")
    edit(GAME, t.state, f"broken 2 pick {stage_break} by=1")
    treasure_found_by(t, 0)
    s = t.state
    assert s["round"] == 2 and s["phase"] == "play"
    assert list(s["maze"]) == ["0,0"] and not any(s["broken"]) and s["discard"] == []
    assert all(len(h) == 6 for h in s["hands"]) and len(s["deck"]) == 67 - 30  # SAB-AMB-19
    assert sorted(s["roles"] + [s["leftover"]]) == ["miner"] * 4 + ["saboteur"] * 2
    assert sum(len(g[0]) for g in s["gold"]) == 5 and len(s["gold_deck"]) == 23
    assert not any(g["revealed"] for g in s["goals"].values()) and s["peeks"] == [{}] * 5


def test_SAB_WIN_1_game_ends_after_three_rounds_with_final_scoring():
    t = Table(3, first_player=0, gold_choice="auto")
    for rnd in (1, 2, 3):
        t.set_roles("MMS")
        evs = treasure_found_by(t, 0)
        assert t.state["round"] == min(rnd + 1, 3)
    assert GAME.is_terminal(t.state) and GAME.active_seats(t.state) == set()
    final = data(evs, "GoldRevealed")[0]
    assert final["totals"] == [sum(map(sum, g)) for g in t.state["gold"]]
    board = GAME.scores(t.state)
    assert board.final and sum(s.total for s in board.seats) == sum(final["totals"])
    assert set(board.seats[0].breakdown) == {"round_1", "round_2", "round_3"}
    with pytest.raises(Illegal) as exc:
        t.do(0, {"type": "pass"})
    assert exc.value.code == "game_over"


def test_SAB_EX_14_SAB_WIN_4_ties_share_the_victory():
    t = Table(3)
    edit(GAME, t.state, """
        gold = [[[3, 3], [3], []], [[2, 2], [2, 3], []], [[3], [2, 2], []]]
        phase = over
    """)
    board = GAME.scores(t.state)
    assert board.winners == [0, 1] and [s.total for s in board.seats] == [9, 9, 7]
    assert isinstance(board, Scoreboard)


def test_SAB_GOLD_10_gold_values_stay_secret_until_the_end():
    t = Table(5, first_player=0, gold_choice="auto")
    t.set_roles("MSMMS")
    treasure_found_by(t, 0)
    board = GAME.scores(t.state)
    assert not board.final and {s.total for s in board.seats} == {0}
    v = GAME.view(t.state, 1)
    assert [p["gold_cards"] for p in v["players"]] == [len(g[0]) for g in t.state["gold"]]
    assert all(p["gold"] is None for p in v["players"])
    assert v["you"]["gold"] == t.state["gold"][1]
