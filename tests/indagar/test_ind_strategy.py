"""Strategy boards and trees (section 20), IND-EX-7."""
from __future__ import annotations

import json

import pytest

from domain.core import Illegal
from domain.indagar import abilities, content
from domain.indagar import state as st
from domain.indagar.rules import GAME
from ind_support import ScriptedDice, apply, table
from tests.support.positions import edit, position

RAMAL = """
    indagar 2 seed=indagar options={"factions": ["ramal", "arkland"]}
    arena
    put kael r4c1
"""


def declare_all(s, choices):
    """Answer every pending declaration with ``choices[seat]`` (a declare command)."""
    while s["pending"] and s["pending"][0]["kind"] == "declare":
        seat = s["pending"][0]["seat"]
        s = apply(s, seat, choices[seat])
    return s


def test_IND_ROUND_7_IND_STR_4_every_player_must_declare_a_tree_each_round():
    s = table(2, factions=["forest", "arkland"])
    seat = s["pending"][0]["seat"]
    trees = {c["tree"] for c in GAME.legal_commands(s, seat)}
    assert trees == {t["id"] for t in content.boards()[s["seats"][seat]["faction"]]["trees"]}
    assert all(c["type"] == "declare" for c in GAME.legal_commands(s, seat))   # nothing else first
    with pytest.raises(Illegal) as err:
        GAME.decide(s, seat, {"type": "declare", "tree": "prosperity" if seat == 0 else "wild-magic"}, None)
    assert err.value.rule == "IND-STR-4"


def test_IND_STR_3_6_7_unlock_one_per_declaration_usable_only_while_in_play():
    s = table(2, factions=["forest", "arkland"])
    s = declare_all(s, {0: {"type": "declare", "tree": "expansion", "unlock": "timber-rights", "token": "bolt"},
                        1: {"type": "declare", "tree": "prosperity"}})
    assert s["seats"][0]["tree"] == "expansion" and s["seats"][0]["unlocked"] == {"timber-rights": "bolt"}
    assert s["seats"][0]["res"]["wood"] == 2 + 1                         # the power's income (IND-STR-3)
    assert abilities.tree_abilities(s, 0) == ["timber-rights"]
    edit(GAME, s, "seats.0.tree = ambush")                               # another tree in play
    assert abilities.tree_abilities(s, 0) == []                          # unlocked, but not usable (IND-ABL-9)
    assert s["seats"][0]["unlocked"] == {"timber-rights": "bolt"}        # still unlocked (IND-STR-7)
    assert abilities.power(s, 0) == {"attack_bonus": 1}


def test_IND_EX_7_IND_STR_8_coin_bag_and_lightning_bolt():
    _, s = position(RAMAL + """
        tree 0 blood-magic crimson-frenzy=coin blood-mend=coin
        seats.0.res = {"gold": 1, "wood": 0, "ore": 1}
    """)
    # a cost of 1 gold + 1 ore under a coin bag: pay only the gold or only the ore, chosen each use
    assert abilities.payments(s, 0, "crimson-frenzy") == ["gold", "ore"]
    assert abilities.paid("crimson-frenzy", "gold") == {"ore": 1}
    assert abilities.paid("crimson-frenzy", "ore") == {"gold": 1}
    # a cost of exactly 1 gold under a coin bag is free
    assert abilities.paid("blood-mend", "gold") == {}
    edit(GAME, s, 'seats.0.res = {"gold": 0, "wood": 0, "ore": 0}')
    assert abilities.payments(s, 0, "blood-mend") == ["gold"]
    # "Gain +2* gold" under a lightning bolt gains 3
    edit(GAME, s, """
        tree 0 hit-and-run raid=bolt
        seats.0.res = {"gold": 0, "wood": 0, "ore": 1}
        turn 0 kael
    """)
    s = apply(s, 0, {"type": "use_ability", "ability": "raid"})
    assert s["seats"][0]["res"] == {"gold": 3, "wood": 0, "ore": 0}


def test_IND_STR_9_IND_AMB_33_local_traitors_block_tree_abilities_but_not_the_power():
    _, s = position(RAMAL + """
        tree 0 hit-and-run raid=coin
        seats.0.traitors = true
        turn 0 kael
    """)
    assert abilities.tree_abilities(s, 0) == []
    assert abilities.power(s, 0) == {"move_bonus": 1}
    edit(GAME, s, """
        turn.hero = null                 # back before kael's activation
        heroes.kael.activated = false
    """)
    s = apply(s, 0, {"type": "activate", "hero": "kael"})
    assert s["turn"]["moves"] == 3 + 1


def test_IND_PP_4_IND_STR_10_a_power_that_grants_permanent_PP():
    s = table(2, factions=["forest", "arkland"])
    edit(GAME, s, "\n".join(f"outpost {t} 0" for t in st.board(s).area(0)[:3]))
    s = declare_all(s, {0: {"type": "declare", "tree": "wild-magic"}, 1: {"type": "declare", "tree": "prosperity"}})
    assert s["seats"][0]["pp"] == {"strategy": 1} and st.pp(s, 0) == 4


def test_IND_RST_1_2_wild_storm_before_an_attack_but_never_during_one():
    _, s = position("""
        indagar 2 seed=indagar options={"factions": ["forest", "arkland"]}
        arena
        put thorn r4c1
        put ariane r4c2
        reveal r4c3 gold
        put bertram r4c3
        tree 0 wild-magic wild-storm=bolt
        seats.0.res = {"gold": 0, "wood": 4, "ore": 0}
        turn 0 thorn
    """)
    b = "r4c2"
    stormed = apply(s, 0, {"type": "use_ability", "ability": "wild-storm"})
    assert stormed["heroes"]["ariane"]["damage"] == 2                   # 1* + the bolt
    assert stormed["heroes"]["thorn"]["damage"] == 2                    # every hero, the caster's too
    assert stormed["heroes"]["bertram"]["damage"] == 0                  # on a resource tile
    s = apply(s, 0, {"type": "attack", "tile": b}, ScriptedDice(1, 1))
    assert {"type": "use_ability", "ability": "wild-storm"} not in GAME.legal_commands(s, 0)
    with pytest.raises(Illegal):
        GAME.decide(s, 0, {"type": "use_ability", "ability": "wild-storm"}, None)


def test_IND_STR_5_IND_AMB_34_token_sides_stay_and_unlocking_is_optional():
    s = table(2, factions=["forest", "arkland"])
    s = declare_all(s, {0: {"type": "declare", "tree": "ambush", "unlock": "camouflage", "token": "coin"},
                        1: {"type": "declare", "tree": "prosperity"}})
    assert s["seats"][1]["unlocked"] == {}
    opts = [c for c in GAME.legal_commands(s, 0)]                        # not pending any more
    assert not any(c["type"] == "declare" for c in opts)
    assert s["seats"][0]["unlocked"] == {"camouflage": "coin"}


def test_IND_PP_4_greedy_declares_the_tree_whose_power_scores_a_pp():
    """Forest's Wild Magic gives 1 PP on declaring with 3+ outposts: greedy takes it then, and
    otherwise an income tree, unlocking an ability each time."""
    from domain.core import Drbg
    from domain.indagar.bots import greedy
    s = table(2, factions=["forest", "arkland"])
    seat = next(p["seat"] for p in s["pending"] if s["seats"][p["seat"]]["faction"] == "forest")
    edit(GAME, s, "pending = " + json.dumps([p for p in s["pending"] if p["seat"] == seat]))
    chosen = greedy(GAME, s, seat, Drbg(b"g", "0"))
    assert chosen["tree"] == "expansion" and "unlock" in chosen                # income, no PP yet
    meadows = [t for t, x in s["tiles"].items() if x["type"] == "meadow"][:3]
    edit(GAME, s, "\n".join(f"outpost {tile} {seat}" for tile in meadows))
    chosen = greedy(GAME, s, seat, Drbg(b"g", "0"))
    assert chosen["tree"] == "wild-magic" and "unlock" in chosen


def test_IND_PP_4_IND_FAC_3_the_sects_plunder_power_scores_each_outpost_it_burns():
    """The Sect cannot build (Burn Not Build); its authored Plunder power gives 1 permanent PP
    for each enemy outpost it destroys while the tree is in play."""
    from ind_support import hit_outpost
    s, t = hit_outpost("zhuan", "ore", 0, 2, (6, 6, 6), (1, 1))
    edit(GAME, s, "seats.1.tree = plunder")
    s = apply(s, 0, {"type": "pass"})
    s = apply(s, 1, {"type": "outpost", "choice": "destroy"})
    assert t not in s["outposts"] and s["seats"][1]["pp"] == {"strategy": 1} and st.pp(s, 1) == 1
    s2, t2 = hit_outpost("zhuan", "ore", 0, 2, (6, 6, 6), (1, 1))
    edit(GAME, s2, "seats.1.tree = devastation-rites")                   # another tree: no PP
    s2 = apply(s2, 0, {"type": "pass"})
    s2 = apply(s2, 1, {"type": "outpost", "choice": "destroy"})
    assert t2 not in s2["outposts"] and s2["seats"][1]["pp"] == {}
