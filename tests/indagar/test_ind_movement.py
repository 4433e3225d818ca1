"""Movement, exploring and revealing (sections 9, 11.5-11.7, 17)."""
from __future__ import annotations

import pytest

from domain.core import Illegal
from domain.indagar import state as st
from domain.indagar.rules import GAME
from ind_support import apply, arena, cornered, hide, line, neighbours, put, turn_of
from tests.support.positions import edit


def walker(kind_ahead: str | None = None, hero: str = "ariane", moves: int | None = None,
           factions=("arkland", "sect")):
    """Ariane (or ``hero``) on a Meadow with three tiles ahead in a row; the first one face
    down as ``kind_ahead`` when given."""
    s = arena(2, factions=list(factions))
    a, b, c, d = line(s, "r4c1", 4)
    edit(GAME, s, f"put {hero} {a}")
    if kind_ahead:
        edit(GAME, s, f"hide {b} {kind_ahead}")
    turn_of(s, st.owner(s, hero), hero, moves)
    return s, a, b, c, d


def refused(s, seat, cmd):
    with pytest.raises(Illegal) as err:
        GAME.decide(s, seat, cmd, None)
    return err.value


def test_IND_MOVE_1_2_one_adjacent_tile_per_point_of_movement():
    s, a, b, c, d = walker()
    assert refused(s, 0, {"type": "move", "to": c}).rule == "IND-MOVE-1"
    s = apply(s, 0, {"type": "move", "to": b})
    s = apply(s, 0, {"type": "move", "to": c})
    s = apply(s, 0, {"type": "move", "to": d})
    assert s["heroes"]["ariane"]["tile"] == d and s["turn"]["moves"] == 0
    back = next(n for n in neighbours(s, d) if n != c and st.figure_at(s, n) is None)
    edit(GAME, s, "heroes.ariane.bonuses = []")
    err = refused(s, 0, {"type": "move", "to": back})
    assert err.code in ("no_moves", "nothing_to_charge")


def test_IND_MOVE_3_IND_TILE_3_4_figures_enemy_outposts_and_mountains_block():
    s, a, b, c, d = walker()
    edit(GAME, s, f"put bertram {b}")  # a friendly hero
    assert refused(s, 0, {"type": "move", "to": b}).rule == "IND-MOVE-3"
    edit(GAME, s, f"""
        put bertram none
        put helgoth {b}
    """)
    assert refused(s, 0, {"type": "move", "to": b}).code == "tile_not_free"
    edit(GAME, s, f"""
        monsters.helgoth.tile = null
        outpost {b} 1
    """)
    assert refused(s, 0, {"type": "move", "to": b}).code == "tile_not_free"
    del s["outposts"][b]
    edit(GAME, s, f"reveal {b} mountains")
    assert refused(s, 0, {"type": "move", "to": b}).code == "tile_not_free"      # IND-TT-6
    assert not st.free_for_seat(s, b, 0) and st.occupied(s, a)


def test_IND_MOVE_4_a_friendly_outpost_is_passable_once_empty():
    s, a, b, c, d = walker()
    edit(GAME, s, f"outpost {b} 0")
    assert st.free_for_seat(s, b, 0) and st.occupied(s, b)
    s = apply(s, 0, {"type": "move", "to": b})
    s = apply(s, 0, {"type": "move", "to": c})
    assert s["heroes"]["ariane"]["tile"] == c
    edit(GAME, s, f"put bertram {b}")
    assert not st.free_for_seat(s, b, 0)                                 # one hero per outpost tile


def test_IND_MOVE_5_IND_FOG_2_entering_a_face_down_tile_reveals_it():
    s, a, b, c, d = walker("meadow")
    s = apply(s, 0, {"type": "move", "to": b})
    assert s["tiles"][b]["type"] == "meadow" and s["heroes"]["ariane"]["tile"] == b
    assert b not in s["hidden"]


def test_IND_FOG_4_a_revealed_mountain_is_not_entered_and_the_move_is_spent():
    s, a, b, c, d = walker("mountains")
    s = apply(s, 0, {"type": "move", "to": b})
    assert s["tiles"][b]["type"] == "mountains"
    assert s["heroes"]["ariane"]["tile"] == a and s["turn"]["moves"] == 2


def test_IND_TT_5_IND_MOVE_6_mud_stops_and_IND_SPR_2_speed_ignores_it():
    s, a, b, c, d = walker("mud")
    s = apply(s, 0, {"type": "move", "to": b})
    assert s["turn"]["stopped"]
    # only a Charge! move could leave the Mud now (IND-AMB-31), and nothing is there to charge
    assert refused(s, 0, {"type": "move", "to": c}).code == "nothing_to_charge"
    edit(GAME, s, f"hide {c} meadow")
    assert refused(s, 0, {"type": "explore", "tile": c}).code == "no_moves"
    s, a, b, c, d = walker("mud", hero="thorn", factions=("forest", "sect"))                          # Thorn Greyleaf has Speed
    s = apply(s, 0, {"type": "move", "to": b})
    s = apply(s, 0, {"type": "move", "to": c})
    assert s["heroes"]["thorn"]["tile"] == c


def test_IND_EVT_1_IND_AMB_35_poison_swamp_deals_2_on_entry_and_stops():
    s, a, b, c, d = walker("poison_swamp")
    s = apply(s, 0, {"type": "move", "to": b})
    assert s["heroes"]["ariane"]["damage"] == 2 and s["turn"]["stopped"]


def test_IND_SPR_1_IND_AMB_31_charge_extra_move_then_attack():
    s, a, b, c, d = walker(moves=1)
    edit(GAME, s, f"put zhuan {d}")
    s = apply(s, 0, {"type": "move", "to": b})
    s = apply(s, 0, {"type": "move", "to": c})                          # the Charge! move: a target is next to c
    assert s["turn"]["charged"] and s["turn"]["must_attack"]
    assert [c_["type"] for c_ in GAME.legal_commands(s, 0) if c_["type"] not in ("spirit", "exchange")] == ["attack"]
    assert refused(s, 0, {"type": "end_turn"}).rule == "IND-SPR-1"
    s2, a, b, c, d = walker(moves=0, hero="elowen")                     # no Charge!: no extra move
    assert refused(s2, 0, {"type": "move", "to": b}).rule == "IND-MOVE-2"


def test_IND_EXPL_2_IND_EXPL_3_exploring_spends_a_move_and_reveals_effects():
    s, a, b, c, d = walker("weapons_cache")
    s = apply(s, 0, {"type": "explore", "tile": b})
    assert s["turn"]["moves"] == 2 and s["pending"][0]["kind"] == "explore"
    s = apply(s, 0, {"type": "reveal", "show": True})
    assert s["pending"][0] == {"kind": "cache", "seat": 0, "options": ["ariane", "bertram", "elowen"], "side": "sword"}
    s = apply(s, 0, {"type": "choose_hero", "hero": "ariane"})
    assert s["heroes"]["ariane"]["caches"] == ["sword"]                  # IND-EVT-4
    assert s["heroes"]["ariane"]["tile"] == a


def test_IND_EVT_5_8_9_6_reveal_effects_for_the_revealing_player():
    s, a, b, c, d = walker("abandoned_outposts")
    s = apply(s, 0, {"type": "move", "to": b})
    assert s["outposts"][b]["owner"] == 0 and s["heroes"]["ariane"]["tile"] == b   # IND-AMB-24
    s, a, b, c, d = walker("spirit_cache")
    s = apply(s, 0, {"type": "move", "to": b})
    assert s["seats"][0]["spirits"] == 2
    s, a, b, c, d = walker("local_traitors")
    s = apply(s, 0, {"type": "move", "to": b})
    assert s["seats"][0]["traitors"]
    s, a, b, c, d = walker("armour_cache")
    s = apply(s, 0, {"type": "move", "to": b})
    s = apply(s, 0, {"type": "choose_hero", "hero": "elowen"})         # any of the player's heroes (IND-AMB-25)
    assert s["heroes"]["elowen"]["caches"] == ["shield"] and s["heroes"]["ariane"]["caches"] == []


def test_IND_EVT_3_11_12_standing_tiles():
    s, a, b, c, d = walker()
    from domain.indagar import combat
    edit(GAME, s, f"reveal {a} arcane_mist")
    assert combat.hero_attack(s, "ariane") == 4
    edit(GAME, s, f"reveal {a} mountain_fortress")
    assert combat.hero_defence(s, "ariane") == 2 + 1 + 1                # commander + fortress
    edit(GAME, s, f"""
        reveal {b} mystic_clearing
        heroes.ariane.damage = 3
    """)
    s = apply(s, 0, {"type": "move", "to": b})
    assert s["heroes"]["ariane"]["damage"] == 1
    s = apply(s, 0, {"type": "move", "to": c})
    s = apply(s, 0, {"type": "move", "to": b})
    assert s["heroes"]["ariane"]["damage"] == 1                          # once per activation


def test_IND_EVT_15_IND_EVM_2_an_event_monster_appears_and_attacks_the_revealer():
    s, a, b, c, d = walker("kakonositel")
    s = apply(s, 0, {"type": "move", "to": b})
    assert s["monsters"]["kakonositel"]["tile"] == b and s["heroes"]["ariane"]["tile"] == a
    assert s["attack"]["attacker"] == ["monster", "kakonositel"] and s["attack"]["reveal"]
    assert s["pending"][0] == {"kind": "window", "side": "defence", "seat": 0}


def test_IND_FOG_5_IND_FB_3_falling_back_onto_a_revealed_mountain_is_a_retreat():
    s, a, z, behind = cornered("mountains")
    assert s["heroes"]["zhuan"]["damage"] == 2
    assert s["pending"][0]["options"] == [behind]                        # face-down tiles count (IND-AMB-13)
    s = apply(s, 1, {"type": "fall_back", "to": behind})
    assert s["tiles"][behind]["type"] == "mountains" and s["heroes"]["zhuan"]["tile"] is None
    assert s["seats"][0]["pp"] == {}                                     # not caused by the attack: no PP
    s = apply(s, 0, {"type": "charge_through", "go": False})
    assert s["heroes"]["ariane"]["xp"] == 1                              # still a success: +1, not +3


def test_IND_OIM_1_IND_AMB_7_a_sealed_starting_area_gets_its_last_mountain_swapped():
    s = arena(4)
    lay = st.board(s)
    area = set(lay.area(0))
    ring = sorted({n for t in area for n in lay.neighbours[t]} - area)
    edit(GAME, s, "\n".join(f"reveal {t} mountains\nmountains += {t}" for t in ring[:-1]))
    last = ring[-1]
    edit(GAME, s, f"hide {last} mountains")
    far = next(t for t in s["tiles"] if t not in ring and t not in area and s["tiles"][t]["type"] == "meadow"
               and t not in lay.homes.values() and st.figure_at(s, t) is None and lay.distance(t, last) > 3)
    edit(GAME, s, f"hide {far} meadow")
    hero = s["seats"][0]["heroes"][0]
    near = next(t for t in area if last in lay.neighbours[t])
    edit(GAME, s, f"""
        put {hero} {near}
        turn 0 {hero}
    """)
    s = apply(s, 0, {"type": "move", "to": last})
    assert s["tiles"][last]["type"] is None                              # the tile moved in stays face down
    assert s["tiles"][far]["type"] == "mountains"                        # the Mountain lies face up elsewhere


def test_IND_EVT_14_IND_AMB_30_leaving_a_maelstrom_the_last_player_picks_the_tile():
    s, a, b, c, d = walker()
    edit(GAME, s, f"""
        reveal {a} maelstrom
        initiative = 0 # seat 1 is the last player
    """)
    s = apply(s, 0, {"type": "move", "to": b})
    p = s["pending"][0]
    assert p["kind"] == "maelstrom" and p["seat"] == 1 and b in p["options"]
    assert s["heroes"]["ariane"]["tile"] == a
    other = next(o for o in p["options"] if o != b)
    s = apply(s, 1, {"type": "choose_tile", "tile": other})
    assert s["heroes"]["ariane"]["tile"] == other and s["turn"]["moves"] == 2


def test_IND_EVT_2_IND_AMB_29_portal_swap_once_then_no_more_moving():
    s, a, b, c, d = walker()
    edit(GAME, s, f"""
        reveal {a} ancient_portal
        put zhuan {d}
        put sunjun {c}
        outpost {c} 1  # an enemy hero on an outpost
    """)
    assert {"type": "swap", "figure": "zhuan"} in GAME.legal_commands(s, 0)
    assert {"type": "swap", "figure": "sunjun"} not in GAME.legal_commands(s, 0)
    s = apply(s, 0, {"type": "swap", "figure": "zhuan"})
    assert s["heroes"]["ariane"]["tile"] == d and s["heroes"]["zhuan"]["tile"] == a
    assert refused(s, 0, {"type": "move", "to": next(n for n in neighbours(s, d) if n != c)}).rule == "IND-EVT-2"
    assert not any(c_["type"] == "swap" for c_ in GAME.legal_commands(s, 0))


def test_IND_OIM_1_fix_b_restart_ends_the_game_without_a_result():
    s = arena(4, one_in_a_million="restart")
    lay = st.board(s)
    area = set(lay.area(0))
    ring = sorted({n for t in area for n in lay.neighbours[t]} - area)
    for t in ring[:-1]:
        edit(GAME, s, f"reveal {t} mountains")
    hide(s, ring[-1], "mountains")
    hero = s["seats"][0]["heroes"][0]
    put(s, hero, next(t for t in area if ring[-1] in lay.neighbours[t]))
    edit(GAME, s, f"turn 0 {hero}")
    s = apply(s, 0, {"type": "move", "to": ring[-1]})
    assert GAME.is_terminal(s) and GAME.scores(s).result().kind == "aborted"
