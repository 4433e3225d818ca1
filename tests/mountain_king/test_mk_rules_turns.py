"""Turn structure, trading, spells, forced actions and networks (MK-TURN, MK-ACT, MK-TRADE,
MK-SPELL, MK-GAP-8, MK-DIG-4/5, MK-TEAM-9/10, MK-HALL-1)."""
import pytest

from domain.core import Illegal
from domain.mountain_king import content
from domain.mountain_king.digging import dig_commands
from domain.mountain_king.rules import GAME
from domain.mountain_king.spells import SPELLS
from domain.mountain_king.terrain import lay

from mk_driver import apply
from tests.support.positions import edit, position
from test_mk_rule_ids import FIRST_TURN
from test_mk_rule_ids_more import FULL_ROSTER


def test_MK_TURN_3_no_going_back_after_recruit():
    _, s = position(FIRST_TURN + "storage 0 rune=1")
    s, _ = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    assert s["turn"]["step"] == "hall"
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "cast", "spell": s["spells"]["book"][0]["id"]})
    assert e.value.code in ("out_of_phase", "spell_cannot_resolve") and e.value.rule in ("MK-TURN-3", "MK-AMB-29")
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "recruit", "slot": "B2", "position": [2, 2]})
    assert e.value.code == "out_of_phase"


def test_MK_TURN_5_only_the_current_seat_acts():
    _, s = position(FIRST_TURN + "storage 0")
    with pytest.raises(Illegal) as e:
        apply(s, 1, {"type": "end_step"})
    assert e.value.code == "not_your_turn"
    assert [] == GAME.legal_commands(s, 1)


def test_MK_ACT_1_must_recruit_or_dig_before_moving_on():
    _, s = position(FIRST_TURN + "storage 0")
    s, _ = apply(s, 0, {"type": "end_step"})
    assert s["turn"]["step"] == "action"
    assert {"type": "end_step"} not in GAME.legal_commands(s, 0)
    for cmd in ({"type": "end_step"}, {"type": "end_turn"}):
        with pytest.raises(Illegal) as e:
            apply(s, 0, cmd)
        assert e.value.rule == "MK-ACT-1"


def test_MK_ACT_2_3_4_full_roster_without_minerals_skips():
    _, s = position(FULL_ROSTER + "storage 0")
    cmds = GAME.legal_commands(s, 0)
    assert not [c for c in cmds if c["type"] in ("recruit", "dig")]
    assert {"type": "end_turn"} in cmds
    s, ev = apply(s, 0, {"type": "end_turn"})
    assert s["current"] == 1


def test_MK_ACT_2_full_roster_must_dig_when_it_can():
    _, s = position(FULL_ROSTER + "storage 0 stone=2")
    cmds = GAME.legal_commands(s, 0)
    assert [c for c in cmds if c["type"] == "dig"] and {"type": "end_turn"} not in cmds
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    assert e.value.rule == "MK-ACT-2"


def test_MK_TRADE_1_four_for_one_any_time():
    _, s = position(FIRST_TURN + "storage 0 stone=2 iron=2")
    s, ev = apply(s, 0, {"type": "trade", "give": {"stone": 2, "iron": 2}, "get": "rune"})
    assert s["stores"][0]["rune"] == 1 and s["stores"][0]["stone"] == 0
    _, s = position(FIRST_TURN + "storage 0 stone=3")
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "trade", "give": {"stone": 3}, "get": "rune"})
    assert e.value.rule == "MK-TRADE-1"


def test_MK_AMB_3_clan_carts_are_not_tradeable():
    _, s = position(FIRST_TURN + """
        storage 0 stone=3
        troll 0 1,1 stone+cart:fire 01
    """)
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "trade", "give": {"stone": 3, "cart": 1}, "get": "rune"})
    assert e.value.code == "cannot_pay"


def test_MK_AMB_4_supply_limits_gains():
    _, s = position(FIRST_TURN + """
        storage 0 stone=4
        supply.rune = 0
    """)
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "trade", "give": {"stone": 4}, "get": "rune"})
    assert e.value.rule == "MK-AMB-4"


def _with_spell(spell, storage=""):
    """Seat 0's first turn with ``spell`` first in its spell book and a rune to cast it."""
    return position(FIRST_TURN + f"""
        storage 0 rune=1 {storage}
        spell {spell}
    """)[1]


def test_MK_GAP_8_seventeen_spells_one_earth_ritual():
    assert len(SPELLS) == 17 and SPELLS["earth_ritual"]["name"] == "Earth Ritual"
    assert any(sp["effect"] in ("lure", "promise") for sp in SPELLS.values())  # bribes (MK-GAP-8.5)
    assert all(sp["precondition"] for sp in SPELLS.values())


def cast(s, spell, **params):
    return apply(s, 0, {"type": "cast", "spell": spell, **params})


def test_spell_troll_lure_places_bribes_MK_REC_5():
    s = _with_spell("troll_lure")
    s, _ = cast(s, "troll_lure", slot="B2", res="hammer")
    assert s["horde"]["slots"]["B2"]["bribes"] == {"hammer": 2}
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B2", "position": [2, 1]})
    assert s["stores"][0]["hammer"] == 2  # collected by the recruiter (MK-REC-7)


def test_spell_gilded_promise_pays_own_resource():
    s = _with_spell("gilded_promise", "iron=1")
    s, _ = cast(s, "gilded_promise", slot="T1", res="iron")
    assert s["horde"]["slots"]["T1"]["bribes"] == {"iron": 1} and s["stores"][0]["iron"] == 0


def test_spell_rallying_drum_activates_one_troll():
    s = _with_spell("rallying_drum")
    s, _ = cast(s, "rallying_drum", troll=[1, 2])
    assert all(s["rosters"][0]["1,2"]["held"])
    assert not any(s["rosters"][0]["1,1"]["held"])


def test_spell_quartermasters_whistle_unloads_a_troll():
    s = _with_spell("quartermasters_whistle")
    edit(GAME, s, "troll 0 1,1 stone+cart:fire 11")
    s, _ = cast(s, "quartermasters_whistle", troll=[1, 1])
    assert s["stores"][0]["stone"] == 1 and s["stores"][0]["cart"] == 1


def test_spell_transmutation():
    s = _with_spell("transmutation", "stone=1")
    s, _ = cast(s, "transmutation", give="stone", get="heartstone")
    assert s["stores"][0]["heartstone"] == 1 and s["stores"][0]["stone"] == 0
    s = _with_spell("transmutation", "stone=1")
    with pytest.raises(Illegal) as e:
        cast(s, "transmutation", give="stone", get="stone")
    assert e.value.rule == "MK-AMB-29"


def test_spell_statue_song_moves_without_a_cart():
    s = _with_spell("statue_song")
    edit(GAME, s, """
        door 0 3,15
        tunnel t1 0 4,15
        statues = {"3,15": "ice"}
    """)
    s, _ = cast(s, "statue_song", **{"from": [3, 15], "to": [4, 15]})
    assert s["statues"] == {"4,15": "ice"}


def test_spell_hammer_rite_waives_rubble():
    s = _with_spell("hammer_rite", "stone=5")
    s, _ = cast(s, "hammer_rite")
    digs = dig_commands(s, 0)
    b = content.board(s["board"])
    rubble = [d for d in digs if any(tuple(x) in b.rubble for x in d["cells"])]
    if rubble:
        s, _ = apply(s, 0, rubble[0])
        assert s["turn"]["acted"]


def test_spell_silver_tongue_recruit_without_bribes():
    s = _with_spell("silver_tongue")
    s, _ = cast(s, "silver_tongue")
    s, ev = apply(s, 0, {"type": "recruit", "slot": "T2", "position": [2, 1]})
    assert all(not sp["bribes"] for sp in s["horde"]["slots"].values())


def test_spell_sculptors_call_takes_a_pedestal():
    s = _with_spell("sculptors_call")
    assert s["bag"]["ice"]  # an ice pedestal left to take
    s, _ = cast(s, "sculptors_call", clan="ice")
    assert s["peds"][0]["ice"] == 1


def test_spell_master_key_adds_a_use():
    s = _with_spell("master_key", "heartstone=3")
    edit(GAME, s, """
        door 0 3,15
        workshop 3,16 tool_forge
    """)
    s, _ = cast(s, "master_key")
    s, ev = apply(s, 0, {"type": "use_workshop", "space": [3, 16], "give": {"heartstone": 1},
                         "get": {"hammer": 1}})
    assert ev[0]["data"]["uses"] == 2


def test_spell_pickpocket_and_dismissal():
    s = _with_spell("pickpocket")
    edit(GAME, s, "bribes B4 coin=2")
    s, _ = cast(s, "pickpocket", slot="B4")
    assert s["stores"][0]["coin"] == 2 and s["horde"]["slots"]["B4"]["bribes"] == {}
    s = _with_spell("dismissal")
    gone = s["horde"]["slots"]["M1"]["card"]
    ped = s["horde"]["slots"]["M1"]["ped"]
    s, ev = cast(s, "dismissal", slot="M1")
    assert s["horde"]["decks"]["2"][-1] == gone and s["horde"]["slots"]["M1"]["card"] != gone
    assert s["horde"]["slots"]["M1"]["ped"] == ped  # MK-AMB-7


@pytest.mark.parametrize("spell, gained", [("deep_survey", {"hammer": 1, "cart": 1}),
                                           ("runic_echo", {"rune": 1, "coin": 1}),
                                           ("mine_song", {})])
def test_spell_simple_gains(spell, gained):
    s = _with_spell(spell)
    s, _ = cast(s, spell)
    assert {r: n for r, n in s["stores"][0].items() if n} == gained


def test_spell_merchants_charm_three_for_one():
    s = _with_spell("merchants_charm", "stone=3")
    s, _ = cast(s, "merchants_charm")
    s, _ = apply(s, 0, {"type": "trade", "give": {"stone": 3}, "get": "iron"})
    assert s["stores"][0]["iron"] == 1


def test_MK_SPELL_1_only_spellbook_cards():
    _, s = position(FIRST_TURN + "storage 0 rune=1")
    # A well-formed cast (this spell takes no parameters), so the schema lets it reach the rules.
    outside = next(c for c in s["spells"]["deck"] if SPELLS[c]["effect"] in ("gain", "per_tunnel", "turn_flag"))
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "cast", "spell": outside})
    assert e.value.rule == "MK-SPELL-1"


def test_MK_DIG_5_may_not_touch_an_opponent():
    _, s = position(FIRST_TURN + """
        storage 0 stone=5
        door 0 5,4
        door 1 5,7
    """)
    r, c = 5, 4
    assert dig_commands(s, 0)
    for d in dig_commands(s, 0):
        assert all(abs(x[0] - r) + abs(x[1] - (c + 3)) > 1 for x in d["cells"])


def test_MK_TEAM_10_teammates_are_not_opponents_and_join_MK_TEAM_9():
    _, s = position("""
        mountain-king 4 seed=seed options={"teams": true}
        opening
        empty_trolls 0
        storage 0 stone=5
        door 0 5,4
        door 3 5,7
    """)
    r, c = 5, 4
    digs = dig_commands(s, 0)
    joining = [d for d in digs if any(abs(x[0] - r) + abs(x[1] - c - 3) == 1 for x in d["cells"])]
    assert joining
    s, ev = apply(s, 0, joining[0])
    assert lay(s).network(0).seats == frozenset({0, 3})


def test_MK_HALL_1_one_hall_per_turn():
    _, s = position(FIRST_TURN + """
        storage 0
        tunnel t1 0 9,3 9,4 9,5 10,3 10,4 10,5 11,3 11,4 11,5 12,3 12,4
        door 0 9,6
        step hall
    """)
    cmds = [c for c in GAME.legal_commands(s, 0) if c["type"] == "build_hall"]
    assert cmds
    s, _ = apply(s, 0, cmds[0])
    assert not [c for c in GAME.legal_commands(s, 0) if c["type"] == "build_hall"]
    with pytest.raises(Illegal):
        apply(s, 0, cmds[-1])


def test_MK_TURN_3_skipped_action_stays_skipped_after_a_trade():
    _, s = position(FULL_ROSTER + "storage 0 coin=4")
    s, _ = apply(s, 0, {"type": "end_step"})
    s, _ = apply(s, 0, {"type": "end_step"})
    assert s["turn"]["step"] == "hall"
    s, _ = apply(s, 0, {"type": "trade", "give": {"coin": 4}, "get": "stone"})
    edit(GAME, s, "storage 0 stone=5")
    cmds = GAME.legal_commands(s, 0)
    assert {"type": "end_step"} in cmds and not [c for c in cmds if c["type"] == "dig"]


def test_MK_AMB_3_generic_clan_carts_option_but_never_at_the_cartwright():
    """MK-CART-6: even where clan carts pay generally, the Cartwright's House takes only wild carts."""
    _, s = position("""
        mountain-king 4 seed=seed options={"clan_carts_generic_payment": true}
        opening
        empty_trolls 0
        storage 0 stone=3
        troll 0 1,1 stone+cart:fire 01
    """)
    s2, _ = apply(s, 0, {"type": "trade", "give": {"stone": 3, "cart": 1}, "get": "rune"})
    assert s2["stores"][0]["rune"] == 1
    edit(GAME, s, """
        door 0 3,15
        workshop 3,16 cartwrights_house
    """)
    with pytest.raises(Illegal) as e:
        apply(s, 0, {"type": "use_workshop", "space": [3, 16], "give": {"cart": 1}, "get": {"heartstone": 1}})
    assert e.value.code == "cannot_pay"
    assert not [x for x in GAME.legal_commands(s, 0) if x["type"] == "use_workshop"]
