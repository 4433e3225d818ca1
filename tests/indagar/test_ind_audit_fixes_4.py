"""The second rules audit's Indagar findings, fixed in indagar-4; each test quotes the rulebook.

Games created under indagar-3 keep its rules (domain/indagar/versions/indagar_3): each test
also shows the old version as it was, and the stored exports test replays its records."""
from __future__ import annotations

from domain import registry
from domain.core import Drbg, Illegal
from domain.indagar import positions as verbs
from domain.indagar import state as st
from domain.indagar.rules import GAME
from domain.kit import copy_state
from ind_support import ScriptedDice, apply, arena, line, play_round, put, reveal, turn_of
from tests.support.positions import edit, position

OLD = registry.get("indagar", "indagar-3")


def turn(s: dict, name: str, game=GAME) -> dict:
    """``name`` takes its turn under ``game``'s rules (its events folded onto a copy)."""
    s = copy_state(s)
    verbs.turn(s, name)
    for ev in game.decide_actor(s, s["turn"]["who"], Drbg(b"m", "turn")):
        s = game.evolve(s, ev)
    return s


def test_IND_EVM_3_IND_AMB_9_an_event_monster_with_nothing_juicy_approaches_the_nearest_figure():
    """«Ellos se enfocarán en el héroe, puesto de avanzada, o monstruo más cercano» and «Una vez
    que el monstruo tenga un objetivo, se debe mover tan lejos como pueda por la ruta viable más
    corta para llegar a su objetivo» -- with no target it could hurt, Kakonositel still walks
    its 2 tiles toward the only (well armoured) hero, and does not attack it."""
    s = arena(2)
    a, b, c, d, e = line(s, "r5c0", 5)
    edit(GAME, s, f"""
        event kakonositel {a}
        put ariane {e}
        armour ariane
    """)
    after = turn(s, "kakonositel")
    assert after["monsters"]["kakonositel"]["tile"] == c
    assert after["attack"] is None
    assert turn(s, "kakonositel", OLD)["monsters"]["kakonositel"]["tile"] == a   # indagar-3 stayed


def test_IND_EVM_3_a_juicy_target_still_comes_first():
    """The fallback is only for a monster with no juicy target: unarmoured, Ariane is attacked
    as before once Kakonositel reaches her."""
    s = arena(2)
    a, b, c = line(s, "r5c0", 3)
    edit(GAME, s, f"""
        event kakonositel {a}
        put ariane {c}
    """)
    after = turn(s, "kakonositel")
    assert after["monsters"]["kakonositel"]["tile"] == b
    assert after["attack"] and after["attack"]["tile"] == c


def test_IND_EVM_4_groxiah_never_attacks_an_unmanned_outpost_even_by_opportunity():
    """«Groxiah no atacará puestos de avanzada desocupados.» -- not as its target, and not by an
    opportunity attack either (indagar-3 began one on the empty outpost beside it)."""
    s = arena(2)
    a, b, c, d, e = line(s, "r5c0", 5)
    edit(GAME, s, f"""
        event groxiah {a}
        reveal {b} gold
        outpost {b} 0
    """)
    assert not (turn(s, "groxiah")["attack"] or {}).get("tile") == b
    assert turn(s, "groxiah", OLD)["attack"]["tile"] == b


def test_IND_MTILE_1_IND_EVT_12_an_event_monster_heals_on_the_mystic_clearing():
    """«Los monstruos son afectados por la mayoría de las losetas, una vez estén reveladas, al
    igual que los héroes. Sin embargo, los monstruos ignoran los efecto de la Vorágine. Además, los
    monstruos no reciben daño del pantano venenoso» and «Claro Místico- El héroe que ocupe esta
    loseta remueve 2 daños, una vez durante su activación» -- event monsters are no exception."""
    s = arena(2)
    a, b, c, d, e = line(s, "r5c0", 5)
    edit(GAME, s, f"""
        event kakonositel {a} 4
        reveal {c} mystic_clearing
        put ariane {e}
        armour ariane
        heroes.ariane.bonuses = []
    """)
    after = turn(s, "kakonositel")
    assert after["monsters"]["kakonositel"]["tile"] == c
    assert after["monsters"]["kakonositel"]["damage"] == 2


def test_IND_AMB_21_a_monster_standing_on_the_mystic_clearing_heals_in_its_turn():
    """«El héroe que ocupe esta loseta remueve 2 daños, una vez durante su activación» -- occupying
    the tile in its turn heals, moved there or not: Helgoth (3 damage) on the Clearing, its target
    outpost already beside it, heals to 1 and attacks (indagar-3 healed only after a move)."""
    s = arena(2)
    a, b, c = line(s, "r5c0", 3)
    edit(GAME, s, f"""
        put helgoth {a}
        monsters.helgoth.damage = 3
        reveal {a} mystic_clearing
        reveal {b} gold
        outpost {b} 0
    """)
    after = turn(s, "helgoth")
    assert after["monsters"]["helgoth"]["damage"] == 1
    assert after["attack"]["tile"] == b
    assert turn(s, "helgoth", OLD)["monsters"]["helgoth"]["damage"] == 3


def test_IND_RES_5_three_resources_go_for_one_of_another_resource():
    """«En cualquier momento, puedes cambiar 3 recursos cualquiera por 1 de otro recurso.» -- the
    resource received is not one handed in: 3 gold for 1 gold is neither offered nor accepted,
    3 gold for 1 wood is."""
    s = arena(2)
    put(s, "ariane", "r5c1")
    turn_of(s, 0, "ariane")
    s["seats"][0]["res"] = {"gold": 3, "wood": 1, "ore": 0}
    give = {"gold": 3, "wood": 0, "ore": 0}
    legal = GAME.legal_commands(s, 0)
    assert {"type": "exchange", "give": give, "get": "gold"} not in legal
    assert {"type": "exchange", "give": {"gold": 2, "wood": 1, "ore": 0}, "get": "wood"} not in legal
    assert {"type": "exchange", "give": give, "get": "wood"} in legal
    try:
        GAME.decide(s, 0, {"type": "exchange", "give": give, "get": "gold"}, Drbg(b"t", "cmd"))
    except Illegal as exc:
        assert (exc.code, exc.rule) == ("same_resource", "IND-RES-5")
    else:
        raise AssertionError("3 gold for 1 gold was accepted")
    assert {"type": "exchange", "give": give, "get": "gold"} in OLD.legal_commands(s, 0)


def test_IND_FB_4_IND_TT_5_a_hero_that_charges_through_onto_mud_moves_no_further():
    """«Barro - Los héroes que entran a esta loseta no pueden moverse más durante su activación, a
    menos que usen Cargar!» and, of Charge Through, «no está restringido por las reglas que
    previenen u obstruyen movimientos adicionales durante activación, tal como barro» -- the
    charge itself is never stopped, but the hero has entered the Mud: Ariane, 3 moves unspent,
    charges onto Mud and may not walk on (indagar-3 let her)."""
    s = arena(2)
    a, z, c = line(s, "r5c1", 3)
    reveal(s, z, "mud")
    put(s, "ariane", a)
    put(s, "zhuan", z)
    turn_of(s, 0, "ariane")
    s = apply(s, 0, {"type": "attack", "tile": z}, ScriptedDice(2, 2, 1))
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(1, 1))      # Zhuan: defence 1 + commander shield
    s = apply(s, 1, {"type": "pass"})
    s = apply(s, 1, {"type": "fall_back", "to": c})
    before = copy_state(s)
    s = apply(s, 0, {"type": "charge_through", "go": True})
    assert s["heroes"]["ariane"]["tile"] == z and s["turn"]["moves"] == 3
    assert not [m for m in GAME.legal_commands(s, 0) if m["type"] == "move"]
    old = before
    for ev in OLD.decide(before, 0, {"type": "charge_through", "go": True}, Drbg(b"t", "cmd")):
        old = OLD.evolve(old, ev)
    assert [m for m in OLD.legal_commands(old, 0) if m["type"] == "move"]


def test_IND_TT_5_IND_FB_1_a_hero_falling_back_onto_mud_in_its_activation_moves_no_further():
    """«Los héroes que entran a esta loseta no pueden moverse más durante su activación»: a fall
    back enters the tile too (IND-AMB-35). Bertram steps onto the face-down tile hiding
    Kakonositel, takes 2 and falls back onto Mud: his last movement point is gone."""
    _, s = position("""
        indagar 2 seed=indagar
        arena
        put bertram r4c1
        hide r4c2 kakonositel
        reveal r3c1 mud
        turn 0 bertram
    """)
    s = apply(s, 0, {"type": "move", "to": "r4c2"}, ScriptedDice(2, 2, 2, 1, 1, 2))   # 6 against 4
    s = apply(s, 0, {"type": "pass"})
    before = copy_state(s)
    s = apply(s, 0, {"type": "fall_back", "to": "r3c1"})
    assert s["heroes"]["bertram"]["tile"] == "r3c1" and s["turn"]["moves"] > 0
    assert not [c for c in GAME.legal_commands(s, 0) if c["type"] in ("move", "explore")]
    old = before
    for ev in OLD.decide(before, 0, {"type": "fall_back", "to": "r3c1"}, Drbg(b"t", "cmd")):
        old = OLD.evolve(old, ev)
    assert [c for c in OLD.legal_commands(old, 0) if c["type"] == "move"]


def test_IND_EVT_12_IND_AMB_21_the_clearing_heals_a_hero_hurt_there_later_in_its_activation():
    """«El héroe que ocupe esta loseta remueve 2 daños, una vez durante su activación»: at any
    moment of it. Ariane, unhurt when activated on the Clearing, explores, reveals Kakonositel
    and takes 1 damage without falling back: the Clearing's heal, unused, removes it."""
    _, s = position("""
        indagar 2 seed=indagar
        arena
        put ariane r4c1
        reveal r4c1 mystic_clearing
        hide r4c2 kakonositel
        turn 0
    """)
    s = apply(s, 0, {"type": "activate", "hero": "ariane"})
    s = apply(s, 0, {"type": "explore", "tile": "r4c2"})
    s = apply(s, 0, {"type": "reveal", "show": True}, ScriptedDice(3, 3, 3, 3, 3, 2))   # 9 against 8
    before = copy_state(s)
    s = apply(s, 0, {"type": "pass"})
    assert s["attack"] is None and s["heroes"]["ariane"]["tile"] == "r4c1"
    assert s["heroes"]["ariane"]["damage"] == 0 and s["turn"]["cleared"]
    old = before
    for ev in OLD.decide(before, 0, {"type": "pass"}, Drbg(b"t", "cmd")):
        old = OLD.evolve(old, ev)
    assert old["heroes"]["ariane"]["damage"] == 1


def _round_two(ariane: str, bertram: str, sunjun: str | None = None) -> tuple[dict, list[str]]:
    """Round 2 begins with Zhuan on seat 0's first deployment tile and Sun Jun on its second
    (or where said), Elowen out on the board, Ariane and Bertram where said (``none``: in
    retreat)."""
    _, s = position("""
        indagar 2 seed=indagar options={"monster_start": "skipRound1"}
        armour
    """)
    d = st.board(s).deployment(0)
    edit(GAME, s, f"""
        put ariane {ariane}
        put bertram {bertram}
        put zhuan {d[0]}
        put sunjun {sunjun or d[1]}
        put elowen r4c4
    """)
    s, _ = play_round(s)
    assert s["round"] == 2
    return s, d


def test_IND_RET_6_IND_AMB_26_the_owner_chooses_which_retreated_hero_comes_back():
    """«Al comienzo de una ronda, cualquier héroe que se encuentre actualmente en el retiro, es
    colocado en una loseta de despliegue desocupada en el área inicial del jugador ... Un jugador
    debe tener una loseta de despliegue desocupada donde colocar un héroe de manera de
    re-desplegarlo.» The book leaves the choice to the player (IND-AMB-26): with Ariane and
    Bertram out and one free tile, seat 0 is asked which comes back (indagar-3 always brought
    back the first of its list); the other stays out, and the trees are declared next."""
    s, d = _round_two("none", "none")
    free = d[2]
    assert s["pending"][0]["kind"] == "redeploy" and s["pending"][0]["seat"] == 0
    assert GAME.legal_commands(s, 0) == [{"type": "redeploy", "hero": "ariane", "tile": free},
                                         {"type": "redeploy", "hero": "bertram", "tile": free}]
    s = apply(s, 0, {"type": "redeploy", "hero": "bertram", "tile": free})
    assert s["heroes"]["bertram"]["tile"] == free and s["heroes"]["ariane"]["tile"] is None
    assert all(p["kind"] == "declare" for p in s["pending"])           # then P1, as before


def test_IND_AMB_26_the_owner_chooses_where_a_retreated_hero_comes_back():
    """One hero out and two free tiles: the owner picks the tile, and the last free one is not
    taken by anyone else."""
    s, d = _round_two("none", "r5c1", sunjun="r3c3")
    assert GAME.legal_commands(s, 0) == [{"type": "redeploy", "hero": "ariane", "tile": t} for t in d[1:]]
    s = apply(s, 0, {"type": "redeploy", "hero": "ariane", "tile": d[2]})
    assert s["heroes"]["ariane"]["tile"] == d[2] and not st.occupied(s, d[1])
    assert all(p["kind"] == "declare" for p in s["pending"])


def test_IND_AMB_26_one_hero_and_one_free_tile_need_no_question():
    """No choice, no question: the only retreated hero goes onto the only free tile at once."""
    s, d = _round_two("none", "r5c1")
    assert s["heroes"]["ariane"]["tile"] == d[2] and all(p["kind"] == "declare" for p in s["pending"])
