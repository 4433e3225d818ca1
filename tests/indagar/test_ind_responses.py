"""Response windows: spirits and always-available abilities outside one's own turn
(IND-SPI-4, IND-AMB-18, IND-ABL-12, IND-AMB-41; domain/indagar/responses.py)."""
from __future__ import annotations

import pytest

from domain import registry
from domain.core import Drbg, Illegal
from domain.indagar import state as st
from domain.indagar.bots import greedy
from domain.indagar.rules import GAME
from domain.kit import copy_state
from domain.kit.driver import play, table as bot_table

from ind_support import ScriptedDice, apply
from tests.support.positions import edit, position


def refused(s, seat, cmd):
    with pytest.raises(Illegal) as err:
        GAME.decide(s, seat, cmd, Drbg(b"t", "cmd"))
    return err.value


LAST_TURN = GAME.positions["last-turn-of-round"]  # seat 0's Ariane is the last hero of the round to act


def test_IND_SPI_4_IND_AMB_18_IND_PP_3_a_spirit_window_before_the_winner_check():
    """Round end: after E1 and before E2 (IND-ROUND-12) every seat holding a spirit, in play
    order, may buy PP; PP bought there win the round's check."""
    _, s = position(LAST_TURN + """
        seats.1.spirits = 2
        seats.1.pp = {"commanders": 9}     # one PP short of the threshold
        seats.0.spirits = 1
    """)
    s = apply(s, 0, {"type": "end_turn"})
    assert s["phase"] == "round_end" and s["turn"] is None
    assert [(p["kind"], p["seat"], p["moment"]) for p in s["pending"]] == \
        [("respond", 0, "round_end"), ("respond", 1, "round_end")]
    assert GAME.active_seats(s) == {0}
    s = apply(s, 0, {"type": "pass"})
    legal = GAME.legal_commands(s, 1)
    assert {"type": "spirit", "use": "pp"} in legal and {"type": "pass"} in legal
    assert not any(c["type"] == "use_ability" for c in legal)               # IND-AMB-41: passives only
    assert {"type": "spirit", "use": "dice"} not in legal                   # use 2 only in an attack
    s = apply(s, 1, {"type": "spirit", "use": "pp"})
    assert s["pending"][0]["seat"] == 1 and st.pp(s, 1) == 10               # the window stays open
    s = apply(s, 1, {"type": "pass"})
    assert s["phase"] == "over" and s["result"] == {"winner": "seat:1", "reason": "primacy"}


def test_IND_AMB_18_passing_the_round_end_window_lets_the_round_go_on():
    _, s = position(LAST_TURN + """
        seats.1.spirits = 2
        seats.1.pp = {"commanders": 9}
    """)
    s = apply(s, 0, {"type": "end_turn"})
    assert refused(s, 0, {"type": "pass"}).code == "not_your_turn"          # only seat 1 holds a spirit
    s = apply(s, 1, {"type": "pass"})
    assert s["round"] == 2 and s["phase"] == "play" and s["seats"][1]["spirits"] == 2
    assert s["pending"][0]["kind"] == "redeploy"                            # the next round's P4, then P1


def test_IND_AMB_18_no_window_for_seats_without_spirits():
    _, s = position(LAST_TURN)
    s = apply(s, 0, {"type": "end_turn"})
    while s["pending"][0]["kind"] == "redeploy":                            # P4 (IND-AMB-26), then P1
        p = s["pending"][0]
        s = apply(s, p["seat"], GAME.legal_commands(s, p["seat"])[0])
    assert s["round"] == 2 and all(p["kind"] == "declare" for p in s["pending"])


STORM = GAME.positions["wild-storm"]  # Thorn (seat 0, Forest) about to call a Wild Storm (2); Sun Jun on a Meadow


def test_IND_AMB_18_IND_SPI_3_a_spirit_ignores_damage_outside_an_attack_in_another_players_turn():
    """Use 3 "ignore" applies to damage about to be taken inside or outside attacks; the
    owner is asked before the storm's damage lands on its hero."""
    _, s = position(STORM + "seats.1.spirits = 1")
    s = apply(s, 0, {"type": "use_ability", "ability": "wild-storm"})
    assert s["heroes"]["thorn"]["damage"] == 2                              # no answer possible: at once
    window = s["pending"][0]
    assert (window["kind"], window["seat"], window["moment"], window["hero"], window["damage"]) == \
        ("respond", 1, "damage", "sunjun", 2)
    assert GAME.active_seats(s) == {1} and GAME.legal_commands(s, 0) == []
    assert {"type": "spirit", "use": "ignore"} in GAME.legal_commands(s, 1)
    s = apply(s, 1, {"type": "spirit", "use": "ignore"})
    assert s["pending"][0]["damage"] == 0 and s["seats"][1]["spirits"] == 0
    s = apply(s, 1, {"type": "pass"})
    assert s["heroes"]["sunjun"]["damage"] == 3 and not s["pending"]
    assert GAME.active_seats(s) == {0}                                      # back to the storm's caller


def test_IND_AMB_18_passing_a_damage_window_takes_the_damage_and_can_retreat():
    _, s = position(STORM + """
        seats.1.spirits = 1
        heroes.sunjun.damage = 4       # endurance 5
    """)
    s = apply(s, 0, {"type": "use_ability", "ability": "wild-storm"})
    s = apply(s, 1, {"type": "spirit", "use": "heal", "hero": "sunjun"})   # "remove", at any time
    assert s["heroes"]["sunjun"]["damage"] == 1 and s["pending"][0]["moment"] == "damage"
    s = apply(s, 1, {"type": "pass"})
    assert s["heroes"]["sunjun"]["damage"] == 3


def test_IND_ABL_12_an_always_available_ability_answers_damage_in_another_players_turn():
    """Soul Shield (Sect's Possession tree, always available, ignore 2) used in Forest's turn,
    once per turn (IND-ABL-6); a non-always ability of the tree is not offered."""
    _, s = position(STORM + """
        seats.1.tree = possession
        seats.1.unlocked = {"soul-shield": "coin", "dark-renewal": "coin"}
        seats.1.res.ore = 1
    """)
    s = apply(s, 0, {"type": "use_ability", "ability": "wild-storm"})
    legal = GAME.legal_commands(s, 1)
    shields = [c for c in legal if c["type"] == "use_ability"]
    assert shields == [{"type": "use_ability", "ability": "soul-shield", "hero": "sunjun", "discount": "ore"}]
    s = apply(s, 1, shields[0])
    assert s["pending"][0]["damage"] == 0 and "soul-shield" in s["turn"]["used"]
    assert not any(c["type"] == "use_ability" for c in GAME.legal_commands(s, 1))
    s = apply(s, 1, {"type": "pass"})
    assert s["heroes"]["sunjun"]["damage"] == 3


def test_IND_AMB_42_a_hero_in_retreat_lends_no_always_available_ability():
    _, s = position(STORM + """
        seats.1.tree = possession
        seats.1.unlocked = {"soul-shield": "coin"}
        seats.1.res.ore = 1
        put sunjun none
        put magus r4c4
    """)
    b = s["heroes"]["magus"]
    assert b["owner"] == 1
    s = apply(s, 0, {"type": "use_ability", "ability": "wild-storm"})
    assert s["pending"][0]["hero"] == "magus"                               # the tree lends to the hero on the board
    edit(GAME, s, "put magus none")
    assert not any(c["type"] == "use_ability" for c in GAME.legal_commands(s, 1))


def test_IND_AMB_18_a_damage_window_in_ones_own_turn_poison_swamp():
    _, s = position("""
        indagar 2 seed=indagar
        arena
        put ariane r4c1
        reveal r4c2 poison_swamp
        seats.0.spirits = 1
        turn 0 ariane
    """)
    s = apply(s, 0, {"type": "move", "to": "r4c2"})
    assert s["heroes"]["ariane"]["tile"] == "r4c2" and s["pending"][0]["moment"] == "damage"
    s = apply(s, 0, {"type": "spirit", "use": "ignore"})
    s = apply(s, 0, {"type": "pass"})
    assert s["heroes"]["ariane"]["damage"] == 0 and s["turn"]["who"] == "seat:0"


def test_IND_AMB_20_IND_RES_5_attack_windows_offer_exchanges_and_spirit_resources():
    """Exchanges and spirit resources at any time, including while paying a cost: the
    defender may turn wood or a spirit into the ore an ability costs, inside its window."""
    _, s = position("""
        indagar 2 seed=indagar
        arena
        put ariane r4c1
        put zhuan r4c2
        seats.1.spirits = 1
        seats.1.res = {"gold": 0, "wood": 3, "ore": 0}
        turn 0 ariane
    """)
    s = apply(s, 0, {"type": "attack", "tile": "r4c2"}, ScriptedDice(1, 1, 1))
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(1, 1))                 # Zhuan: 1 + commander
    legal = GAME.legal_commands(s, 1)
    assert {"type": "exchange", "give": {"gold": 0, "wood": 3, "ore": 0}, "get": "ore"} in legal
    assert {"type": "spirit", "use": "resources", "get": {"gold": 0, "wood": 0, "ore": 3}} in legal
    s = apply(s, 1, {"type": "exchange", "give": {"gold": 0, "wood": 3, "ore": 0}, "get": "ore"})
    assert s["seats"][1]["res"] == {"gold": 0, "wood": 0, "ore": 1}
    assert s["pending"][0] == {"kind": "window", "side": "defence", "seat": 1}   # still open


def test_IND_ABL_6_IND_AMB_41_a_reveal_attack_is_part_of_the_revealers_turn():
    """«Ninguna habilidad puede ser usada más de una vez durante un turno de jugador»: an
    always-available ability used earlier in the revealer's turn is not offered again in the
    reveal attack of that turn (indagar-4; indagar-3 counted the reveal attack as a turn of its
    own), and one first used in the reveal attack counts for the rest of the turn."""
    text = """
        indagar 2 seed=indagar
        arena
        put ariane r4c1
        hide r4c2 kakonositel
        seats.0.tree = shield-of-the-realm
        seats.0.unlocked = {"hold-the-line": "coin"}
        seats.0.res.ore = 2
        turn 0 ariane
    """
    _, s = position(text + "    turn.used = [\"hold-the-line\"]\n")
    s = apply(s, 0, {"type": "move", "to": "r4c2"}, ScriptedDice(1, 1, 1, 1, 1, 1, 1))
    assert s["attack"]["reveal"] and s["pending"][0] == {"kind": "window", "side": "defence", "seat": 0}
    assert not any(c.get("ability") == "hold-the-line" for c in GAME.legal_commands(s, 0))
    old = registry.get("indagar", "indagar-3")
    assert any(c.get("ability") == "hold-the-line" for c in old.legal_commands(s, 0))
    _, s = position(text)
    s = apply(s, 0, {"type": "move", "to": "r4c2"}, ScriptedDice(1, 1, 1, 1, 1, 1, 1))
    hold = [c for c in GAME.legal_commands(s, 0) if c.get("ability") == "hold-the-line"]
    s = apply(s, 0, hold[0], ScriptedDice(1))
    assert s["turn"]["used"] == ["hold-the-line"]
    assert not any(c.get("ability") == "hold-the-line" for c in GAME.legal_commands(s, 0))


def test_IND_AMB_41_each_monster_turn_counts_as_a_turn_for_always_available_abilities():
    """Steel Phalanx-like abilities reset at each monster turn: the turn's ``used`` list is new."""
    _, s = position("""
        indagar 2 seed=indagar
        arena
        turn 0
        turn.used = ["hold-the-line"]
    """)
    ev = {"type": "TurnBegan", "data": {"who": "monster-helgoth", "cursor": 1}}
    s = GAME.evolve(copy_state(s), ev)
    assert s["turn"]["used"] == []


def test_IND_AMB_18_every_turn_windows_open_at_each_other_participants_turn():
    _, s = position(LAST_TURN.replace("seed=indagar", 'seed=indagar options={"spirit_windows": "every_turn"}') + """
        heroes.zhuan.activated = false
        heroes.sunjun.activated = false
        put zhuan r1c1
        seats.0.spirits = 1
    """)
    s = apply(s, 0, {"type": "end_turn"})
    assert s["turn"]["who"] == "seat:1"
    assert s["pending"] == [{"kind": "respond", "seat": 0, "moment": "turn"}]
    s = apply(s, 0, {"type": "spirit", "use": "resources", "get": {"gold": 3, "wood": 0, "ore": 0}})
    s = apply(s, 0, {"type": "pass"})
    assert not s["pending"] and GAME.active_seats(s) == {1}


def test_IND_AMB_18_the_default_asks_nobody_at_a_turns_start():
    _, s = position(LAST_TURN + """
        heroes.zhuan.activated = false
        put zhuan r1c1
        seats.0.spirits = 1
    """)
    s = apply(s, 0, {"type": "end_turn"})
    assert s["turn"]["who"] == "seat:1" and not s["pending"]


def test_IND_AMB_18_greedy_buys_the_winning_pp_in_the_round_end_window():
    _, s = position(LAST_TURN + "seats.1.spirits = 2")
    s = apply(s, 0, {"type": "end_turn"})
    assert greedy(GAME, s, 1, Drbg(b"g", "1")) == {"type": "spirit", "use": "pp"}
    edit(GAME, s, "seats.1.spirits = 1")
    assert greedy(GAME, s, 1, Drbg(b"g", "1")) == {"type": "pass"}


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_IND_AMB_18_games_with_every_turn_windows_still_end(bot):
    g = play(GAME, bot_table(GAME, 2, bot), {"spirit_windows": "every_turn"}, b"windows", max_steps=5000)
    assert GAME.is_terminal(g.state)


@pytest.mark.parametrize("command, rule", [({"type": "pass"}, "IND-ATK-5"),
                                           ({"type": "reveal", "show": True}, "IND-EXPL-1"),
                                           ({"type": "fall_back", "to": "r4c2"}, "IND-FB-1"),
                                           ({"type": "charge_through", "go": True}, "IND-FB-4"),
                                           ({"type": "choose_tile", "tile": "r4c2"}, "IND-MTGT-4")])
def test_an_answer_with_no_decision_open_is_refused_with_its_rule(command, rule):
    """A documented command that only answers a decision (a window's ``pass``, an explore's
    ``reveal``, ...) sent when none is open is refused as ``no_decision_open`` citing the rule of
    that decision, not called an unknown command."""
    _, s = position("""
        indagar 2 seed=indagar
        arena
        put ariane r4c1
        turn 0 ariane
    """)
    with pytest.raises(Illegal) as err:
        GAME.decide(s, 0, command, Drbg(b"t", "cmd"))
    assert (err.value.code, err.value.rule) == ("no_decision_open", rule)
