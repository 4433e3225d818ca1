"""An outside rules audit of DWARF against the Spanish rulebook (/work/shared/seeds, file 003):
setup at every table size and against each automaton, the automata's procedures played
through, every card of the content tables, payment and limits, the end of the game and the
final scoring. Each test cites the rule ids of domain/dwarf/RULES.md and quotes the rulebook.

One finding was a defect, fixed in dwarf-6 (the last section): a worker that a Special
Action's Mine side covers a second time in a round acted again. Games created under dwarf-5
keep its rules (domain/dwarf/versions/dwarf_5); the test shows that version as it was.
"""
from __future__ import annotations

import pytest

from domain import registry
from domain.core import Drbg, Seat, event, fold
from domain.dwarf import automaton, content
from domain.dwarf.grid import LOCATIONS
from domain.dwarf.rules import GAME
from domain.kit import position as text
from domain.kit.tables import WithContent
from tests.dwarf.dwarf_support import (
    act,
    apply,
    finish,
    give,
    stage_top,
    start,
    step_actor,
    who,
)
from tests.dwarf.test_dwarf_rounds import passes, place, stage_mine
from tests.dwarf.test_dwarf_solo import mined

AUTO = 1  # the automaton's participant index in a one-seat game
LEVELS = ("eldhusfifl", "andvettr", "andvettr-fadir")
CARDS = content.cards()


def solo(level: str, **options) -> dict:
    return start(1, solo_level=level, **options)


def settle(s: dict) -> dict:
    """Play out the current round once every worker that matters is placed: the automaton
    places by its rules, seats decline what is optional and keep reading order."""
    r = s["round"]
    while s["phase"] != "over" and s["round"] == r:
        turn = GAME.turn(s)
        if turn.actor:
            s = step_actor(s)
            continue
        seat = next(iter(turn.seats))
        legal = GAME.legal_commands(s, seat)
        s = act(s, seat, next((c for c in legal if c["type"] in ("pass", "order")), legal[0]))
    return s


def holdings(s: dict, player: int) -> dict:
    return {r: s["players"][player][r] for r in ("iron", "gold", "steel", "object", "medal")}


# --- Setup at every table size (DW-SETUP, DW-COMP-3, DW-COMB-1, DW-SOLO-1) ---------------------

@pytest.mark.parametrize("n, level", [(1, lv) for lv in LEVELS] + [(n, None) for n in (2, 3, 4, 5)])
def test_DW_COMP_3_DW_SETUP_1_to_8_DW_COMB_1_DW_SOLO_1_the_table_at_every_size(n, level):
    """«Con una copia de DWARF pueden jugar hasta 3 jugadores. Con una segunda copia pueden jugar
    hasta 5 jugadores»; «Coloca las cartas iniciales en una rejilla de 3x3 ... Baraja las 9 cartas
    de Acción Especial ... en tres montones de tres ... Baraja las cartas de Montaña»; «Cada jugador
    escoge un color y sus 2 trabajadores»; solo «se desarrolla como una partida de dos jugadores»
    and the automaton «Siempre inicia la ronda». No player starts with resources (DW-AMB-10)."""
    s = start(n, seed=f"size{n}{level}".encode(), **({"solo_level": level} if level else {}))
    copies = 2 if n >= 4 else 1
    assert len(s["areas"]) == copies and s["seats"] == n
    for area in s["areas"]:
        bottoms = {loc: stack[0] for loc, stack in area["stacks"].items()}
        assert sorted(bottoms) == sorted(LOCATIONS)
        assert all(CARDS[c].kind == "starting" and CARDS[c].location == loc for loc, c in bottoms.items())
        on_board = sum(len(stack) - 1 for stack in area["stacks"].values())
        assert on_board in (2, 3) and on_board + len(area["mountain"]) == 45      # DW-MINE-1/2
        assert [len(p) for p in area["piles"]] == [3, 3, 3]
        assert sorted(c for p in area["piles"] for c in p) == sorted(content.of_kind("special"))
    participants = n + (1 if level else 0)
    assert len(s["players"]) == participants and s["unplaced"] == [2] * participants
    assert s["extras"] == [0] * participants and s["workers"] == {}
    assert all(v == 0 for i in range(participants) for v in holdings(s, i).values())
    if level:
        assert s["players"][AUTO]["id"] == "actor:automaton" and s["level"] == level
        assert s["first"] == AUTO and GAME.turn(s).actor == "automaton"
        assert [(q["player"], q["slot"]) for q in s["queue"]] == \
            [(AUTO, "first"), (0, "first"), (AUTO, "second"), (0, "second")]
    else:
        assert s["automaton"] is None and 0 <= s["first"] < n
        order = [(s["first"] + i) % n for i in range(n)]
        assert [(q["player"], q["slot"]) for q in s["queue"]] == \
            [(p, "first") for p in order] + [(p, "second") for p in reversed(order)]


def test_DW_COMP_3_DW_SOLO_1_DW_SOLO_2_table_sizes_and_levels_refused_where_they_do_not_fit():
    """«Con una segunda copia pueden jugar hasta 5 jugadores»: 6 is too many; a solo level
    belongs to the one-player game, and one player alone plays Eldhúsfífl («Eldhúsfífl será tu
    primer oponente») unless another level is chosen."""
    from domain.core import Illegal
    for n in (0, 6):
        with pytest.raises(Illegal) as err:
            GAME.start({}, [Seat(i, f"p{i}") for i in range(n)], Drbg(b"x", "v"))
        assert err.value.rule == "DW-COMP-3"
    with pytest.raises(Illegal) as err:
        GAME.validate_options({"solo_level": "andvettr"}, 2)
    assert err.value.rule == "DW-SOLO-1"
    assert GAME.validate_options({}, 1)["solo_level"] == "eldhusfifl"


# --- Every card of the content tables (DW-GLOS, DW-GAP, DW-CARD) -------------------------------

def _card_round(cid: str, **held) -> dict:
    """Seat 0 (first player) stands on ``cid`` at its own location holding ``held``; seat 1
    stands on a Guard Post elsewhere; the round is played out."""
    loc = CARDS[cid].location
    s = stage_top(stage_mine(start(2, first_player=0)), 0, loc, cid)
    s = give(s, 0, **held) if held else s
    s = place(s, 0, loc)
    s = place(s, 1, next(x for x in LOCATIONS if x != loc))
    return settle(s)


def _expected(effect: content.Effect) -> dict:
    out = {r: 0 for r in ("iron", "gold", "steel", "object", "medal")}
    for r, n in effect.gain.items():
        out[r] += n
    return out


GLOSSARY = {  # the rulebook's card glossary, word for word where it gives numbers
    "gold_vein": {"gold": 1},                      # «Veta de Oro: Coge uno de Oro del suministro.»
    "alloy_steel": {"steel": 2},                   # «Alear acero: Devuelve tres de Hierro ... y coge dos de Acero.»
    "forge_sword": {"object": 1},                  # «Forjar Espada: Devuelve tres de Acero ... y coge un Objeto.»
}


@pytest.mark.parametrize("cid", sorted(CARDS))
def test_DW_GLOS_1_to_10_DW_GAP_1_2_3_every_cards_mine_side_does_what_its_type_says(cid):
    """Card by card, the Mine side of each of the 63 cards, with a worker on it holding exactly
    its price: «Veta de Oro: Coge uno de Oro»; «Alear acero: Devuelve tres de Hierro al suministro
    y coge dos de Acero»; «Forjar Espada: Devuelve tres de Acero al Suministro y coge un Objeto.
    Todas las acciones de forja son similares, ya que en todas se crea un Objeto»; «Recompensa al
    Valor: Cada jugador con un [trabajador] en la localización, gana una Medalla ... Esto ocurre en
    todas las localizaciones [Defender]»; «Recibir Ayuda: Puedes colocar dos trabajadores
    adicionales en esta ronda». A defended threat takes nothing from anyone."""
    effect = content.effect_of(cid)
    assert effect.type in content.ACTION_TYPES
    if effect.type in ("mine", "forge"):
        s = _card_round(cid, **effect.cost)
        assert holdings(s, 0) == _expected(effect), cid                 # paid exactly once, gained once
        if effect.type == "forge":
            assert effect.gain == {"object": 1} and s["players"][0]["created"] == 1
        if effect.id in GLOSSARY:
            assert {r: n for r, n in holdings(s, 0).items() if n} == GLOSSARY[effect.id]
        if effect.id == "alloy_steel":
            assert effect.cost == {"iron": 3}
        if effect.id == "forge_sword":
            assert effect.cost == {"steel": 3}
        assert effect.gain and all(r in ("iron", "gold", "steel", "object") for r in effect.gain)
    elif effect.type == "defend":
        s = _card_round(cid, iron=2, gold=3)
        assert holdings(s, 0) == {"iron": 2, "gold": 3, "steel": 0, "object": 0, "medal": 1}, cid
        assert holdings(s, 1)["medal"] == 1                               # seat 1's Guard Post
    else:  # help
        loc = CARDS[cid].location
        s = stage_top(stage_mine(start(2, first_player=0)), 0, loc, cid)
        s = place(s, 0, loc)
        s = passes(passes(place(s, 1, next(x for x in LOCATIONS if x != loc)), 1), 0)
        assert s["phase"] == "help" and s["extras"][0] == 2 and s["extras"][1] == 0
        assert [(q["player"], q["slot"]) for q in s["queue"]] == [(0, "extra"), (0, "extra")]


@pytest.mark.parametrize("cid", sorted(content.of_kind("special")))
def test_DW_SPEC_4_DW_SPEC_5_DW_CARD_1_every_special_action_card_face_then_mine_side(cid):
    """«El lado visible de las cartas se resuelve inmediatamente, se voltea la carta y se coloca
    como se indica en la Fase de Extracción de Minerales»: the face pays and gains at once (all or
    nothing, DW-AMB-15), then the Mine side tops the location its orange box names."""
    face = content.special_of(cid)
    s = stage_mine(start(2, first_player=0))
    s = apply(s, [event("PilesDealt", area=0, piles=[[cid], [], []])])
    s = give(s, 0, **face.cost) if face.cost else s
    after = act(s, 0, {"type": "special", "pile": 0, "pay": False})
    assert holdings(after, 0) == _expected(face), cid
    assert after["areas"][0]["stacks"][CARDS[cid].location][-1] == cid
    assert after["unplaced"][0] == 0 and after["areas"][0]["piles"][0] == []
    if face.cost:   # the same card without the price: nothing paid, nothing gained
        poor = act(apply(stage_mine(start(2, first_player=0)), [event("PilesDealt", area=0, piles=[[cid], [], []])]),
                   0, {"type": "special", "pile": 0, "pay": False})
        assert holdings(poor, 0) == {r: 0 for r in ("iron", "gold", "steel", "object", "medal")}


PENALTIES = {  # (gold, iron) before -> after, for an undefended threat
    "knockers": {(3, 2): (3, 1), (0, 0): (0, 0)},            # «devolver uno de Hierro»
    "dragon": {(3, 2): (2, 2), (0, 0): (0, 0)},              # «devolver uno de Oro»
    "great_dragon": {(3, 2): (0, 2), (0, 0): (0, 0)},        # «devolver al suministro todo el Oro»
    "sidhe": {(3, 2): (1, 4), (1, 0): (0, 1), (0, 0): (0, 0)},  # «reemplazar dos de Oro ... por dos de Hierro»
    "orc_raiders": {(3, 2): (3, 2), (0, 0): (0, 0)},         # takes nothing: it stops an action type
}


@pytest.mark.parametrize("cid", sorted(c for c in CARDS if content.effect_of(c).threat))
def test_DW_GLOS_4_to_8_DW_GLOS_11_every_threat_card_left_undefended(cid):
    """«Knockers: Si no hay defensores en esta carta al final de la ronda, cada jugador debe devolver
    uno de Hierro»; «Dragón: ... uno de Oro»; «Gran Dragón: ... todo el Oro que posea»; «Sidhe: ...
    reemplazar dos de Oro que posea por dos de Hierro. Si un jugador solo tiene uno de Oro, lo
    reemplaza con uno de Hierro»; «Orcos Incursores: ... los jugadores no podrán realizar acciones
    de [Forjar]» (DW-AMB-2). Every player is hit, one with no worker in the Mine too (DW-GLOS-11)."""
    threat = content.effect_of(cid).id
    loc = CARDS[cid].location
    special = "X7" if loc != "31" else "X3"     # Battle Honours (2 Medals) or Quench (2 Steel)
    seat0, forge = [x for x in LOCATIONS if x not in (loc, CARDS[special].location)][:2]
    for (gold, iron), (gold_after, iron_after) in PENALTIES[threat].items():
        s = stage_top(stage_top(stage_mine(start(3, first_player=0)), 0, loc, cid), 0, forge, "S7")
        for p in range(3):
            s = give(s, p, gold=gold, iron=iron, steel=3)
        s = apply(s, [event("PilesDealt", area=0, piles=[[special], [], []])])
        s = place(s, 0, seat0)                                               # a Guard Post
        s = act(s, 1, {"type": "special", "pile": 0, "pay": False})          # no worker in the Mine
        s = place(s, 2, forge)                                               # Forge Sword, 3 Steel held
        s = settle(s)
        for p in range(3):
            assert (s["players"][p]["gold"], s["players"][p]["iron"]) == (gold_after, iron_after), \
                (cid, p, gold, iron)
        forged = s["players"][2]["object"]
        assert forged == (0 if threat == "orc_raiders" else 1), cid


def test_DW_CARD_4_DW_CARD_1_DW_MINE_1_every_mountain_card_lands_on_its_orange_box():
    """«Hay seis cartas de cada ubicación en el mazo (incluyendo las cartas iniciales)» and each
    card is placed «en la localización de la Mina indicada por la zona naranja»: the whole Mountain
    mined phase after phase leaves six cards on every location, each on its own."""
    from domain.dwarf import mining
    from domain.dwarf.evolve import batch
    b = batch(start(2, seed=b"whole-mountain"))
    phases = 1
    while mining.mine(b):
        phases += 1
    stacks = b.state["areas"][0]["stacks"]
    assert b.state["areas"][0]["mountain"] == [] and 15 <= phases <= 23
    for loc, stack in stacks.items():
        assert len(stack) == 6 and all(CARDS[c].location == loc for c in stack), loc


# --- Payment and limits (DW-RES-6, DW-AMB-15, DW-COMP-2, DW-SETUP-5, DW-SPEC-2) ------------------

def test_DW_COMP_2_resources_have_no_limit_but_the_cubes():
    """«Todos los recursos son infinitos, excepto los trabajadores que tienen un límite de 4. Si un
    jugador necesita coger un recurso y no quedara en el suministro, puede representarlo con
    cualquier otra cosa»: 40 Iron (the box has 36 cubes) still grows, 40 Gold still grows."""
    s = give(start(2, first_player=0), 0, iron=40, gold=40)
    s = stage_top(stage_top(stage_mine(s), 0, "11", "S1"), 0, "12", "S2")   # Iron Vein, Gold Vein
    s = settle(place(place(s, 0, "11"), 1, "21"))
    assert (s["players"][0]["iron"], s["players"][0]["gold"]) == (42, 40)


def test_DW_SETUP_5_DW_AMB_12_four_workers_at_most():
    """«los trabajadores que tienen un límite de 4»: two Receive Help workers still bring two
    extra workers, not four."""
    s = stage_mine(start(2, first_player=0), {"11": "S5", "13": "M15"})
    s = place(place(place(s, 0, "11"), 1, "21"), 1, "22")
    s = place(s, 0, "13")
    assert s["phase"] == "help" and s["extras"][0] == 2 and len(s["queue"]) == 2
    s = place(s, 0, "31")
    assert sum(w["player"] == 0 for w in s["workers"].values()) == 3 and len(s["queue"]) == 1
    events = GAME.decide(s, 0, {"type": "place", "mine": 0, "location": "32"}, Drbg(b"t", "v"))
    kinds = [e["type"] for e in events]
    assert kinds[:2] == ["WorkerPlaced", "ResolutionStarted"]    # the fourth worker was the last


def test_DW_SPEC_2_DW_AMB_1_the_two_prices_of_a_special_action():
    """«el jugador coloca sus dos [trabajadores] normales, o gasta 4 [Medallas] y coloca un
    [trabajador] sobre uno de los mazos»: with 3 Medals only the both-workers price is offered;
    with 4, paying leaves the second worker for the second placement and costs exactly 4."""
    s = stage_mine(start(2, first_player=0))
    offered = {(c["pile"], c["pay"]) for c in GAME.legal_commands(give(s, 0, medal=3), 0) if c["type"] == "special"}
    assert offered == {(0, False), (1, False), (2, False)}
    s = give(s, 0, medal=4)
    assert (0, True) in {(c["pile"], c["pay"]) for c in GAME.legal_commands(s, 0) if c["type"] == "special"}
    paid = act(s, 0, {"type": "special", "pile": 0, "pay": True})
    assert paid["players"][0]["medal"] == 4 - 4 + content.special_of(s["areas"][0]["piles"][0][0]).gain.get("medal", 0)
    assert paid["unplaced"][0] == 1 and paid["pile_workers"][0] == 1
    paid = place(paid, 1, "12")
    assert who(paid) == 1 and {"type": "pass"} in GAME.legal_commands(paid, 1)
    paid = passes(paid, 1)
    assert who(paid) == 0 and any(c["type"] == "place" for c in GAME.legal_commands(paid, 0))


def test_DW_SPEC_3_a_pile_is_never_blocked():
    """«El mazo no resulta bloqueado como sí ocurre con las localizaciones de la Mina, y otros
    jugadores pueden usar el mismo mazo de Cartas de Acción Especial en este turno»."""
    s = stage_mine(start(3, first_player=0))
    s = act(s, 0, {"type": "special", "pile": 1, "pay": False})
    s = act(s, 1, {"type": "special", "pile": 1, "pay": False})
    assert len(s["areas"][0]["piles"][1]) == 1 and s["pile_workers"][:2] == [2, 2]


# --- End of the game (DW-END) ------------------------------------------------------------------

def test_DW_END_1_DW_SOLO_1_the_automaton_creating_four_objects_ends_the_game_too():
    """«El juego continua hasta que un jugador crea 4 objetos ... La partida termina cuando se
    completa la ronda actual»; the automaton «se desarrolla como una partida de dos jugadores»: its
    fourth Object ends the game after the round, which is still played to its Defend step."""
    s = mined(stage_mine(solo("eldhusfifl"), {"31": "S7"}), "M07")
    s = give(s, AUTO, object=3, steel=3)
    s = apply(s, [event("WorkerPlaced", player=AUTO, place="0:31", card="S7", action="forge", extra=False,
                        slot="first")])
    s = place(s, 0, "11")                      # a Guard Post: the Defend step gives its Medal
    s = settle(s)
    assert s["ended"] == "four_objects" and s["round"] == 1
    assert s["players"][AUTO]["object"] == 4 and s["players"][AUTO]["created"] == 4
    assert s["players"][0]["medal"] == 1


def test_DW_END_2_DW_MINE_3_the_mountain_running_dry_ends_the_game_at_once_in_every_size():
    """«Cuando hay que robar una carta de La Montaña y no quedan cartas que robar, el juego acaba de
    forma inmediata» (DW-AMB-7), with either Mountain in the two-copy game (DW-COMB-7)."""
    for n, area in ((1, 0), (3, 0), (4, 1)):
        s = start(n, first_player=0) if n > 1 else solo("andvettr")
        s = apply(s, [event("MountainShuffled", area=area, cards=["M01"])])
        s = settle(s)
        assert s["phase"] == "over" and s["ended"] == "mountain_empty" and s["round"] == 2
        assert s["workers"] == {} and GAME.scores(s).final


# --- Final scoring (DW-SCORE, DW-OBJ) ----------------------------------------------------------

def _scored(*rows: dict) -> dict:
    s = start(len(rows))
    for i, row in enumerate(rows):
        s = give(s, i, **row)
    return finish(s)


def test_DW_EX_1_DW_EX_2_the_rulebooks_two_numbered_examples():
    """«Alfredo tiene 4, 9 y 8. Pierde ante Lorena, que tiene 2, 10 y 12 porque ella tiene más
    recursos en dos de tres de las categorías»; «Isabel tiene 4, 9 y 8, y Pablo tiene 2, 9 y 14 ...
    están empatados en el tercero, provocando un empate general. Pablo tiene 9, lo que, comparado
    con las 7 de Isabel, hace que rompa el empate»."""
    board = GAME.scores(_scored({"steel": 4, "gold": 9, "object": 8}, {"steel": 2, "gold": 10, "object": 12}))
    assert board.winners == [1] and [x.total for x in sorted(board.seats, key=lambda x: x.seat)] == [1, 2]
    board = GAME.scores(_scored({"steel": 4, "gold": 9, "object": 8, "medal": 7},
                                {"steel": 2, "gold": 9, "object": 14, "medal": 9}))
    assert board.winners == [1] and [x.total for x in sorted(board.seats, key=lambda x: x.seat)] == [1, 1]


def test_DW_SCORE_4_DW_OBJ_4_tie_breaks_in_the_rulebooks_order():
    """«Los empates son ganados por el jugador con más Medallas. Si perdura el empate, el Hierro es
    el segundo criterio para deshacer empates y los Objetos el tercero»: Medals beat Iron, Iron
    beats Objects, among players level on majorities."""
    base = {"steel": 3, "gold": 3, "object": 0}
    board = GAME.scores(_scored({**base, "medal": 2, "iron": 0}, {**base, "medal": 1, "iron": 9}))
    assert board.winners == [0]
    board = GAME.scores(_scored({**base, "medal": 1, "iron": 2}, {**base, "medal": 1, "iron": 1}))
    assert board.winners == [0]
    # Objects decide only between players level on majorities, Medals and Iron (as Carlos and Rafa)
    board = GAME.scores(_scored({"steel": 2, "gold": 5, "object": 3, "medal": 1, "iron": 1},
                                {"steel": 4, "gold": 5, "object": 2, "medal": 1, "iron": 1}))
    assert board.winners == [0]
    board = GAME.scores(_scored({**base, "medal": 1}, {**base, "medal": 1}))
    assert board.winners == [0, 1] and board.result().kind == "shared"     # DW-AMB-21


def test_DW_SCORE_2_DW_AMB_20_majorities_with_five_players():
    """«será el jugador que consiga ostentar más mayorías entre las tres categorías»: with five
    players a category tied at the top goes to nobody; tie-breaks only among those level on the
    most majorities (a player with more Medals but fewer majorities does not win)."""
    rows = [{"steel": 5, "gold": 1, "object": 0, "medal": 0},
            {"steel": 5, "gold": 2, "object": 0, "medal": 9},
            {"steel": 1, "gold": 7, "object": 0, "medal": 0},
            {"steel": 0, "gold": 0, "object": 2, "medal": 1},
            {"steel": 0, "gold": 0, "object": 0, "medal": 20}]
    board = GAME.scores(_scored(*rows))
    totals = {x.seat: x.total for x in board.seats}
    assert totals == {0: 0, 1: 0, 2: 1, 3: 1, 4: 0}
    assert board.winners == [3]                # 1 Medal beats 0 between the two with one majority


def test_DW_SOLO_1_DW_END_3_DW_END_4_the_automaton_is_scored_like_a_player():
    """«El juego se desarrolla como una partida de dos jugadores»: the automaton's Steel, Gold and
    Objects count for majorities; it can win on them (no seat wins then)."""
    s = give(give(solo("eldhusfifl"), AUTO, steel=3, gold=3), 0, object=1)
    board = GAME.scores(finish(s))
    assert board.result().kind == "no_player_wins" and board.result().winners == ("actor:automaton",)


# --- The automata played through (DW-SOLO, DW-ELD, DW-AND, DW-FAD) -----------------------------

def test_DW_ELD_2_DW_MINE_2_the_first_worker_reads_the_third_card_when_one_is_drawn():
    """«se comprueba la rejilla de referencia de la carta de Montaña que se añadió más recientemente
    a la Mina en la Fase de Extracción de minerales»: when two cards for L(2,3) bring a third card
    (M07, Gold Vein at L(1,2), primary icon L(1,2)), the third is the one read."""
    for level in LEVELS:
        s = solo(level)
        s = apply(s, [event("MountainShuffled", area=0, cards=["M26", "M27", "M07", "M01", "M02"])])
        s = settle(s)
        assert s["round"] == 2 and s["last_mined"] == {"area": 0, "card": "M07"}
        s = step_actor(s)
        first = [w for w, x in s["workers"].items() if x["player"] == AUTO]
        assert first == ["0:12"], level


def test_DW_SOLO_5_DW_ELD_5_receive_help_brings_both_extras_at_once_in_the_row():
    """«Coloca inmediatamente sus extra conseguidos con la acción Obtener ayuda, sin esperar a la Fase
    de Resolución de Acciones» and «colocará los dos adicionales en la misma fila que esté la
    localización»: Receive Help at L(1,1) (M05, primary icon L(1,1)) fills L(1,2) and L(1,3)."""
    for level in LEVELS:
        s = mined(stage_mine(solo(level), {"11": "M05"}), "M05")
        s = step_actor(s)
        mine = {w: x["extra"] for w, x in s["workers"].items() if x["player"] == AUTO}
        assert mine == {"0:11": False, "0:12": True, "0:13": True}, level
        assert who(s) == 0 and not any(c.get("location") in ("11", "12", "13") for c in GAME.legal_commands(s, 0))


def test_DW_ELD_5_DW_AMB_27_DW_FAD_2_father_puts_extras_only_where_he_can_use_them():
    """Eldhúsfífl's extras go to the row; Andvéttr faðir «nunca ocupará una localización que no
    pueda usar», so with a Forge Sword he cannot pay in the row he turns to the column."""
    cards = {"11": "M05", "12": "S7", "13": "S2", "21": "S1", "31": "S2"}
    s = mined(stage_mine(solo("andvettr-fadir"), cards), "M05")
    assert automaton.extras(s, AUTO, "eldhusfifl", "0:11") == ["0:12", "0:13"]
    assert automaton.extras(s, AUTO, "andvettr", "0:11") == ["0:12", "0:13"]
    assert automaton.extras(s, AUTO, "andvettr-fadir", "0:11") == ["0:21", "0:31"]


@pytest.mark.parametrize("level", LEVELS)
def test_DW_SOLO_3_DW_FP_4_the_automatons_order_never_changes(level):
    """«Siempre inicia la ronda. El orden de juego no se altera bajo ninguna circunstancia»: the
    automaton, holding the first-player marker, takes Receive Help and forges, and still leads the
    next round; no MarkerPassed is ever emitted."""
    s = mined(stage_mine(solo(level), {"11": "M05", "12": "S7", "13": "S7"}), "M05")
    s = give(s, AUTO, steel=6)
    s = step_actor(s)
    s = place(s, 0, "21")
    s = step_actor(s)
    s = settle(s)
    assert s["round"] == 2 and s["first"] == AUTO and s["players"][AUTO]["created"] >= 1
    assert GAME.turn(s).actor == "automaton"


def test_DW_ELD_3_DW_ELD_4_the_second_worker_reads_the_humans_card_played_through():
    """«Para colocar al segundo se comprueba la rejilla de referencia de la carta en la que
    colocaste tu primer [trabajador] ... Si Eldhúsfifl no puede colocar su [trabajador] ahí, porque
    se halle ocupada, Eldhúsfifl escogerá la localización que coincida con el icono a»: the human
    on M27 (Iron Vein at L(2,3), icons L(2,3) then L(3,3)) sends Eldhúsfífl to L(3,3)."""
    s = mined(stage_mine(solo("eldhusfifl"), {"23": "M27"}), "M07")
    s = step_actor(s)          # M07's primary: L(1,2)
    s = place(s, 0, "23")
    s = step_actor(s)
    assert sorted(w for w, x in s["workers"].items() if x["player"] == AUTO) == ["0:12", "0:33"]


def test_DW_AND_4_the_scan_moves_left_to_right_from_the_rejected_location_played_through():
    """«Si Andvéttr no puede aprovechar una localización al 100%, porque, por ejemplo, no tenga los
    recursos necesarios ... Moviéndose de izquierda a derecha desde la localización rechazada, se
    colocará en la primera localización que pueda ocupar. Si no hubiera ninguna, volverá a la
    localización original»: his first worker, read from M08 (Forge Axe, primary L(1,3)), skips
    the unaffordable forge to the next usable location; Eldhúsfífl stays on it."""
    cards = {loc: "S7" for loc in LOCATIONS}
    cards.update({"12": "M08", "21": "S2"})
    for level, where in (("eldhusfifl", "0:13"), ("andvettr", "0:21"), ("andvettr-fadir", "0:21")):
        s = mined(stage_mine(solo(level), cards), "M08")
        s = step_actor(s)
        assert [w for w, x in s["workers"].items() if x["player"] == AUTO] == [where], level
    cards["21"] = "S7"
    cards["11"] = "S2"      # the only usable location lies before the rejected one
    for level, where in (("andvettr", ["0:13"]), ("andvettr-fadir", ["0:11"])):
        s = mined(stage_mine(solo(level), cards), "M08")
        s = step_actor(s)
        assert [w for w, x in s["workers"].items() if x["player"] == AUTO] == where, level


def test_DW_AND_6_DW_AND_7_DW_AND_8_glory_medals_the_cap_and_more_than_twelve():
    """«Por la primera Acción Especial, él gana una, por la segunda gana dos, y por la tercera, tres.
    No puedes realizar más de tres Acciones Especiales durante la partida. Si Andvéttr acumula más
    de 12 en cualquier momento, gana inmediatamente la partida»: over three rounds he gains 1, 2 and
    3 Medals for them; no fourth is offered; 12 Medals are not a win, 13 are."""
    for level in ("andvettr", "andvettr-fadir"):
        s = solo(level, first_player=None)
        glory = []
        for _ in range(3):
            while who(s) == "automaton":
                s = step_actor(s)
            pile = next(p for p in range(3) if s["areas"][0]["piles"][p])
            events = GAME.decide(s, 0, {"type": "special", "pile": pile, "pay": False}, Drbg(b"t", "v"))
            glory += [e["data"]["delta"]["medal"] for e in events
                      if e["type"] == "Gained" and e["data"]["why"] == "glory" and e["data"]["player"] == AUTO]
            s = settle(apply(s, events))
        assert glory == [1, 2, 3], level
        while who(s) == "automaton":
            s = step_actor(s)
        assert not any(c["type"] == "special" for c in GAME.legal_commands(s, 0))
    s = give(mined(stage_mine(solo("andvettr")), "M07"), AUTO, medal=11)
    s = act(step_actor(s), 0, {"type": "special", "pile": 0, "pay": False})
    assert s["players"][AUTO]["medal"] == 12 and s["phase"] != "over"
    s = give(mined(stage_mine(solo("andvettr")), "M07"), AUTO, medal=12)
    s = act(step_actor(s), 0, {"type": "special", "pile": 0, "pay": False})
    assert s["phase"] == "over" and s["ended"] == "automaton_medals" and s["players"][AUTO]["medal"] == 13


def test_DW_AND_6_DW_AMB_33_eldhusfifl_gains_nothing_from_special_actions():
    """Andvéttr's glory is his own («Andvéttr se regodea en la batalla»): Eldhúsfífl gains no Medal
    when the human takes a Special Action, and more than 12 Medals win him nothing."""
    s = give(mined(stage_mine(solo("eldhusfifl")), "M07"), AUTO, medal=12)
    s = act(step_actor(s), 0, {"type": "special", "pile": 0, "pay": False})
    assert s["players"][AUTO]["medal"] == 12
    s = settle(give(s, AUTO, medal=1))        # 13, and his Guard Posts bring more in the Defend step
    assert s["players"][AUTO]["medal"] > 13 and s["ended"] is None and s["round"] == 2


def test_DW_SOLO_6_the_automaton_never_takes_a_special_action():
    """«Nunca realiza Acciones Especiales»: over a whole game against each automaton, every
    Special Action taken is the human's."""
    for level in LEVELS:
        s = solo(level, round_limit=6)
        takers = set()
        for step in range(400):
            turn = GAME.turn(s)
            if turn.terminal:
                break
            if turn.actor:
                events = GAME.decide_actor(s, "automaton", Drbg(b"a", f"{step}"))
            else:
                legal = GAME.legal_commands(s, 0)
                cmd = next((c for c in legal if c["type"] == "special"), legal[0])
                events = GAME.decide(s, 0, cmd, Drbg(b"h", f"{step}"))
            takers |= {e["data"]["player"] for e in events if e["type"] == "SpecialActionTaken"}
            s = apply(s, events)
        assert takers <= {0}, level


# --- The defect fixed in dwarf-6 (DW-SPEC-6) ---------------------------------------------------

OLD = registry.get("dwarf", "dwarf-5")

TWO_SPECIALS_FOR_ONE_LOCATION = """
    dwarf 3 seed=dwarf options={"first_player": 0}
    given cards.X2.location = "11"        # printed data may send two Special Action cards to one location
    areas.0.piles = [["X1"], ["X2"], ["X7"]]
"""


def positioned(game, source: str) -> tuple:
    """``source`` (a text position with ``given`` lines) started and edited under ``game``'s rules."""
    p = text.parse(source)
    g = WithContent(game, text.tables(p, game.content_tables))
    seats = [Seat(i, f"p{i}") for i in range(p.seats)]
    s = fold(g, g.start(g.validate_options(p.options, p.seats), seats, Drbg(p.seed.encode(), "start")))
    with g.given():
        return g, text.apply(s, p, g.position_verbs)


def run(game, s: dict, seat: int, command: dict) -> tuple[dict, list]:
    events = game.decide(s, seat, command, Drbg(b"t", "v"))
    return fold(game, events, game.load_state(s)), events


def test_DW_SPEC_6_a_worker_covered_twice_in_a_round_acts_once_on_its_own_card():
    """«Si ya hubiera un [trabajador] en esta ubicación, el jugador propietario de ese [trabajador]
    ejecuta ahora la acción de la carta de Mina original antes de que la nueva carta sea colocada.
    El [trabajador] se mantiene en este lugar para bloquear la nueva localización durante este
    turno. Este no se ejecuta de nuevo en esta ronda.» Seat 0 stands on Iron Vein at L(1,1); seat 1
    takes X1, whose Mine side (Deep Iron Vein) covers it: seat 0 gains its 2 Iron. Seat 2 takes X2,
    whose Mine side also belongs to L(1,1) (given content: the shipped cards each have their own
    location): seat 0 does not act again. dwarf-5 let it carry out X1's Deep Iron Vein too (+3)."""
    for game, iron in ((GAME, 2), (OLD, 5)):
        g, s = positioned(game, TWO_SPECIALS_FOR_ONE_LOCATION)
        s, _ = run(g, s, 0, {"type": "place", "mine": 0, "location": "11"})
        s, _ = run(g, s, 1, {"type": "special", "pile": 0, "pay": False})
        assert s["players"][0]["iron"] == 2 and s["workers"]["0:11"]["done"]
        s, events = run(g, s, 2, {"type": "special", "pile": 1, "pay": False})
        assert s["players"][0]["iron"] == iron, game.rules_version
        assert s["areas"][0]["stacks"]["11"][-2:] == ["X1", "X2"] and s["workers"]["0:11"]["player"] == 0
        acted = [e["type"] for e in events if e["data"].get("place") == "0:11"]
        assert acted == (["CardPlacedInMine"] if game is GAME else
                         ["ActionResolved", "WorkerActedEarly", "CardPlacedInMine"])
    assert GAME.rules_version == "dwarf-6" and OLD.rules_version == "dwarf-5"


@pytest.mark.parametrize("name", ["dwarf-5-3-greedy", "dwarf-5-1-greedy-andvettr"])
def test_DW_SPEC_6_dwarf_6_plays_the_shipped_cards_as_dwarf_5_did(name):
    """Each shipped Special Action card has a location of its own (DW-GAP-3), so no worker is covered
    twice in a round with them: the stored dwarf-5 records, relabelled dwarf-6, replay unchanged."""
    import json
    from pathlib import Path

    from application.replay import verify
    from tests.support.forge import rechain
    assert len({CARDS[c].location for c in content.of_kind("special")}) == 9
    envs = [json.loads(line) for line in
            (Path(__file__).resolve().parents[1] / "data" / f"{name}.ndjson").read_text().splitlines()]
    for env in envs:
        env["rules_version"] = "dwarf-6"
    envs[0]["data"]["rules_version"] = "dwarf-6"
    verdict = verify(rechain(envs))
    assert verdict.chain_ok and verdict.replay_ok and verdict.rules_version == "dwarf-6"
