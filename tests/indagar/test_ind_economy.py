"""Outposts, resources and spirits (sections 14-16) and the actions (section 11.8)."""
from __future__ import annotations

import pytest

from domain.core import Illegal
from domain.indagar import state as st, turns
from domain.indagar.rules import GAME
from ind_support import apply, arena, hit_outpost, line, turn_of
from tests.support.positions import edit


def on_tile(kind="gold", hero="ariane", factions=("arkland", "sect")):
    s = arena(2, factions=list(factions))
    t, nxt = line(s, "r4c1", 2)
    edit(GAME, s, f"""
        reveal {t} {kind}
        put {hero} {t}
    """)
    turn_of(s, st.owner(s, hero), hero)
    return s, t


def refused(s, seat, cmd):
    with pytest.raises(Illegal) as err:
        GAME.decide(s, seat, cmd, None)
    return err.value


def test_IND_OUT_1_2_build_costs_2_gold_on_a_resource_tile_and_is_the_action():
    """IND-RES-1, IND-RES-2, IND-RES-4: gold, wood and ore pay for outposts and leave the reserve; IND-TT-1, IND-TT-2, IND-TT-3, IND-TT-4:
    outposts go on Gold/Wood/Ore tiles, not on Meadows."""
    s, t = on_tile()
    s = apply(s, 0, {"type": "build"})
    assert s["outposts"][t] == {"owner": 0, "level": 1, "damage": 0, "downgraded": False}
    assert s["seats"][0]["res"]["gold"] == 1 and s["turn"]["action"]
    assert st.pp(s, 0) == 1                                             # IND-PP-1, IND-OUT-8
    assert refused(s, 0, {"type": "upgrade"}).rule == "IND-ACTN-1"       # one action (IND-ACTN-1)
    s2, m = on_tile("meadow")
    assert refused(s2, 0, {"type": "build"}).rule == "IND-OUT-2"
    s3, t3 = on_tile("wood")
    edit(GAME, s3, f"tiles.{t3}.destroyed = true")
    assert refused(s3, 0, {"type": "build"}).rule == "IND-TERM-2"


def test_IND_OUT_3_4_upgrade_one_level_per_action_paying_each_cost():
    s, t = on_tile("ore")
    edit(GAME, s, f"""
        outpost {t} 0 1
        seats.0.res = {{"gold": 2, "wood": 3, "ore": 2}}
    """)
    s = apply(s, 0, {"type": "upgrade"})
    assert s["outposts"][t]["level"] == 2 and s["seats"][0]["res"] == {"gold": 1, "wood": 1, "ore": 2}
    assert refused(s, 0, {"type": "upgrade"}).code == "action_used"
    edit(GAME, s, "turn 0 ariane")
    s = apply(s, 0, {"type": "upgrade"})
    assert s["outposts"][t]["level"] == 3 and s["seats"][0]["res"] == {"gold": 0, "wood": 0, "ore": 0}
    edit(GAME, s, "turn 0 ariane")
    assert refused(s, 0, {"type": "upgrade"}).code == "max_level"


def test_IND_OUT_6_IND_COMP_2_piece_limits():
    s, t = on_tile()
    edit(GAME, s, "seats.0.res.gold = 20")
    others = [x for x in s["tiles"] if x != t][:6]
    for x in others:
        edit(GAME, s, f"outpost {x} 0 1")
    assert refused(s, 0, {"type": "build"}).rule == "IND-OUT-6"


def test_IND_SPR_4_fortified_gains_xp_and_IND_SPR_5_IND_OUT_7_burn_not_build():
    s, t = on_tile(hero="bertram")                                       # Fortified
    s = apply(s, 0, {"type": "build"})
    assert s["heroes"]["bertram"]["xp"] == 1
    s2, t2 = on_tile(hero="zhuan")
    edit(GAME, s2, "seats.1.res.gold = 5")
    assert refused(s2, 1, {"type": "build"}).rule == "IND-SPR-5"
    edit(GAME, s2, f"outpost {t2} 1 1")
    assert refused(s2, 1, {"type": "upgrade"}).rule == "IND-SPR-5"


def test_IND_SPR_4_fortified_upgrade_to_level_3_gives_2():
    s, t = on_tile("gold", hero="bertram")
    edit(GAME, s, f"""
        outpost {t} 0 2
        seats.0.res = {{"gold": 1, "wood": 1, "ore": 2}}
    """)
    s = apply(s, 0, {"type": "upgrade"})
    assert s["heroes"]["bertram"]["xp"] == 2


def test_IND_ACTN_1_IND_SPI_1_gather_takes_every_spirit_on_the_source():
    """IND-TT-7: the Source of Power collects spirits and a hero there may gather them."""
    s = arena(2)
    src = st.board(s).source
    edit(GAME, s, f"""
        put ariane {src}
        turn 0 ariane
    """)
    assert refused(s, 0, {"type": "gather"}).rule == "IND-SPI-1"
    edit(GAME, s, "source = 3")
    s = apply(s, 0, {"type": "gather"})
    assert s["seats"][0]["spirits"] == 3 and s["source"] == 0 and s["turn"]["action"]


def test_IND_SPI_3_IND_PP_3_the_four_uses_of_spirits():
    s, t = on_tile()
    edit(GAME, s, """
        seats.0.spirits = 5
        heroes.ariane.damage = 4
    """)
    s = apply(s, 0, {"type": "spirit", "use": "resources", "get": {"gold": 1, "wood": 0, "ore": 2}})
    assert s["seats"][0]["res"] == {"gold": 4, "wood": 2, "ore": 4} and s["seats"][0]["spirits"] == 4
    s = apply(s, 0, {"type": "spirit", "use": "heal", "hero": "ariane"})
    assert s["heroes"]["ariane"]["damage"] == 1
    s = apply(s, 0, {"type": "spirit", "use": "pp"})
    assert s["seats"][0]["spirits"] == 1 and st.pp(s, 0) == 1
    assert refused(s, 0, {"type": "spirit", "use": "pp"}).rule == "IND-SPI-3"


def test_IND_RES_5_IND_AMB_20_exchange_three_of_any_mix_for_one_of_another():
    """«3 recursos cualquiera por 1 de otro recurso»: a mix of two kinds goes for the third; a mix
    of all three has no other kind to get (indagar-4; before, 1 of each for 1 gold was taken)."""
    s, t = on_tile()
    s = apply(s, 0, {"type": "exchange", "give": {"gold": 2, "wood": 1, "ore": 0}, "get": "ore"})
    assert s["seats"][0]["res"] == {"gold": 1, "wood": 1, "ore": 3}
    assert refused(s, 0, {"type": "exchange", "give": {"gold": 1, "wood": 1, "ore": 1}, "get": "gold"}).code == "same_resource"
    assert refused(s, 0, {"type": "exchange", "give": {"gold": 0, "wood": 3, "ore": 0}, "get": "ore"}).code == "bad_payment"


def test_IND_OUT_9_IND_TERM_2_production_skips_destroyed_and_non_resource_tiles():
    """IND-RES-3: outposts produce the tile's resource, the main source of resources."""
    s = arena(2)
    a, b, c = line(s, "r4c1", 3)
    edit(GAME, s, f"""
        reveal {a} wood
        reveal {b} gold
        reveal {c} abandoned_outposts
        outpost {a} 0 3
        outpost {b} 0 2
        outpost {c} 0 1
        tiles.{b}.destroyed = true
    """)
    assert turns.production(s)[0] == {"gold": 0, "wood": 3, "ore": 0}
    assert st.pp(s, 0) == 3                                              # still worth PP


def test_IND_OUT_10_11_12_outpost_damage_resets_and_one_downgrade_per_turn():
    s, t = hit_outpost("ariane", "gold", 1, 3, (3, 3, 2), (1, 1, 1))
    s = apply(s, 1, {"type": "pass"})                                     # 8 - 3 = 5: endurance 5, down to L2
    assert s["outposts"][t]["level"] == 2
    s = apply(s, 0, {"type": "outpost", "choice": "leave"})
    s = apply(s, 0, {"type": "charge_through", "go": False}) if s["pending"] else s
    assert s["outposts"][t]["downgraded"]
    s = apply(s, 0, {"type": "end_turn"})
    assert s["outposts"][t] == {"owner": 1, "level": 2, "damage": 0, "downgraded": False}


def test_IND_OUT_20_IND_AMB_14_burn_not_build_may_destroy_or_leave():
    s, t = hit_outpost("zhuan", "ore", 0, 2, (6, 6, 6), (1, 1))
    s = apply(s, 0, {"type": "pass"})
    assert s["pending"][0]["options"] == ["destroy", "leave"]
