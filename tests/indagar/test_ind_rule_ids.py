"""The remaining rules, one focused check each (abilities, activation, retreat, round end, solo)."""
from __future__ import annotations

import json

import pytest

from domain.core import Drbg, Illegal
from domain.indagar import abilities, combat, content, dice
from domain.indagar import state as st
from domain.indagar.rules import GAME
from domain.kit import Batch
from ind_support import (ScriptedDice, apply, arena, armour_everyone, cornered, only_resource, events_of, line, monster_turn,
                         neighbours, play_round, table)
from tests.support.positions import edit, position


def refused(s, seat, cmd):
    with pytest.raises(Illegal) as err:
        GAME.decide(s, seat, cmd, None)
    return err.value


def ready(hero="ariane", factions=("arkland", "sect"), more=""):
    """``hero`` on r4c1 of an arena, activated; r4c2..r4c4 east of it. ``more``: further position lines."""
    _, s = position(f"""
        indagar 2 seed=indagar options={json.dumps({"factions": list(factions)})}
        arena
        put {hero} r4c1
        turn {{seat}} {hero}
    """.replace("{seat}", str(0 if hero in content.faction_heroes(factions[0]) else 1)) + more)
    return s, "r4c1", "r4c2", "r4c3", "r4c4"


def test_IND_ABL_1_2_IND_ACT_3_a_hero_has_basic_command_if_commander_and_specials_by_level():
    s, *_ = ready()
    assert abilities.unlocked(s, "ariane") == ["flaming-sword", "rally-of-arkland"]     # Ariane commands
    assert abilities.unlocked(s, "bertram") == ["iron-bulwark"]
    edit(GAME, s, 'heroes.bertram.bonuses = ["sword", "shield"]')
    assert abilities.unlocked(s, "bertram") == ["iron-bulwark", "quartermaster", "oath-of-stone"]


def test_IND_ABL_3_8_only_the_active_heros_abilities_in_ones_own_turn():
    s, a, *_ = ready(more="""
        put elowen r2c2
        heroes.elowen.damage = 2
        seats.0.res.wood = 1
    """)
    used = {c["ability"] for c in GAME.legal_commands(s, 0) if c["type"] == "use_ability"}
    assert "light-of-mending" not in used                                 # Elowen is not active
    assert refused(s, 0, {"type": "use_ability", "ability": "light-of-mending"}).code == "ability_unusable"
    assert GAME.legal_commands(s, 1) == []                                # nor in another player's turn


def test_IND_ABL_5_6_7_10_free_once_per_turn_lasting_the_turn_at_any_moment():
    s, a, b, c, d = ready("thorn", ("forest", "sect"))
    res = dict(s["seats"][0]["res"])
    s = apply(s, 0, {"type": "move", "to": b})                            # move, then use, then move on
    s = apply(s, 0, {"type": "use_ability", "ability": "forest-paths"})   # no printed cost: free
    assert s["seats"][0]["res"] == res and s["turn"]["moves"] == 3        # 3 - 1 + 1
    assert refused(s, 0, {"type": "use_ability", "ability": "forest-paths"}).rule == "IND-ABL-6"
    s = apply(s, 0, {"type": "move", "to": c})
    s = apply(s, 0, {"type": "end_turn"})                                 # the extra move ends with the turn
    assert s["turn"] is None or s["turn"]["moves"] in (0, st.hero_card("zhuan")["movement"])


def test_IND_ABL_13_a_passive_ability_is_always_in_effect():
    s, *_ = ready()
    base = combat.hero_defence(s, "ariane")
    edit(GAME, s, 'heroes.ariane.bonuses = ["sword"]')                    # level I unlocks Shield Wall
    assert combat.hero_defence(s, "ariane") == base + 1
    assert {"type": "use_ability", "ability": "shield-wall"} not in GAME.legal_commands(s, 0)


def test_IND_ACT_1_2_IND_TURN_1_activate_one_available_hero_first():
    _, s = position("""
        indagar 2 seed=indagar
        arena
        put ariane r4c1
        put bertram r4c2
        turn 0
        put elowen none                # in retreat: unavailable
    """)
    assert [c for c in GAME.legal_commands(s, 0) if c["type"] not in ("spirit", "exchange")] == \
        [{"type": "activate", "hero": "ariane"}, {"type": "activate", "hero": "bertram"}]
    assert refused(s, 0, {"type": "move", "to": "r4c3"}).code == "activate_first"
    assert refused(s, 0, {"type": "activate", "hero": "elowen"}).rule == "IND-ACT-1"
    s = apply(s, 0, {"type": "activate", "hero": "ariane"})
    assert s["heroes"]["ariane"]["activated"] and s["turn"]["hero"] == "ariane"
    assert refused(s, 0, {"type": "activate", "hero": "bertram"}).code == "already_active"


def test_IND_TURN_2_3_4_IND_ACTN_2_move_act_move_abilities_and_exploring_are_not_actions():
    s, a, b, c, d = ready()
    edit(GAME, s, f"""
        hide {d} meadow
        reveal {b} gold
    """)
    s = apply(s, 0, {"type": "move", "to": b})
    s = apply(s, 0, {"type": "use_ability", "ability": "rally-of-arkland"})   # an ability: not the action
    assert not s["turn"]["action"]
    s = apply(s, 0, {"type": "build"})                                        # the one action
    s = apply(s, 0, {"type": "move", "to": c})                                # moving after acting
    s = apply(s, 0, {"type": "explore", "tile": d})                           # exploring: not an action
    s = apply(s, 0, {"type": "reveal", "show": False})
    assert s["heroes"]["ariane"]["tile"] == c and s["outposts"][b]["owner"] == 0
    ended = events_of(s, 0, {"type": "end_turn"})                             # IND-TURN-4
    assert ended[0] == {"type": "TurnEnded", "data": {"who": "seat:0"}}
    assert s["heroes"]["ariane"]["activated"] and not st.available(s, "ariane")


def test_IND_RET_2_3_4_5_7_retreat_clears_damage_xp_and_tokens_but_keeps_levels_and_command():
    s, *_ = ready(more="""
        heroes.ariane.damage = 3
        heroes.ariane.xp = 2
        heroes.ariane.bonuses = ["sword"]
        heroes.ariane.caches = ["shield"]
    """)
    b = Batch(s, GAME.evolve)
    from domain.indagar import harm
    harm.damage_hero(b.state, b.add, "ariane", 10, cause=None)           # IND-RET-7: any cause
    h = b.state["heroes"]["ariane"]
    assert h["tile"] is None and h["damage"] == 0 and h["xp"] == 0 and h["caches"] == []
    assert h["bonuses"] == ["sword"] and b.state["seats"][0]["commander"] == "ariane"
    assert not st.available(b.state, "ariane")                               # IND-RET-3
    edit(GAME, b.state, "put ariane r4c1")
    passive = abilities.passive_defence(b.state, "ariane")                   # Shield Wall, level I
    assert combat.hero_defence(b.state, "ariane") == 2 + 1 + passive         # IND-CMD-2: still +1


def test_IND_FLK_3_IND_MON_3_heroes_flank_a_monster_and_storms_hit_monsters():
    s, a, b, c, d = ready()
    flank = next(n for n in neighbours(s, b) if n not in (a, c))
    edit(GAME, s, f"""
        put helgoth {b}
        put bertram {flank}
    """)
    assert combat.attack_pool(s, ("hero", "ariane"), b) == 3 + 1
    assert combat.is_enemy_target(s, ("hero", "ariane"), b)
    _, s = position("""
        indagar 2 seed=indagar options={"factions": ["forest", "arkland"]}
        arena
        put thorn r4c1
        put helgoth r4c3
        tree 0 wild-magic wild-storm=coin
        seats.0.res.wood = 2
        turn 0 thorn
    """)
    s = apply(s, 0, {"type": "use_ability", "ability": "wild-storm", "discount": "wood"})
    assert s["monsters"]["helgoth"]["damage"] == 1


def test_IND_OUT_13_outside_an_attack_hero_and_outpost_take_damage_separately():
    _, s = position("""
        indagar 2 seed=indagar options={"factions": ["forest", "arkland"]}
        arena
        reveal r4c2 abandoned_outposts
        outpost r4c2 1
        put ariane r4c2
        put thorn r4c4
        tree 0 wild-magic wild-storm=bolt
        seats.0.res.wood = 2
        turn 0 thorn
    """)
    s = apply(s, 0, {"type": "use_ability", "ability": "wild-storm"})
    assert s["heroes"]["ariane"]["damage"] == 2 and s["outposts"]["r4c2"] == \
        {"owner": 1, "level": 1, "damage": 0, "downgraded": False}


@pytest.mark.parametrize("kind", ["kakonositel", "kelfeerazen", "groxiah"])
def test_IND_EVT_7_10_13_IND_EVM_2_each_event_monster_appears_and_attacks(kind):
    s, a, b, c, d = ready()
    edit(GAME, s, f"hide {b} {kind}")
    s = apply(s, 0, {"type": "move", "to": b}, ScriptedDice(*[1] * 12))
    assert s["monsters"][kind]["tile"] == b and s["attack"]["attacker"] == ["monster", kind]


def test_IND_EVT_0_a_reveal_effect_fires_once_and_the_tile_is_then_a_meadow():
    s, a, b, c, d = ready()
    edit(GAME, s, f"hide {b} spirit_cache")
    s = apply(s, 0, {"type": "move", "to": b})
    s = apply(s, 0, {"type": "move", "to": c})
    s = apply(s, 0, {"type": "move", "to": b}) if s["turn"]["moves"] else s
    assert s["seats"][0]["spirits"] == 2


def test_IND_EVT_16_IND_MTILE_2_standing_tiles_apply_to_monsters_and_monsters_ignore_the_maelstrom():
    _, s = position("""
        indagar 4 seed=indagar
        arena
        put helgoth r2c2
        reveal r2c2 arcane_mist
    """)
    b, c = "r2c2", "r2c3"
    assert combat.attack_pool(s, ("monster", "helgoth"), c) == 3 + 1
    edit(GAME, s, """
        reveal r2c2 maelstrom
        put tijian r2c2
        put helgoth none
    """)
    only_resource(s, "r2c5")
    s = monster_turn(s, "tijian")
    assert s["monsters"]["tijian"]["tile"] != b
    assert not any(p["kind"] == "maelstrom" for p in s["pending"])


def test_IND_FB_2_falling_back_into_fog_reveals_the_tile():
    s, a, z, behind = cornered("meadow")
    s = apply(s, 1, {"type": "fall_back", "to": behind})
    assert s["tiles"][behind]["type"] == "meadow" and s["heroes"]["zhuan"]["tile"] == behind


def test_IND_MTURN_8_IND_ROUND_11_IND_EVM_3_5_event_monsters_act_once_at_round_end():
    s = armour_everyone(table(2, monster_start="none"))
    for m in st.primaries(s):                                            # only the event monster acts
        edit(GAME, s, f"put {m} none")
    far = max((t for t in s["tiles"] if s["tiles"][t]["type"] is None and st.figure_at(s, t) is None),
              key=lambda t: min(st.board(s).distance(t, x["tile"]) for x in s["heroes"].values() if x["tile"]))
    edit(GAME, s, f"event kakonositel {far}")
    assert s["event_order"] == ["kakonositel"]
    s, whos = play_round(s)
    assert "event-kakonositel" in whos and whos.index("event-kakonositel") == len(whos) - 1
    assert whos.count("event-kakonositel") == 1
    assert "event-kakonositel" not in s["ring"]                           # no seat in the cycle
    assert st.board(s).distance(far, s["monsters"]["kakonositel"]["tile"]) <= 2


def test_IND_ROUND_12_16_the_winner_check_comes_before_income():
    _, s = position("""
        indagar 2 seed=indagar options={"monster_start": "skipRound1"}
        armour
        seats.0.pp = {"spirits": 10}
    """)
    s, _ = play_round(s)
    assert GAME.is_terminal(s) and s["result"]["winner"] == "seat:0"
    assert s["round"] == 1                                                # no round 2, no production


def test_IND_PP_7_IND_PP_8_points_have_no_cap_and_every_view_shows_them():
    _, s = position("""
        indagar 2 seed=indagar
        seats.0.pp = {"spirits": 14}
    """)
    assert st.pp(s, 0) == 14
    assert GAME.view(s, 1)["pp"] == {"0": 14, "1": 0}
    assert GAME.scores(s).to_dict()["seats"][0]["total"] == 14


def test_IND_LVL_8_IND_DICE_2_xp_is_visible_and_the_die_is_a_configurable_d6():
    s = table(2)
    assert GAME.view(s, 0)["heroes"]["ariane"]["xp"] == 0
    rolls = dice.roll(Drbg(b"d", "x"), 200)
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert max(dice.roll(Drbg(b"d", "x"), 200, faces=8)) == 8              # IND-AMB-1: faces are an option
    assert table(2, dice_faces=8)["options"]["dice_faces"] == 8


def test_IND_DICE_3_monster_dice_come_from_the_servers_rng():
    s = arena(4)
    a, b = line(s, "r2c1", 2)
    edit(GAME, s, f"""
        put helgoth {a}
        outpost {b} 0
    """)
    one = monster_turn(s, "helgoth", Drbg(b"seed", "v1"))
    two = monster_turn(s, "helgoth", Drbg(b"seed", "v1"))
    assert one["attack"]["adice"] == two["attack"]["adice"] and len(one["attack"]["adice"]) == 3


def test_IND_SETUP_2_each_seat_plays_its_own_starting_area_clockwise():
    s = table(4)
    lay = st.board(s)
    for p in range(4):
        assert {s["heroes"][h]["tile"] for h in s["seats"][p]["heroes"]} <= set(lay.area(p))
    assert s["ring"][0::2] == ["seat:0", "seat:1", "seat:2", "seat:3"]


def test_IND_SOLO_3_6_7_sealed_homes_stay_face_down_and_the_solo_player_is_the_last_player():
    s = table(1, monster_start="none")
    home = s["sealed"][0]
    assert s["tiles"][home]["type"] is None and home not in s["hidden"]
    assert home not in GAME.view(s, 0)["face_down"]
    assert st.last_player(s) == 0 and st.play_order(s) == [0]
    s = armour_everyone(s)
    s, whos = play_round(s)
    assert whos.count("seat:0") == 3                                        # any available hero, each P slot
    edit(GAME, s, "\n".join(f"put {m} none" for m in s["monsters"]) + f"""
        put ariane {next(n for n in neighbours(s, home))}
        turn 0 ariane
    """)
    assert {"type": "explore", "tile": home} not in GAME.legal_commands(s, 0)
    s = apply(s, 0, {"type": "move", "to": home})
    assert s["heroes"]["ariane"]["tile"] == home and s["tiles"][home]["type"] is None   # IND-AMB-5
