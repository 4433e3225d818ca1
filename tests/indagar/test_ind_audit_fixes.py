"""The rules audit's Indagar findings, fixed in indagar-3; each test quotes the rulebook.

Games created under indagar-2 keep its rules (domain/indagar/versions/indagar_2): the
stored exports test replays them."""
from __future__ import annotations

from domain import registry
from domain.core import Drbg, Illegal
from domain.indagar import harm, monsters, turns
from domain.indagar import state as st
from domain.indagar.rules import GAME
from ind_support import ScriptedDice, apply, arena, neighbours, turn_of
from tests.support.positions import edit, named, position


def refused(s, seat, cmd) -> Illegal:
    try:
        GAME.decide(s, seat, cmd, Drbg(b"t", "cmd"))
    except Illegal as exc:
        return exc
    raise AssertionError(f"{cmd} was accepted")


def test_IND_TURN_1_end_turn_needs_an_activation_first():
    """«Durante su turno de juego, cada jugador debe elegir y activar exactamente uno de sus
    héroes disponibles» -- ending the turn before activating one would skip the activation,
    and repeated, the round would never end."""
    _, s = position("""
        indagar 2 seed=indagar
        arena
        put ariane r4c1
        turn 0
    """)
    assert {"type": "end_turn"} not in GAME.legal_commands(s, 0)
    assert refused(s, 0, {"type": "end_turn"}).rule == "IND-TURN-1"
    s = apply(s, 0, {"type": "activate", "hero": "ariane"})
    assert {"type": "end_turn"} in GAME.legal_commands(s, 0)
    assert registry.get("indagar", "indagar-2").decide(turn_of(arena(2), 0), 0, {"type": "end_turn"},
                                                       Drbg(b"t", "cmd"))  # the old version, as it was


def test_IND_SPI_3_spirit_uses_and_exchanges_are_listed_whenever_they_are_accepted():
    """IND-SPI-3, IND-RES-5: «Gasta 1 espíritu para ganar 3 de cualquier recurso ... Gasta 2
    espíritus para inmediatamente ganar un punto de supremacía», at any time of one's turn:
    before the activation and while a Charge! attack is owed, legal_commands lists what
    decide accepts."""
    _, s = named("indagar", "spirits-before-activation")
    legal = GAME.legal_commands(s, 0)
    assert {"type": "spirit", "use": "pp"} in legal
    assert {"type": "exchange", "give": {"gold": 3, "wood": 0, "ore": 0}, "get": "wood"} in legal
    _, s = position(GAME.positions["spirits-before-activation"] + """
        turn 0 ariane
        turn.must_attack = true
    """)
    assert {"type": "spirit", "use": "pp"} in GAME.legal_commands(s, 0)
    for cmd in GAME.legal_commands(s, 0):
        GAME.decide(s, 0, cmd, Drbg(b"t", "cmd"))


def test_IND_RET_2_a_hero_in_retreat_gains_no_experience():
    """«Cuando un héroe entra en retiro ... Quita todo el daño que tenga y toda la
    experiencia de su contador de experiencia»: XP earned by an attack that sent the
    hero itself to retreat (a Poison Swamp entered by charging through) is lost too."""
    s = arena(2)
    edit(GAME, s, "heroes.ariane.xp = 2")
    events = []
    harm.gain_xp(s, events.append, "ariane", 2)        # ariane is off the board: in retreat
    assert events == []
    edit(GAME, s, "put ariane r4c1")
    harm.gain_xp(s, events.append, "ariane", 2)
    assert [e["type"] for e in events] == ["XpGained", "DecisionAsked"]


def test_IND_EVM_2_an_event_monster_revealed_by_a_charge_through_attacks_the_revealer():
    """«Kakonositel es un monstruo. Inmediatamente ataca al héroe que reveló esta loseta»:
    also when the hero revealed it charging through (IND-FB-4) onto the tile a monster
    left face down (monsters never reveal tiles, IND-AMB-50)."""
    _, s = named("indagar", "charge-through-reveal")   # helgoth, one damage from retreat, on a face-down tile
    a, b, monster = "r4c1", "r4c2", "helgoth"
    s = apply(s, 0, {"type": "attack", "tile": b}, ScriptedDice(*[6] * 12))
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(*[1] * 12))
    assert s["monsters"][monster]["tile"] is None and s["pending"][-1]["kind"] == "charge_through"
    if s["pending"][0]["kind"] == "level_bonus":     # indagar-7: the 3 XP come before the Charge Through
        s = apply(s, 0, {"type": "level_bonus", "side": "sword"})
    s = apply(s, 0, {"type": "charge_through", "go": True}, Drbg(b"t", "reveal"))
    assert s["monsters"]["kakonositel"]["tile"] == b and s["heroes"]["ariane"]["tile"] == a
    assert s["attack"] is not None and s["attack"]["attacker"] == ["monster", "kakonositel"]
    assert s["attack"]["defender"] == ["hero", "ariane"] and s["attack"]["reveal"]


def test_IND_OUT_11_ignored_damage_comes_off_the_heros_share_after_the_outpost():
    """«Los Puestos de Avanzada reciben daño antes que el Héroe, llegando a ser degradado el
    puesto de avanzada si recibe suficiente daño. Si un puesto de avanzada baja de nivel,
    cualquier daño adicional es recibido por el héroe»; a spirit «remover o ignorar 3
    daños de un héroe» (IND-SPI-3) lessens the hero's share, never the outpost's."""
    _, s = position("""
        indagar 2 seed=indagar options={"factions": ["arkland", "sect"]}
        arena
        put ariane r4c1
        put zhuan r4c2
        outpost r4c2 1 1              # endurance 3
        seats.1.spirits = 1
        turn 0 ariane
    """)
    b = "r4c2"
    s = apply(s, 0, {"type": "attack", "tile": b}, ScriptedDice(*[6] * 12))
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(*[1] * 12))       # a hit of several damage
    assert s["pending"][0]["side"] == "defence"
    s = apply(s, 1, {"type": "spirit", "use": "ignore"})
    total = s["attack"]["adice"] and sum(s["attack"]["adice"]) - sum(s["attack"]["ddice"])
    events = GAME.decide(s, 1, {"type": "pass"}, Drbg(b"t", "cmd"))
    dealt = next(e["data"] for e in events if e["type"] == "DamageDealt")
    assert dealt["total"] >= total and any(e["type"] == "OutpostDestroyed" for e in events)
    assert dealt["figure"] == max(0, dealt["total"] - 3 - 3)             # 3 to the outpost, then 3 ignored


def test_IND_MTGT_6_a_walled_in_monster_has_its_turns_skipped():
    """«El monstruo se queda atrapado y sus turnos son saltados por el resto del juego»:
    ringed by Mountains, it takes no turn at all (before: an empty turn every time)."""
    s = arena(2)
    monster = st.primaries(s)[0]
    home = st.board(s).homes[s["monsters"][monster]["home"]]
    edit(GAME, s, f"""
        put {monster} {home}
        put ariane r4c1
        round = 2 # past the round-1 start rules
    """)
    assert not monsters.stuck(s, monster) and turns.monster_may_act(s, monster)
    for n in neighbours(s, home):
        edit(GAME, s, f"reveal {n} mountains")
    assert monsters.stuck(s, monster) and not turns.monster_may_act(s, monster)
