"""The fourth rules audit's Indagar findings, fixed in indagar-6; each test quotes the rulebook.

Games created under indagar-5 keep its rules (domain/indagar/versions/indagar_5): each test
also shows the old version as it was, and the stored exports test replays its records."""
from __future__ import annotations

import pytest

from domain import registry
from domain.core import Drbg, Illegal
from domain.indagar import positions as verbs
from domain.indagar import state as st
from domain.indagar.rules import GAME
from domain.kit import copy_state
from ind_support import ScriptedDice, apply, corner, line, put, run
from tests.support.positions import edit, position

OLD = registry.get("indagar", "indagar-5")


def abilities_offered(game, s: dict, seat: int) -> list[str]:
    return [c["ability"] for c in game.legal_commands(s, seat) if c["type"] == "use_ability"]


THORN_BY_THE_SWAMP = """
    indagar 2 seed=indagar options={"factions": ["forest", "sect"]}
    arena
    put thorn r4c1
    reveal r4c2 poison_swamp
    put zhuan r8c6
    heroes.thorn.bonuses = ["sword"]      # level 1: Bark Skin (wood 1, ignore 2), no always-available icon
    seats.0.res = {"gold": 3, "wood": 3, "ore": 3}
    turn 0 thorn
"""


def test_IND_DMG_2_IND_ABL_10_the_active_hero_ignores_poison_swamp_damage_with_its_own_ability():
    """«El Daño puede ser ignorado por Habilidades tanto durante como fuera de los ataques» and
    «Las habilidades pueden ser usadas en cualquier momento durante tu turno de juego» -- Thorn,
    active in his own turn, steps onto a Poison Swamp: before its 2 damage lands his owner may use
    Bark Skin, as the same ability is offered in that turn inside a reveal attack. indagar-5 offered
    it nowhere outside an attack, so the damage landed at once."""
    _, s = position(THORN_BY_THE_SWAMP)
    s = apply(s, 0, {"type": "move", "to": "r4c2"})
    assert s["heroes"]["thorn"]["damage"] == 0
    assert (s["pending"][0]["kind"], s["pending"][0]["moment"], s["pending"][0]["damage"]) == ("respond", "damage", 2)
    assert abilities_offered(GAME, s, 0) == ["bark-skin"]
    s = apply(s, 0, {"type": "use_ability", "ability": "bark-skin", "hero": "thorn"})
    assert s["pending"][0]["damage"] == 0 and s["seats"][0]["res"]["wood"] == 2
    assert "bark-skin" in s["turn"]["used"] and abilities_offered(GAME, s, 0) == []   # IND-ABL-6
    s = apply(s, 0, {"type": "pass"})
    assert s["heroes"]["thorn"]["damage"] == 0 and not s["pending"] and s["turn"]["who"] == "seat:0"
    # indagar-5: the damage at once, and Bark Skin refused afterwards.
    _, s = position(THORN_BY_THE_SWAMP)
    old = run(OLD, s, 0, {"type": "move", "to": "r4c2"})
    assert old["heroes"]["thorn"]["damage"] == 2 and old["pending"] == []
    with pytest.raises(Illegal):
        OLD.decide(old, 0, {"type": "use_ability", "ability": "bark-skin"}, Drbg(b"t", "cmd"))


def test_IND_ABL_8_IND_ABL_6_only_the_active_heros_own_abilities_and_once_per_turn():
    """«Tú sólo puedes usar las habilidades del héroe actualmente activo durante tu turno» and
    «Ninguna habilidad puede ser usada más de una vez durante un turno de jugador»: Thorn's own
    Wild Storm (he stands off a resource tile) offers his Bark Skin; Maeve, not active, is hurt
    with no window (no spirit, no always-available ignore ability); a Bark Skin already used this
    turn is not offered again, and the damage lands at once."""
    storm = GAME.positions["wild-storm"] + """
        heroes.thorn.bonuses = ["sword"]
        put maeve r1c1
        seats.0.res.wood = 3
    """
    _, s = position(storm)
    s = apply(s, 0, {"type": "use_ability", "ability": "wild-storm"})
    assert [(p["seat"], p["hero"]) for p in s["pending"]] == [(0, "thorn")]
    assert s["heroes"]["maeve"]["damage"] == 2
    assert abilities_offered(GAME, s, 0) == ["bark-skin"]
    old = run(OLD, position(storm)[1], 0, {"type": "use_ability", "ability": "wild-storm"})
    assert old["heroes"]["thorn"]["damage"] == 2 and old["pending"] == []
    _, s = position(THORN_BY_THE_SWAMP + '    turn.used = ["bark-skin"]\n')
    s = apply(s, 0, {"type": "move", "to": "r4c2"})
    assert s["heroes"]["thorn"]["damage"] == 2 and s["pending"] == []


def test_IND_DMG_2_a_tree_ability_that_ignores_damage_helps_the_active_hero_in_its_turn():
    """The same for the tree in play: Steadfast (Arkland's Shield of the Realm, ignore 2, not
    always available) answers the Poison Swamp under Ariane in her owner's turn."""
    text = """
        indagar 2 seed=indagar
        arena
        put ariane r4c1
        reveal r4c2 poison_swamp
        tree 0 shield-of-the-realm steadfast=coin
        seats.0.res = {"gold": 1, "wood": 0, "ore": 0}
        turn 0 ariane
    """
    _, s = position(text)
    s = apply(s, 0, {"type": "move", "to": "r4c2"})
    assert GAME.legal_commands(s, 0) == [
        {"type": "use_ability", "ability": "steadfast", "hero": "ariane", "discount": "wood"}, {"type": "pass"}]
    s = apply(s, 0, GAME.legal_commands(s, 0)[0])
    s = apply(s, 0, {"type": "pass"})
    assert s["heroes"]["ariane"]["damage"] == 0 and s["seats"][0]["res"]["gold"] == 0
    assert run(OLD, position(text)[1], 0, {"type": "move", "to": "r4c2"})["heroes"]["ariane"]["damage"] == 2


def fell_back_onto_a_swamp(game) -> dict:
    """Ariane hits Zhuan (2 damage already, endurance 6) for 2; his only fall-back tile hides a
    Poison Swamp, whose 2 would send him to retreat; his owner holds a spirit."""
    s, a, z, behind = corner("poison_swamp")
    s["seats"][1]["spirits"] = 1
    s["heroes"]["zhuan"]["damage"] = 2
    s = run(game, s, 0, {"type": "attack", "tile": z}, ScriptedDice(2, 1, 1))
    s = run(game, s, 0, {"type": "pass"}, ScriptedDice(1, 1))
    s = run(game, s, 1, {"type": "pass"})
    assert s["heroes"]["zhuan"]["damage"] == 4 and s["pending"][0]["kind"] == "fall_back"
    return run(game, s, 1, {"type": "fall_back", "to": behind})


def test_IND_SPI_3_IND_AMB_18_damage_taken_falling_back_is_open_to_a_spirit():
    """«Gasta 1 espíritu para remover o ignorar 3 daños de un héroe» -- the Poison Swamp's damage
    on a hero falling back is no attack damage, so the defender's window did not cover it; it now
    gets its own window (IND-AMB-18: "ignore incoming damage in or out of attacks"), and the attack
    waits for it. indagar-5 landed it at once: Zhuan went to retreat with his spirit unspent."""
    s = fell_back_onto_a_swamp(GAME)
    zhuan = s["heroes"]["zhuan"]
    assert zhuan["tile"] == "r4c3" and zhuan["damage"] == 4
    assert s["attack"] is not None and [p["kind"] for p in s["pending"]] == ["respond"]
    assert (s["pending"][0]["seat"], s["pending"][0]["hero"], s["pending"][0]["damage"]) == (1, "zhuan", 2)
    assert GAME.legal_commands(s, 0) == [] and {"type": "spirit", "use": "ignore"} in GAME.legal_commands(s, 1)
    s = apply(s, 1, {"type": "spirit", "use": "ignore"})
    s = apply(s, 1, {"type": "pass"})
    assert s["heroes"]["zhuan"]["tile"] == "r4c3" and s["heroes"]["zhuan"]["damage"] == 4
    assert s["seats"][1]["spirits"] == 0 and [p["kind"] for p in s["pending"]] == ["charge_through"]
    old = fell_back_onto_a_swamp(OLD)
    assert old["heroes"]["zhuan"]["tile"] is None and old["seats"][1]["spirits"] == 1
    assert [p["kind"] for p in old["pending"]] == ["charge_through"]


def test_IND_AMB_18_passing_the_fall_back_window_lands_the_damage_then_the_attack_goes_on():
    s = fell_back_onto_a_swamp(GAME)
    s = apply(s, 1, {"type": "pass"})
    assert s["heroes"]["zhuan"]["tile"] is None                               # 4 + 2 = endurance 6
    assert [p["kind"] for p in s["pending"]] == ["charge_through"] and s["attack"]["stage"] == "award"


def test_IND_AMB_18_a_charge_through_onto_a_poison_swamp_waits_for_the_attackers_window():
    """The attacker's own step: Ariane charges through onto the Poison Swamp Zhuan fell back from;
    its 2 damage is open to her spirit before it lands, and the attack's award follows."""
    text = """
        indagar 2 seed=indagar
        arena
        put ariane r4c1
        put zhuan r4c2
        reveal r4c2 poison_swamp
        seats.0.spirits = 1
        turn 0 ariane
    """
    def charged(game):
        s = position(text)[1]
        s = run(game, s, 0, {"type": "attack", "tile": "r4c2"}, ScriptedDice(2, 1, 1))    # 4 - 2: Zhuan falls back
        s = run(game, s, 0, {"type": "pass"}, ScriptedDice(1, 1))
        s = run(game, s, 1, {"type": "pass"})
        s = run(game, s, 1, {"type": "fall_back", "to": s["pending"][0]["options"][0]})
        return run(game, s, 0, {"type": "charge_through", "go": True})
    s = charged(GAME)
    assert s["heroes"]["ariane"]["tile"] == "r4c2" and s["attack"] is not None
    assert (s["pending"][0]["moment"], s["pending"][0]["hero"]) == ("damage", "ariane")
    s = apply(s, 0, {"type": "spirit", "use": "ignore"})
    s = apply(s, 0, {"type": "pass"})
    assert s["heroes"]["ariane"]["damage"] == 0 and s["attack"] is None and s["heroes"]["ariane"]["xp"] == 1
    old = charged(OLD)
    assert old["heroes"]["ariane"]["damage"] == 2 and old["attack"] is None and old["seats"][0]["spirits"] == 1


def test_IND_DMG_2_IND_AMB_18_in_a_reveal_attack_the_fall_back_window_offers_the_heros_own_ability():
    """Both fixes at once, in the declared position ``fell-back-onto-a-poison-swamp`` (where the
    conformance tests check legality both ways): Thorn, hit by the Kakonositel he revealed in his
    own turn, fell back onto a face-down Poison Swamp; its damage waits, open to his spirit and to
    his own Bark Skin (the attack allows ignoring damage, IND-RST-1). Played here to that point."""
    _, s = position(THORN_BY_THE_SWAMP.replace("reveal r4c2 poison_swamp", """hide r4c2 kakonositel
        hide r5c1 poison_swamp
        reveal r3c1 mountains
        reveal r3c0 mountains
        reveal r5c0 mountains
        heroes.thorn.damage = 1
        seats.0.spirits = 1""").replace('{"gold": 3, "wood": 3, "ore": 3}', '{"gold": 0, "wood": 1, "ore": 0}'))
    s = apply(s, 0, {"type": "move", "to": "r4c2"}, ScriptedDice(3, 1, 1, 1, 1, 1))   # 5 against 3
    s = apply(s, 0, {"type": "pass"})
    s = apply(s, 0, {"type": "fall_back", "to": "r5c1"})
    _, declared = position(GAME.positions["fell-back-onto-a-poison-swamp"])
    for key in ("pending", "attack", "turn", "outposts", "tiles", "hidden"):
        assert s[key] == declared[key], key
    assert s["heroes"] == declared["heroes"] and s["monsters"] == declared["monsters"]
    assert {"type": "use_ability", "ability": "bark-skin", "hero": "thorn"} in GAME.legal_commands(s, 0)
    s = apply(s, 0, {"type": "use_ability", "ability": "bark-skin", "hero": "thorn"})
    s = apply(s, 0, {"type": "pass"})
    assert s["heroes"]["thorn"]["damage"] == 3 and s["attack"] is None and s["seats"][0]["spirits"] == 1


def groxiah_behind_an_outpost(manned: bool) -> tuple[dict, str]:
    """A corridor walled by Mountains: Groxiah, a free tile, seat 1's outpost, a free tile, and
    Ariane (a juicy target) at the far end: only breaking through reaches her (IND-MTGT-5)."""
    _, s = position("""
        indagar 2 seed=indagar
        arena
    """)
    g, a, o, b, h = line(s, "r2c1", 5)
    for t in s["tiles"]:
        if t not in (g, a, o, b, h):
            verbs.reveal(s, t, "mountains")
    edit(GAME, s, f"""
        event groxiah {g}
        outpost {o} 1 1
        put ariane {h}
    """)
    if manned:
        put(s, "zhuan", o)
        verbs.armour(s, "zhuan")                 # not juicy: Ariane stays the target
    return s, o


def groxiah_turn(game, s: dict) -> dict:
    s = copy_state(s)
    verbs.turn(s, "groxiah")
    for ev in game.decide_actor(s, s["turn"]["who"], Drbg(b"g", "t")):
        s = game.evolve(s, ev)
    return s


def test_IND_EVM_4_groxiah_breaking_through_spares_an_unmanned_outpost():
    """«Groxiah no atacará puestos de avanzada desocupados» -- nor when breaking through: «atacará
    a lo que sea que esté ocupando esa loseta, aún cuando la loseta ocupante no sea un objetivo
    jugoso» waives the juicy test only. Groxiah walks up to the outpost and attacks nothing;
    indagar-5 attacked (and, unanswered, destroyed) it."""
    s, o = groxiah_behind_an_outpost(manned=False)
    after = groxiah_turn(GAME, s)
    assert after["monsters"]["groxiah"]["tile"] == "r2c2" and after["attack"] is None
    assert after["outposts"][o]["level"] == 1 and not after["pending"]
    old = groxiah_turn(OLD, s)
    assert old["attack"]["tile"] == o and old["attack"]["breakthrough"]


def test_IND_MMOV_5_groxiah_still_breaks_through_a_manned_outpost():
    """With Zhuan on it (too well armoured to be a target himself) the outpost is manned: Groxiah
    breaks through it, attacking whatever is there, under both versions."""
    s, o = groxiah_behind_an_outpost(manned=True)
    for game in (GAME, OLD):
        after = groxiah_turn(game, s)
        assert after["attack"]["tile"] == o and after["attack"]["breakthrough"]
        assert after["attack"]["defender"] == ["hero", "zhuan"]


def test_the_fixes_are_indagar_6():
    assert registry.get("indagar", "indagar-6").rules_version == "indagar-6" and OLD.rules_version == "indagar-5"
    assert st.hero_card("thorn")["specials"][0] == "bark-skin"
