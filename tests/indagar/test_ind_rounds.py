"""Rounds (section 10), turn order with monsters (section 22), winning (section 4)."""
from __future__ import annotations

from domain.indagar import scoring, turns
from domain.indagar import state as st
from domain.indagar.rules import GAME
from domain.kit import Batch
from ind_support import armour_everyone, play_round, table
from tests.support.positions import edit, position

SKIP_ROUND_1 = """
    indagar 2 seed=indagar options={"monster_start": "skipRound1"}
    armour                               # no monster finds a hero juicy
"""


def test_IND_EX_8_IND_MTURN_1_2_3_multiplayer_turn_order_with_monsters():
    """P1..P4 are seats 0..3; M12 is the monster between P1 and P2 (home 0). P2 holds the
    initiative: M12 loses its last turn (IND-MTURN-3). IND-ROUND-1 (a round is a cycle of
    player turns), IND-ORDER-1, IND-ORDER-3 (initiative first, monsters interleaved), IND-TURN-1."""
    s = armour_everyone(table(4, monster_start="none", monsters=["helgoth", "tijian", "oryana", "spirit-walker"]))
    assert s["round"] == 1
    s, _ = play_round(s)                     # round 1 from the rolled initiative
    edit(GAME, s, "initiative = 1")          # this round P2 holds the initiative
    b = Batch(s, GAME.evolve)
    b.state["turn"] = None
    b.state["cursor"] = 0
    s = b.state
    s = GAME.load_state(s)
    # restart round 2's cycle from P2 (the start-of-round steps have run already)
    b = Batch(s, GAME.evolve)
    turns.start_cycle(b.state, b.add)
    s, whos = play_round(b.state)
    names = {"seat:0": "P1", "seat:1": "P2", "seat:2": "P3", "seat:3": "P4", "monster-helgoth": "M12",
             "monster-tijian": "M23", "monster-oryana": "M34", "monster-spirit-walker": "M41"}
    assert [names[w] for w in whos] == ("P2 M23 P3 M34 P4 M41 P1 M12 P2 M23 P3 M34 P4 M41 P1 M12 "
                                        "P2 M23 P3 M34 P4 M41 P1").split()


def test_IND_EX_9_IND_SOLO_4_5_solo_slots_skip_a_retreated_monster():
    s = armour_everyone(table(1, monster_start="none"))
    order = st.primaries(s)                  # A, B, C, D clockwise from the player's area
    a, b_, c, d = order
    edit(GAME, s, f"""
        put {b_} none                        # B is in retreat this round
        monsters.{b_}.retreat = grey
    """)
    s, whos = play_round(s)
    assert whos == [f"monster-{a}", "seat:0", f"monster-{c}", "seat:0", f"monster-{d}", "seat:0"]


def test_IND_AMB_36_skip_first_pass_monsters_wait_until_every_player_has_activated():
    """IND-MTURN-6, read as IND-AMB-36 proposes (the default)."""
    s = armour_everyone(table(3))
    s, whos = play_round(s)
    first_monster = next(i for i, w in enumerate(whos) if w.startswith("monster-"))
    assert sorted(whos[:first_monster]) == ["seat:0", "seat:1", "seat:2"]


def test_IND_AMB_36_skip_round_1_and_IND_MTURN_4_cap():
    s = armour_everyone(table(2, monster_start="skipRound1"))
    s, whos = play_round(s)
    assert not any(w.startswith("monster-") for w in whos)
    s, whos = play_round(s)
    assert all(whos.count(m) <= 3 for m in set(whos))


def test_IND_ROUND_2_3_a_seat_without_available_heroes_is_skipped_and_the_round_ends():
    _, s = position(SKIP_ROUND_1 + """
        put magus none                       # seat 1 has one hero on the board
        put sunjun none
    """)
    assert s["seats"][1]["heroes"][1:] == ["sunjun", "magus"]
    s, whos = play_round(s)
    assert whos.count("seat:1") == 1 and whos.count("seat:0") == 3
    assert s["round"] == 2


def test_IND_ROUND_4_to_15_round_end_and_start_steps():
    s = armour_everyone(table(2, monster_start="skipRound1"))
    gold = next(t for t in s["tiles"] if s["tiles"][t]["type"] == "gold" and t in st.board(s).area(0))
    hero = "ariane"                                              # not Resilient
    edit(GAME, s, f"""
        outpost {gold} 0 2
        heroes.{hero}.damage = 2
        monsters.helgoth.damage = 2
    """)
    first = s["initiative"]
    s, _ = play_round(s)
    assert s["round"] == 2                                      # IND-ROUND-4
    assert s["seats"][0]["res"]["gold"] == 3 + 2                # IND-ROUND-13, IND-OUT-9
    assert s["source"] == 1                                     # IND-ROUND-14
    assert s["initiative"] == (first + 1) % 2                   # IND-ROUND-15, IND-ORDER-2
    assert s["monsters"]["helgoth"]["damage"] == 1              # IND-ROUND-5
    assert s["heroes"][hero]["damage"] == 1                     # IND-ROUND-9
    assert not any(x["activated"] for x in s["heroes"].values())  # IND-ROUND-8


def test_IND_SPR_3_resilient_heroes_heal_2():
    _, s = position(SKIP_ROUND_1 + "heroes.bertram.damage = 3    # Resilient")
    s, _ = play_round(s)
    assert s["heroes"]["bertram"]["damage"] == 1


def test_IND_RET_6_IND_ROUND_10_retreated_heroes_redeploy_on_free_deployment_tiles():
    _, s = position(SKIP_ROUND_1 + "put ariane none")
    s, _ = play_round(s)
    assert s["heroes"]["ariane"]["tile"] in st.board(s).deployment(0)


def test_IND_WIN_2_4_5_IND_EX_6_ties_above_ten_go_by_play_order():
    _, s = position("""
        indagar 2 seed=indagar
        initiative = 1
        seats.0.pp = {"spirits": 11}
        seats.1.pp = {"spirits": 10}
    """)
    assert scoring.check_winner(s) == {"winner": "seat:1", "reason": "primacy"}   # 11 counts as 10
    edit(GAME, s, 'seats.1.pp = {"spirits": 9}')
    assert scoring.check_winner(s)["winner"] == "seat:0"
    edit(GAME, s, 'seats.0.pp = {"spirits": 9}')
    assert scoring.check_winner(s) is None                      # IND-WIN-3: nobody yet


def test_IND_WIN_6_round_ten_cap_most_pp_wins():
    _, s = position("""
        indagar 3 seed=indagar
        round = 10
        initiative = 2
        seats.0.pp = {"spirits": 4}
        seats.1.pp = {"spirits": 6}
        seats.2.pp = {"spirits": 6}
    """)
    assert scoring.check_winner(s)["winner"] == "seat:2"        # tied at 6: first in play order


def test_IND_WIN_8_IND_AMB_45_first_game_threshold_is_7():
    _, s = position("""
        indagar 2 seed=indagar options={"first_game": true}
        seats.0.pp = {"spirits": 7}
    """)
    assert scoring.check_winner(s)["winner"] == "seat:0"


def test_IND_WIN_7_IND_AMB_44_a_monster_victory_beats_a_player_reaching_10():
    _, s = position("""
        indagar 2 seed=indagar
        seats.0.pp = {"spirits": 10}
        monsters.tijian.counts.tiles_destroyed = 99
    """)
    assert scoring.check_winner(s) == {"winner": "monster-tijian", "reason": "monster_victory"}


def test_IND_SOLO_10_IND_AMB_47_solo_wins_at_any_round_end_and_loses_after_round_10():
    _, s = position("""
        indagar 1 seed=indagar
        seats.0.pp = {"spirits": 10}
    """)
    assert scoring.check_winner(s)["winner"] == "seat:0"
    edit(GAME, s, """
        seats.0.pp = {"spirits": 9}
        round = 10
    """)
    assert scoring.check_winner(s) == {"winner": None, "reason": "round_limit"}


def test_IND_PP_1_6_outposts_count_while_on_the_board_permanent_points_stay():
    _, s = position("""
        indagar 2 seed=indagar
        seats.0.pp = {"spirits": 2}
    """)
    gold = st.board(s).area(0)[0]
    edit(GAME, s, f"outpost {gold} 0 3")
    assert st.pp(s, 0) == 3
    del s["outposts"][gold]
    assert st.pp(s, 0) == 2
    assert scoring.breakdown(s, 0) == {"outposts": 0, "commanders": 0, "spirits": 2, "levels": 0, "strategy": 0}
