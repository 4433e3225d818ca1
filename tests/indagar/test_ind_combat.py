"""Attacks (section 18) and the worked examples IND-EX-1, IND-EX-2, IND-EX-3, IND-EX-4, IND-EX-5 rebuilt as real states."""
from __future__ import annotations

import pytest

from domain.core import Illegal
from domain.indagar import combat, harm
from domain.indagar import state as st
from domain.indagar.rules import GAME
from ind_support import ScriptedDice, apply, arena, events_of, line, neighbours, put
from tests.support.positions import edit

CENTRE = "r4c1"   # a row of Meadows across the middle of the 4-player board is handy; 2p uses r4c1..


def ex1_table():
    """Trish (seat 0, Arkland) with Ariane; Marcus (seat 1, the Sect) with Zhuan Zedan, his
    commander, and Sun Jun next to him."""
    s = arena(2)
    a, z = line(s, "r4c1", 2)
    edit(GAME, s, f"""
        put ariane {a}
        put zhuan {z}
    """)
    sun = next(n for n in neighbours(s, z) if n not in neighbours(s, a) and n != a)
    edit(GAME, s, f"""
        put sunjun {sun}
        seats.0.res = {{"gold": 3, "wood": 0, "ore": 0}}
        seats.1.res = {{"gold": 0, "wood": 0, "ore": 1}}
        turn 0 ariane
    """)
    return s, a, z, sun


def test_IND_EX_1_the_rulebook_combat_exactly():
    """Ariane (attack 3) attacks Zhuan (defence 2): 3 dice total 4; Flaming Sword adds a die
    (3) and minimum damage 2: 7; Zhuan rolls 2 dice total 4; Undead Immunity adds a die (2): 6;
    7 - 6 = 1, raised to 2 by the minimum.

    Covers the attack sequence IND-ATK-1, IND-ATK-2, IND-ATK-3, IND-ATK-4, IND-ATK-5, IND-ATK-6 (the action is spent, IND-ATK-6), the windows of
    IND-ATK-5, IND-ATK-8 and IND-AMB-11, dice pools IND-DICE-1/IND-ATK-3, minimum damage IND-DMG-1,
    always-available abilities in an opponent's turn IND-ABL-12, fall back IND-FB-1 and
    Charge Through IND-FB-4, IND-FB-6, XP IND-LVL-3 and IND-SUC-1, IND-SUC-4."""
    s, a, z, sun = ex1_table()
    assert combat.hero_attack(s, "ariane") == 3 and combat.hero_defence(s, "zhuan") == 2
    s = apply(s, 0, {"type": "attack", "tile": z}, ScriptedDice(1, 1, 2))
    assert s["attack"]["adice"] == [1, 1, 2]                             # step 2: total 4, the attack has begun
    assert s["pending"][0] == {"kind": "window", "side": "attack", "seat": 0}
    s = apply(s, 0, {"type": "use_ability", "ability": "flaming-sword", "hero": "ariane"}, ScriptedDice(3))
    assert sum(s["attack"]["adice"]) == 7 and s["attack"]["min"] == 2   # step 3 (IND-ATK-7: one more die)
    assert s["seats"][0]["res"]["gold"] == 2                             # its cost is paid (IND-ABL-4)
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(2, 2))
    assert sum(s["attack"]["ddice"]) == 4                                # step 4
    # step 6: the defender has rolled, so Trish's window is closed (assertion 2)
    assert GAME.legal_commands(s, 0) == []
    with pytest.raises(Illegal) as err:
        GAME.decide(s, 0, {"type": "use_ability", "ability": "flaming-sword", "hero": "ariane"}, ScriptedDice(6))
    assert err.value.code == "not_your_turn"
    # step 5: Sun Jun's always-available ability, in Trish's turn (assertion 3)
    assert {"type": "use_ability", "ability": "undead-immunity", "hero": "sunjun"} in GAME.legal_commands(s, 1)
    s = apply(s, 1, {"type": "use_ability", "ability": "undead-immunity", "hero": "sunjun"}, ScriptedDice(2))
    assert sum(s["attack"]["ddice"]) == 6 and s["seats"][1]["res"]["ore"] == 0
    events = events_of(s, 1, {"type": "pass"})
    dealt = next(e for e in events if e["type"] == "DamageDealt")["data"]
    assert dealt == {"total": 2, "figure": 2}                            # step 7 (assertion 4)
    s = apply(s, 1, {"type": "pass"})
    assert s["heroes"]["zhuan"]["damage"] == 2
    # 9: Zhuan falls back to a free tile of Marcus's choice
    assert s["pending"][0]["kind"] == "fall_back" and s["pending"][0]["seat"] == 1
    to = s["pending"][0]["options"][0]
    s = apply(s, 1, {"type": "fall_back", "to": to})
    assert s["heroes"]["zhuan"]["tile"] == to
    # 10: Ariane may Charge Through into the tile Zhuan left, without movement
    assert s["pending"][0] == {"kind": "charge_through", "seat": 0, "options": [True, False]}
    moves = s["turn"]["moves"]
    s = apply(s, 0, {"type": "charge_through", "go": True})
    assert s["heroes"]["ariane"]["tile"] == z and s["turn"]["moves"] == moves
    # 8: a successful attack: Ariane +1 XP; Zhuan gets none (IND-SUC-4)
    assert s["heroes"]["ariane"]["xp"] == 1 and s["heroes"]["zhuan"]["xp"] == 0
    assert s["attack"] is None and s["turn"]["action"]


def test_IND_EX_1_8_a_commander_sent_to_retreat_earns_PP_and_3_XP():
    s, a, z, sun = ex1_table()
    edit(GAME, s, "heroes.zhuan.damage = 4")  # 2 more reach endurance 6
    s = apply(s, 0, {"type": "attack", "tile": z}, ScriptedDice(1, 1, 2))
    s = apply(s, 0, {"type": "use_ability", "ability": "flaming-sword", "hero": "ariane"}, ScriptedDice(3))
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(2, 2))
    s = apply(s, 1, {"type": "pass"})
    assert s["heroes"]["zhuan"]["tile"] is None                          # IND-RET-1, IND-RET-2
    assert s["heroes"]["zhuan"]["damage"] == 0
    assert s["seats"][0]["pp"] == {"commanders": 1}                      # IND-PP-2, IND-CMD-3, IND-SUC-5
    # +3 XP reaches level I at once (IND-LVL-4, IND-LVL-5): the level-up side is asked of Trish,
    # before her Charge Through (indagar-7)
    assert s["heroes"]["ariane"]["xp"] == 0 and s["heroes"]["ariane"]["bonuses"] == ["?"]
    assert s["pending"][0] == {"kind": "level_bonus", "seat": 0, "options": ["sword", "shield"], "hero": "ariane"}
    assert [p["kind"] for p in s["pending"]] == ["level_bonus", "charge_through"]
    s = apply(s, 0, {"type": "level_bonus", "side": "sword"})
    s = apply(s, 0, {"type": "charge_through", "go": False})
    assert s["heroes"]["ariane"]["bonuses"] == ["sword"] and s["attack"] is None and not s["pending"]
    assert s["heroes"]["ariane"]["tile"] == a


def occupied_outpost(endurance_damage: int):
    """IND-EX-2: an L1 outpost (endurance 3) with its owner's hero on it, attacked."""
    s = arena(2)
    a, t = line(s, "r4c1", 2)
    edit(GAME, s, f"""
        tiles.{t}.type = "gold"
        put ariane {a}
        put sunjun {t}
        outpost {t} 1 2  # level 2: endurance 4
        turn 0 ariane
    """)
    return s, a, t


def test_IND_EX_2_IND_AOUT_4_occupied_outpost_absorbs_first_then_the_hero():
    """IND-AOUT-1, IND-AOUT-2, IND-AOUT-3, IND-OUT-14 (one pool), IND-OUT-11 (downgrade at endurance)."""
    s, a, t = occupied_outpost(6)
    # attack 3 dice of 6 = 18 against Sun Jun 2 + outpost L2 2 = 4 dice of 1
    s = apply(s, 0, {"type": "attack", "tile": t}, ScriptedDice(6, 6, 6))
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(1, 1, 1, 1))
    assert sum(s["attack"]["ddice"]) == 4                                # IND-AOUT-1: one pool
    s = apply(s, 1, {"type": "pass"})
    # 14 damage: the outpost takes 4 and drops to L1; Sun Jun takes the other 10 and retreats
    assert s["outposts"][t]["level"] == 1 and s["outposts"][t]["downgraded"]
    assert s["heroes"]["sunjun"]["tile"] is None
    assert s["pending"][0]["kind"] == "outpost" and s["pending"][0]["options"] == ["capture", "destroy", "leave"]


def test_IND_EX_2_variant_small_hit_downgrades_without_fall_back_or_charge():
    s, a, t = occupied_outpost(4)
    edit(GAME, s, f"outposts.{t}.level = 1")  # endurance 3; 4 damage in total
    s = apply(s, 0, {"type": "attack", "tile": t}, ScriptedDice(2, 2, 3))
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(1, 1, 1))
    s = apply(s, 1, {"type": "pass"})
    assert t not in s["outposts"]                                        # L1 destroyed by its downgrade
    assert s["seats"][0]["res"]["gold"] == 3 + 1                        # IND-AOUT-5: level 1 in gold
    assert s["heroes"]["sunjun"]["damage"] == 1 and s["heroes"]["sunjun"]["tile"] == t
    assert not s["pending"] and s["attack"] is None                      # no fall back, no Charge Through
    assert s["heroes"]["ariane"]["xp"] == 1                              # IND-SUC-1: destroyed = success


def test_IND_EX_3_IND_OUT_17_capture_as_the_lower_level():
    """IND-OUT-15, IND-OUT-16, IND-OUT-18 (capture, destroy or leave a downgraded L3), IND-OUT-5 and IND-AOUT-5
    (the level before the downgrade, in the tile's resource), IND-SUC-2 (one success)."""
    s = arena(2)
    a, t = line(s, "r4c1", 2)
    edit(GAME, s, f"""
        tiles.{t}.type = "wood"
        put ariane {a}
        outpost {t} 1 3  # L3, endurance 5, 3 dice
        turn 0 ariane
    """)
    s = apply(s, 0, {"type": "attack", "tile": t}, ScriptedDice(6, 6, 6))
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(1, 1, 1))
    s = apply(s, 1, {"type": "pass"})
    assert s["outposts"][t]["level"] == 2
    pp_before = (st.pp(s, 0), st.pp(s, 1))
    captured = apply(s, 0, {"type": "outpost", "choice": "capture"})
    assert captured["outposts"][t] == {"owner": 0, "level": 2, "damage": 0, "downgraded": True}
    assert (st.pp(captured, 0), st.pp(captured, 1)) == (pp_before[0] + 1, pp_before[1] - 1)
    destroyed = apply(s, 0, {"type": "outpost", "choice": "destroy"})
    assert t not in destroyed["outposts"] and destroyed["seats"][0]["res"]["wood"] == 2 + 3
    left = apply(s, 0, {"type": "outpost", "choice": "leave"})
    assert left["outposts"][t]["owner"] == 1 and left["outposts"][t]["level"] == 2
    # IND-AMB-15: the lone outpost's tile is free after a destroy: Charge Through is offered
    assert destroyed["pending"][0]["kind"] == "charge_through"


def test_IND_EX_4_IND_FLK_1_2_flanking_counts_friends_next_to_the_target():
    s = arena(2)
    a, e, far = line(s, "r4c1", 3)
    edit(GAME, s, f"""
        put ariane {a}
        put zhuan {e}
    """)
    assert combat.attack_pool(s, ("hero", "ariane"), e) == 3
    b = next(n for n in neighbours(s, e) if n not in (a, far) and n not in neighbours(s, a))
    edit(GAME, s, f"put bertram {b}")
    assert combat.attack_pool(s, ("hero", "ariane"), e) == 4             # B touches E
    c = next(n for n in neighbours(s, a) if n not in neighbours(s, e) and n != e)
    edit(GAME, s, f"put elowen {c}")
    assert combat.attack_pool(s, ("hero", "ariane"), e) == 4             # C touches only A
    put(s, "elowen", next(n for n in neighbours(s, e) if n not in (a, b) and s["heroes"]["bertram"]["tile"] != n
                          and n != far and st.figure_at(s, n) is None))
    assert combat.attack_pool(s, ("hero", "ariane"), e) == 5             # both touch E: +2


def test_IND_EX_5_IND_LVL_5_experience_carries_over_and_cascades():
    s = arena(2)
    edit(GAME, s, """
        put ariane r4c1
        heroes.ariane.xp = 2
    """)
    events = []
    harm.gain_xp(s, events.append, "ariane", 5)                        # Groxiah's 5 XP
    xp = next(e for e in events if e["type"] == "XpGained")["data"]
    assert xp == {"hero": "ariane", "gained": 5, "xp": 0, "levels": 2}
    assert [e["data"]["kind"] for e in events if e["type"] == "DecisionAsked"] == ["level_bonus", "level_bonus"]


def test_IND_LVL_6_7_xp_after_level_3_is_discarded_and_level_3_gives_a_PP():
    """IND-PP-5 (a permanent PP per level-3 hero), IND-LVL-2 (the sword side: +1 attack)."""
    s = arena(2)
    edit(GAME, s, """
        put ariane r4c1
        heroes.ariane.bonuses = ["sword", "shield"]
        heroes.ariane.xp = 4
        turn 0 ariane
    """)
    from domain.indagar.rules import GAME as G
    from domain.kit import Batch
    b = Batch(s, G.evolve)
    harm.gain_xp(b.state, b.add, "ariane", 9)
    assert b.state["heroes"]["ariane"]["xp"] == 0 and len(b.state["heroes"]["ariane"]["bonuses"]) == 3
    assert b.state["seats"][0]["pp"] == {"levels": 1} and st.pp(b.state, 0) == 1
    b.state = apply(b.state, 0, {"type": "level_bonus", "side": "sword"})
    assert b.state["heroes"]["ariane"]["bonuses"] == ["sword", "shield", "sword"]
    assert combat.hero_attack(b.state, "ariane") == 3 + 2
    harm.gain_xp(b.state, b.add, "ariane", 4)
    assert b.state["heroes"]["ariane"]["xp"] == 0


def test_IND_DMG_2_IND_SPI_3_a_spirit_ignores_3_damage_even_below_the_minimum():
    """IND-SUC-3: 0 damage taken is a successful defence (+1 XP); IND-SPI-2: spirits in the reserve."""
    s, a, z, sun = ex1_table()
    edit(GAME, s, "seats.1.spirits = 1")
    s = apply(s, 0, {"type": "attack", "tile": z}, ScriptedDice(1, 1, 2))
    s = apply(s, 0, {"type": "use_ability", "ability": "flaming-sword", "hero": "ariane"}, ScriptedDice(3))
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(2, 2))
    s = apply(s, 1, {"type": "spirit", "use": "ignore"})
    s = apply(s, 1, {"type": "pass"})
    assert s["heroes"]["zhuan"]["damage"] == 0                           # 3 - 3: a successful defence
    assert s["heroes"]["zhuan"]["xp"] == 1 and s["heroes"]["ariane"]["xp"] == 0


def test_IND_AMB_12_damage_modifier_order():
    """IND-DMG-1 (minimum after the comparison), IND-DMG-3 (additional damage on a hit)."""
    a = {"adice": [6], "ddice": [2], "extra": 2, "min": 3, "ignore": 0}
    assert combat.damage(a) == 6                                         # 4 + 2, above the minimum
    a = {"adice": [2], "ddice": [6], "extra": 2, "min": 3, "ignore": 1}
    assert combat.damage(a) == 3                # no hit: no extra; min 3 (ignoring is the figure's, at resolve)


def test_IND_DMG_4_IND_TERM_1_a_reroll_rerolls_every_attack_die():
    s = arena(2, factions=["forest", "sect"])
    a, z = line(s, "r4c1", 2)
    edit(GAME, s, f"""
        put thorn {a}
        put zhuan {z}
        heroes.thorn.bonuses = ["shield", "shield"]  # level II: Hunter's Mark
        seats.0.res.wood = 1
        turn 0 thorn
    """)
    s = apply(s, 0, {"type": "attack", "tile": z}, ScriptedDice(1, 1))
    s = apply(s, 0, {"type": "use_ability", "ability": "hunters-mark", "hero": "thorn"}, ScriptedDice(5, 6))
    assert s["attack"]["adice"] == [5, 6]


def test_IND_ABL_11_effects_apply_in_the_order_they_were_used():
    s, a, z, sun = ex1_table()
    edit(GAME, s, "seats.0.spirits = 1")
    s = apply(s, 0, {"type": "attack", "tile": z}, ScriptedDice(1, 1, 2))
    events = events_of(s, 0, {"type": "use_ability", "ability": "flaming-sword", "hero": "ariane"}, ScriptedDice(3))
    s = apply(s, 0, {"type": "use_ability", "ability": "flaming-sword", "hero": "ariane"}, ScriptedDice(3))
    s = apply(s, 0, {"type": "spirit", "use": "dice"}, ScriptedDice(4, 5))
    assert s["attack"]["adice"] == [1, 1, 2, 3, 4, 5]                    # in the order used
    assert [e["type"] for e in events] == ["AbilityUsed", "DiceRolled"]
