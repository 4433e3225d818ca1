"""Monsters (sections 21-27): targets, movement, actions, retreat, levels, event monsters."""
from __future__ import annotations

from domain.indagar import monsters as mon
from domain.indagar import state as st
from domain.indagar.rules import GAME
from ind_support import (ScriptedDice, apply, arena, only_resource, line, monster_turn, neighbours, put)
from tests.support.positions import edit, position

LONE = """
    indagar 4 seed=indagar
    arena                          # the 4-player board, every tile a Meadow, no figure on it
"""


def lone(**options):
    """The 4-player board, every tile a Meadow, no figure on it, all four primary monsters."""
    return arena(4, **options)


def test_IND_MON_6_helgoth_targets_the_closest_outpost_of_the_player_with_most_outposts():
    s = lone()
    a, b, c, d, e = line(s, "r2c1", 5)
    edit(GAME, s, f"""
        put helgoth {a}
        outpost {b} 0  # seat 0 has 1 outpost, very close
        reveal {d} gold
        reveal {e} wood
        outpost {d} 1
        outpost {e} 1  # seat 1 has 2: Helgoth goes for seat 1's closest
    """)
    targets, tile_target, action, through = mon.choose_target(s, "helgoth")
    assert targets == [d] and not tile_target and action == "attack"


def helgoth_two_from_an_outpost():
    """Helgoth two tiles from seat 0's level-1 outpost on gold, a Meadow between: (state, that
    Meadow, the outpost's tile)."""
    s = lone()
    a, b, c = line(s, "r2c1", 3)
    edit(GAME, s, f"""
        put helgoth {a}
        reveal {c} gold
        outpost {c} 0 1
    """)
    return s, b, c


def tijian_between_two_resources():
    """Tijian between gold and wood, one step each, and no other resource tile: a tie of targets,
    the last player's pick (IND-MTGT-4). (state, the gold tile, the wood tile)."""
    s = lone()
    a, b, c = line(s, "r2c1", 3)
    edit(GAME, s, f"put tijian {b}")
    for t in s["tiles"]:
        if s["tiles"][t]["type"] in ("gold", "wood", "ore"):
            edit(GAME, s, f"reveal {t} meadow")
    edit(GAME, s, f"""
        reveal {a} gold
        reveal {c} wood
    """)
    return s, a, c


def tijian_and_one_ore():
    """Tijian on a row whose third tile is the only resource tile within his reach: (state, that tile)."""
    s = lone()
    a, b, c = line(s, "r2c1", 3)
    edit(GAME, s, f"""
        put tijian {a}
        reveal {c} ore
    """)
    for t in s["tiles"]:
        if t != c and s["tiles"][t]["type"] in ("gold", "wood", "ore") and st.board(s).distance(a, t) <= 2:
            edit(GAME, s, f"reveal {t} meadow")
    return s, c


def test_IND_MON_6_IND_TERM_2_tijian_destroys_the_closest_unoccupied_resource_tile():
    s, c = tijian_and_one_ore()
    s = monster_turn(s, "tijian")
    assert s["monsters"]["tijian"]["tile"] == c and s["tiles"][c]["destroyed"]
    assert s["monsters"]["tijian"]["counts"] == {"tiles_destroyed": 1}


def test_IND_MON_6_IND_OPP_3_oryana_takes_the_source_and_never_opportunity_attacks():
    s = lone()
    src = st.board(s).source
    near = next(n for n in neighbours(s, src))
    far = next(n for n in neighbours(s, src) if n != near)
    edit(GAME, s, f"""
        put oryana {near}
        source = 2
        put zhuan {far}
        heroes.zhuan.bonuses = []
    """)
    s = monster_turn(s, "oryana")
    assert s["monsters"]["oryana"]["tile"] == src and s["source"] == 0
    assert s["monsters"]["oryana"]["counts"] == {"spirits_held": 2}
    assert s["attack"] is None


def test_IND_MON_6_IND_MTGT_3_spirit_walker_hunts_the_last_ability_user_juicy_heroes():
    _, s = position(LONE + """
        put spirit-walker r2c1
        put ariane r2c3
        put zhuan r2c2
    """)
    assert mon.choose_target(s, "spirit-walker")[0] == []                # no ability used yet (IND-AMB-49)
    edit(GAME, s, "last_ability_seat = 0")
    assert mon.choose_target(s, "spirit-walker")[0] == ["r2c3"]
    edit(GAME, s, "armour ariane")                                       # defence 6 > attack 3: not juicy
    assert mon.choose_target(s, "spirit-walker")[0] == []


def test_IND_JUICY_1_2_3_IND_AMB_40_defence_against_attack_outposts_included():
    """IND-JUICY-5 is settled by IND-AMB-40: the dice the target would roll now."""
    _, s = position(LONE + """
        put helgoth r2c1               # attack 3 at level 1
        put zhuan r2c2                 # defence 2 (commander)
    """)
    assert mon.juicy(s, "helgoth", "r2c2")
    edit(GAME, s, "outpost r2c2 1 2")                                    # +2 outpost defence = 4
    assert not mon.juicy(s, "helgoth", "r2c2")
    edit(GAME, s, "put zhuan none")
    assert mon.juicy(s, "helgoth", "r2c2")                               # the outpost alone: 2


def test_IND_MTURN_7_IND_MATK_1_2_IND_OUT_19_helgoth_burns_an_outpost_and_charges_in():
    """IND-MMOV-7 and IND-MACT-1: it moves, then takes its one action."""
    s, b, c = helgoth_two_from_an_outpost()
    s = monster_turn(s, "helgoth", ScriptedDice(6, 6, 6, 1))
    assert s["pending"][0] == {"kind": "window", "side": "defence", "seat": 0}   # the owner may add spirits
    s = apply(s, 0, {"type": "pass"})
    assert c not in s["outposts"] and s["seats"][0]["res"]["gold"] == 3  # no reward (IND-MATK-2)
    assert s["monsters"]["helgoth"]["tile"] == c                         # IND-MATK-3, IND-FB-5, IND-AMB-15
    assert s["monsters"]["helgoth"]["counts"] == {"outposts_destroyed": 1}
    assert (s["turn"] or {}).get("who") != "monster-helgoth"             # its turn is over


def turn_label(s: dict, name: str, rng=None) -> str:
    """The move list's label of ``name``'s turn, as a spectator reads it."""
    from domain.core import Drbg
    from domain.indagar import positions as verbs
    from domain.kit import copy_state
    s = copy_state(s)
    verbs.turn(s, name)
    who = s["turn"]["who"]
    return GAME.actor_label(s, who, GAME.decide_actor(s, who, rng or Drbg(b"m", "turn")), public=True)


def test_IND_MTURN_7_a_monster_turn_is_labelled_by_its_move_and_its_one_action():
    """The move list read "monster-helgoth plays": the label says where the monster went and what
    it did (IND-MMOV-7, IND-MACT-1), or that the last player picks its target (IND-MTGT-4)."""
    s, b, c = helgoth_two_from_an_outpost()
    assert turn_label(s, "helgoth", ScriptedDice(6, 6, 6, 1)) == f"Move to {b} (Meadow), then attack the outpost at {c}"
    s, c = tijian_and_one_ore()
    assert turn_label(s, "tijian") == f"Move to {c} (Ore), then destroy {c} (Ore)"
    s = lone()
    src = st.board(s).source
    edit(GAME, s, f"""
        put oryana {src}
        source = 2
    """)
    assert turn_label(s, "oryana") == "Gather 2 spirits from the Source"


def test_IND_MATK_4_5_a_hero_defends_against_a_monster_with_its_window():
    _, s = position(LONE + """
        put helgoth r2c1
        put ariane r2c2
        heroes.ariane.bonuses = []
        seats.0.commander = bertram    # Ariane: defence 2, juicy
        last_ability_seat = null
    """)
    s = monster_turn(s, "helgoth", ScriptedDice(1, 1, 1, 6, 6))
    assert s["attack"]["attacker"] == ["monster", "helgoth"]
    assert s["pending"][0] == {"kind": "window", "side": "defence", "seat": 0}
    edit(GAME, s, "seats.0.spirits = 1")
    assert {"type": "spirit", "use": "dice"} in GAME.legal_commands(s, 0)
    s = apply(s, 0, {"type": "pass"})
    assert s["heroes"]["ariane"]["xp"] == 1                              # a successful defence
    assert s["turn"]["who"] != "monster-helgoth"


def test_IND_MMOV_1_2_3_moves_its_movement_along_the_shortest_route_never_through_figures():
    s = lone()
    row = line(s, "r2c1", 6)
    put(s, "tijian", row[0])
    only_resource(s, row[5])
    s = monster_turn(s, "tijian")
    assert st.board(s).distance(s["monsters"]["tijian"]["tile"], row[5]) == 2   # 3 moves of 5


def test_IND_MTILE_1_3_mud_and_poison_swamp_stop_a_monster_without_hurting_it():
    """IND-MON-4: by default monsters follow the heroes' rules (here: Mud)."""
    s = lone()
    row = line(s, "r2c1", 6)
    put(s, "tijian", row[0])
    only_resource(s, row[5])
    for t in neighbours(s, row[0]):
        edit(GAME, s, f"reveal {t} poison_swamp")
    s = monster_turn(s, "tijian")
    assert s["monsters"]["tijian"]["tile"] in neighbours(s, row[0]) and s["monsters"]["tijian"]["damage"] == 0


def test_IND_MMOV_4_IND_AMB_37_ties_turn_left():
    s = lone()
    lay = st.board(s)
    here = "r4c3"
    target = next(t for t in sorted(lay.cells) if lay.distance(here, t) == 2
                  and len([n for n in lay.neighbours[here] if lay.distance(n, t) == 1]) == 2)
    options = [n for n in lay.neighbours[here] if lay.distance(n, target) == 1]
    chosen = mon.step_left(s, here, options, target)
    aim = lay.bearing(here, target)
    rel = {n: (lay.bearing(here, n) - aim + 180) % 360 - 180 for n in options}
    assert rel[chosen] < 0 and rel[chosen] == min(rel.values())          # counter-clockwise = left


def test_IND_MTGT_5_IND_MMOV_5_IND_JUICY_4_a_blocked_monster_breaks_through():
    s = lone()
    src = st.board(s).source
    ring = list(neighbours(s, src))
    heroes = ["ariane", "bertram", "elowen", "zhuan", "sunjun", "magus"]
    start = next(t for t in s["tiles"] if st.board(s).distance(t, src) == 2)
    edit(GAME, s, "\n".join(f"put {h} {t}" for h, t in zip(heroes, ring)) + f"""
        armour {" ".join(heroes)}      # nobody is juicy
        put oryana {start}
    """)
    targets, tile_target, action, through = mon.choose_target(s, "oryana")
    assert targets == [src] and through
    s = monster_turn(s, "oryana", ScriptedDice(*[1] * 20))
    assert s["attack"] is not None and s["attack"]["breakthrough"]


def test_IND_MTGT_6_IND_AMB_39_a_monster_walled_in_by_mountains_idles():
    s = lone()
    here = "r4c1"
    edit(GAME, s, f"put tijian {here}")
    for n in neighbours(s, here):
        edit(GAME, s, f"reveal {n} mountains")
    s2 = monster_turn(s, "tijian")
    assert s2["monsters"]["tijian"]["tile"] == here


def test_IND_OPP_1_an_opportunity_attack_when_the_target_is_out_of_reach():
    s = lone()
    row = line(s, "r2c1", 6)
    adj = next(n for n in neighbours(s, row[3]) if n not in row)
    edit(GAME, s, f"""
        put helgoth r2c1
        reveal r2c6 gold
        outpost r2c6 1
        put ariane {adj}
        heroes.ariane.bonuses = []
        seats.0.commander = bertram
    """)
    s = monster_turn(s, "helgoth", ScriptedDice(*[1] * 10))
    if s["monsters"]["helgoth"]["tile"] in neighbours(s, adj):
        assert s["attack"] and s["attack"]["tile"] == adj


def test_IND_MRET_1_the_last_player_picks_a_monster_fall_back_tile():
    s = lone()
    a, m = line(s, "r2c1", 2)
    edit(GAME, s, f"""
        put ariane {a}
        put helgoth {m}
        turn 0 ariane
    """)
    s = apply(s, 0, {"type": "attack", "tile": m}, ScriptedDice(3, 2, 1))
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(1, 1))                # 6 - 2 = 4 < 6 endurance
    assert s["pending"][0]["kind"] == "fall_back" and s["pending"][0]["seat"] == st.last_player(s)
    s = apply(s, st.last_player(s), {"type": "fall_back", "to": s["pending"][0]["options"][0]})
    assert s["monsters"]["helgoth"]["tile"] != m
    s = apply(s, 0, {"type": "charge_through", "go": False})
    assert s["heroes"]["ariane"]["xp"] == 1


def test_IND_MDEF_2_IND_AMB_10_monsters_retreat_above_endurance_and_IND_MDEF_3_xp():
    """IND-MDEF-1: a monster defends like a hero, its dice from the RNG; IND-MRET-5 and
    IND-AMB-8: its damage is cleared when it retreats."""
    _, s = position(LONE + """
        put ariane r2c1
        put helgoth r2c2
        monsters.helgoth.damage = 2
        turn 0 ariane
    """)
    m = "r2c2"
    s1 = apply(s, 0, {"type": "attack", "tile": m}, ScriptedDice(3, 3, 2))
    s1 = apply(s1, 0, {"type": "pass"}, ScriptedDice(2, 2))               # 4 more: 6 = endurance, stays
    assert s1["monsters"]["helgoth"]["tile"] is not None and s1["monsters"]["helgoth"]["damage"] == 6
    u = apply(s, 0, {"type": "attack", "tile": m}, ScriptedDice(3, 3, 2))
    edit(GAME, u, "options.uniform_endurance_threshold = true")
    u = apply(u, 0, {"type": "pass"}, ScriptedDice(2, 2))
    assert u["monsters"]["helgoth"]["tile"] is None and u["monsters"]["helgoth"]["retreat"] == "grey"
    assert u["heroes"]["ariane"]["xp"] == 0 and u["heroes"]["ariane"]["bonuses"] == ["?"]   # 3 XP = level I
    assert [p["kind"] for p in u["pending"]] == ["level_bonus", "charge_through"]  # XP first (indagar-7)


def test_IND_MRET_2_3_IND_ROUND_6_retreat_a_full_round_then_home_or_the_closest_free_tile():
    from domain.indagar import turns
    from domain.kit import Batch
    _, s = position(LONE + """
        put helgoth none
        monsters.helgoth.retreat = grey
    """)
    home = st.board(s).homes[s["monsters"]["helgoth"]["home"]]
    b = Batch(s, GAME.evolve)
    turns.begin_round(b.state, b.add)
    assert b.state["monsters"]["helgoth"]["retreat"] == "colour" and b.state["monsters"]["helgoth"]["tile"] is None
    put(b.state, "ariane", home)
    b2 = Batch(b.state, GAME.evolve)
    turns.begin_round(b2.state, b2.add)
    landed = b2.state["monsters"]["helgoth"]["tile"]
    assert landed != home and landed in neighbours(s, home)              # IND-AMB-43: closest free


def test_IND_MRET_4_IND_EVM_6_event_monsters_never_return():
    from domain.indagar import turns
    from domain.kit import Batch
    _, s = position(LONE + """
        put ariane r2c1
        event kakonositel r2c2 6
        turn 0 ariane
    """)
    m = "r2c2"
    s = apply(s, 0, {"type": "attack", "tile": m}, ScriptedDice(6, 6, 6))
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(1, 1))
    assert s["monsters"]["kakonositel"]["retreat"] == "gone"
    edit(GAME, s, """
        attack = null
        pending = []
    """)
    b = Batch(s, GAME.evolve)
    turns.begin_round(b.state, b.add)
    turns.begin_round(b.state, b.add)
    assert b.state["monsters"]["kakonositel"]["tile"] is None


def test_IND_MLVL_1_2_4_IND_TRACK_1_monster_level_follows_the_demon_heads():
    _, s = position(LONE + "round = 6")
    assert st.monster_level(s) == 2
    assert st.monster_stats(s, "helgoth") == {"attack": 4, "defence": 3, "movement": 2, "endurance": 7}
    edit(GAME, s, "round = 1")
    assert st.monster_level(s) == 1
    assert st.monster_stats(s, "helgoth")["attack"] == 3


def test_IND_EVM_1_3_4_event_monsters_target_the_closest_and_groxiah_skips_empty_outposts():
    _, s = position(LONE + """
        event groxiah r2c1
        outpost r2c2 0
    """)
    b = "r2c2"
    assert st.monster_stats(s, "groxiah") == {"attack": 5, "defence": 4, "movement": 2, "endurance": 8}
    cands, _, _ = mon.candidates(s, "groxiah")
    assert b not in cands                                                # IND-EVM-4
    edit(GAME, s, f"put ariane {b}")
    cands, _, _ = mon.candidates(s, "groxiah")
    assert b in cands


def test_IND_MTURN_5_a_retreated_monster_takes_no_turn():
    from domain.indagar.turns import monster_may_act
    _, s = position("""
        indagar 4 seed=indagar options={"monster_start": "none"}
        arena
        put helgoth none
    """)
    assert not monster_may_act(s, "helgoth")
    edit(GAME, s, """
        put helgoth r4c1
        monsters.helgoth.turns = 3
    """)
    assert not monster_may_act(s, "helgoth")                             # IND-MTURN-4


def test_IND_MTGT_1_2_4_tied_targets_are_the_last_players_pick():
    s, a, c = tijian_between_two_resources()
    targets, tile_target, action, _ = mon.choose_target(s, "tijian")
    assert targets == sorted([a, c]) and tile_target and action == "destroy"
    s = monster_turn(s, "tijian")
    p = s["pending"][0]
    assert p["kind"] == "monster_target" and p["seat"] == st.last_player(s) and p["options"] == sorted([a, c])
    s = apply(s, p["seat"], {"type": "choose_tile", "tile": c})
    assert s["monsters"]["tijian"]["tile"] == c and s["tiles"][c]["destroyed"]


def test_IND_OPP_2_several_opportunity_targets_are_the_last_players_pick():
    _, s = position(LONE + """
        put helgoth r2c2
        put ariane r2c1
        put bertram r2c3
        heroes.ariane.bonuses = []
        heroes.bertram.bonuses = []
        seats.0.commander = elowen
    """)
    a, b = "r2c1", "r2c3"
    s = monster_turn(s, "helgoth")                                       # no outposts: no target (IND-AMB-49)
    p = s["pending"][0]
    assert p["kind"] == "monster_opportunity" and p["options"] == sorted([a, b])
    s = apply(s, p["seat"], {"type": "choose_tile", "tile": b}, ScriptedDice(1, 1, 1, 1, 1, 1))
    assert s["attack"]["tile"] == b


def pick_label(s: dict, seat: int, command: dict, rng=None) -> str:
    """The move list's label of the last player's pick for a monster, as a spectator reads it: the
    pick, then what the monster's turn did in the same batch (application/moves.py)."""
    from domain.core import Drbg
    from application.moves import label_of
    events = GAME.decide(s, seat, command, rng or Drbg(b"t", "cmd"))
    return label_of(GAME, s, seat, command, public=True, events=[{"type": e["type"], "data": e["data"]} for e in events])


def test_IND_MTGT_4_IND_OPP_2_the_last_players_pick_is_labelled_with_what_the_monster_then_did():
    """The move list showed "Choose r0c3 (Ore)" and nowhere the monster's move and attack that the
    pick set going: the label goes on with them, "...; Tijian the Scoundrel moves to ..., then ...".
    Labels only: the pick's events are the rules' as before."""
    s, a, c = tijian_between_two_resources()
    s = monster_turn(s, "tijian")
    p = s["pending"][0]
    assert pick_label(s, p["seat"], {"type": "choose_tile", "tile": c}) == \
        f"Choose {c} (Wood); Tijian the Scoundrel moves to {c} (Wood), then destroys {c} (Wood)"
    # Several figures to attack: the pick names the one attacked (IND-OPP-2).
    _, s = position(LONE + """
        put helgoth r2c2
        put ariane r2c1
        put bertram r2c3
        heroes.ariane.bonuses = []
        heroes.bertram.bonuses = []
        seats.0.commander = elowen
    """)
    s = monster_turn(s, "helgoth")
    p = s["pending"][0]
    assert pick_label(s, p["seat"], {"type": "choose_tile", "tile": "r2c3"}, ScriptedDice(1, 1, 1, 1, 1, 1)) == \
        "Choose Sir Bertram Vael at r2c3; Helgoth the Marauder attacks Sir Bertram Vael at r2c3"


def test_a_command_that_sets_no_monster_going_keeps_its_label_alone():
    """Any other command, and a record of a rules version without the hook, label as before."""
    from domain.core import Drbg
    from application.moves import label_of
    s, b, c = helgoth_two_from_an_outpost()
    s = monster_turn(s, "helgoth", ScriptedDice(6, 6, 6, 1))
    events = GAME.decide(s, 0, {"type": "pass"}, Drbg(b"t", "cmd"))
    assert label_of(GAME, s, 0, {"type": "pass"}, events=events) == "Pass: close the window"

    class Frozen:  # a rules version written before the hook: its label alone
        def label(self, state, seat, command, public=False):
            return "Pass"
    assert label_of(Frozen(), s, 0, {"type": "pass"}, events=events) == "Pass"
