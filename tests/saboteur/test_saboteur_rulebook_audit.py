"""An outside rules audit of Saboteur against the original Spanish rulebook (/work/shared/seeds,
file 001), read section by section: Preparación (the deal at every table size, the start and goal
cards), Desarrollo de la partida (a turn, drawing), Jugar una carta de camino, the action cards
(broken tools, repairs, rockfall, map), Pasar, Final de una ronda (the goals turned up, the cards
running out), Repartir el oro, Empezar una nueva ronda and Fin de la partida.

Each test quotes the sentence it checks and cites the rule ids of domain/saboteur/RULES.md. The
expected values are written out from the rulebook here (not read back from the content tables),
so a wrong table or a wrong rule fails. Where the rulebook is silent or open, the test says which
of Delve's rulings (SAB-AMB-n) it keeps.

The audit found no place where the engine (saboteur-1) disagrees with the rulebook, so no rules
version was added.
"""
from __future__ import annotations

from collections import Counter

import pytest
from saboteur_support import (
    Table,
    action_card,
    card_for,
    cards_run_out,
    data,
    path_card,
    play,
    treasure_found_by,
)

from domain.core import Illegal
from domain.saboteur.content import CARDS, GOLD, SHAPES
from domain.saboteur.rules import GAME
from tests.support.positions import edit

# «3 jugadores: 1 saboteador y 3 mineros ... 10 jugadores: todas las cartas de enanos» (7 mineros,
# 4 saboteadores in the contents list).
ROLE_CARDS = {3: (1, 3), 4: (1, 4), 5: (2, 4), 6: (2, 5), 7: (3, 5), 8: (3, 6), 9: (3, 7), 10: (4, 7)}
# «3 a 5 jugadores: ... 6 cartas. 6 a 7 jugadores: ... 5 cartas. 8 a 10 jugadores: ... 4 cartas.»
HAND = {3: 6, 4: 6, 5: 6, 6: 5, 7: 5, 8: 4, 9: 4, 10: 4}
PLAYING_DECK = 40 + 27  # 44 path cards less the start and 3 goals, and the action cards (SAB-GAP-2)


def table(players: int = 5, **options) -> Table:
    return Table(players, first_player=0, **options)


def refused(t: Table, seat: int, command: dict) -> tuple[str, str]:
    with pytest.raises(Illegal) as exc:
        t.do(seat, command)
    assert command not in GAME.legal_commands(t.state, seat)
    return exc.value.code, exc.value.rule


def in_hand(t: Table, seat: int, *preds) -> list[str]:
    """Free cards matching ``preds``, all put into ``seat``'s hand at once."""
    cards: list[str] = []
    for pred in preds:
        cards.append(t.free(lambda c, pred=pred: pred(c) and c.id not in cards))
    t.give(seat, *cards)
    return cards


def tunnel_to(t: Table, last_x: int) -> None:
    """Staged tunnel cards with a W-E way through on (1,0) .. (last_x,0)."""
    for x in range(1, last_x + 1):
        t.place_ew(x, 0)


# --- Preparación: the deal at every table size --------------------------------------------------

@pytest.mark.parametrize("n", range(3, 11))
def test_SAB_ROLE_1_SAB_ROLE_2_SAB_ROLE_3_SAB_SETUP_5_SAB_SETUP_6_the_deal_at_every_table_size(n):
    """«Se pone la cantidad indicada de mineros y saboteadores en una pila y se baraja. Se reparte
    una carta a cada jugador ... La carta sobrante se deja a un lado (también boca abajo) hasta el
    final de la ronda»; «El resto de cartas de camino y todas las cartas de acción se ponen en una
    pila, se baraja y se reparte a cada jugador una cantidad de cartas» (6 at 3-5, 5 at 6-7, 4 at
    8-10); «Es resto de cartas se ponen junto a las cartas de fin ... formando una baraja»."""
    t = Table(n, seed=f"audit-deal-{n}".encode(), first_player=n - 1)
    s = t.state
    saboteurs, miners = ROLE_CARDS[n]
    assert len(s["roles"]) == n and s["leftover"] in ("miner", "saboteur")
    assert Counter(s["roles"] + [s["leftover"]]) == Counter({"saboteur": saboteurs, "miner": miners})
    assert [len(h) for h in s["hands"]] == [HAND[n]] * n
    assert len(s["deck"]) == PLAYING_DECK - n * HAND[n]
    every = [c for h in s["hands"] for c in h] + s["deck"]
    assert sorted(every) == sorted(CARDS) and len(set(every)) == PLAYING_DECK  # paths and actions together
    assert s["discard"] == [] and not any(s["broken"])
    assert len(s["gold_deck"]) == 28 and sorted(s["gold_deck"]) == sorted(GOLD)  # «28 cartas de pepitas»
    # Each seat sees its own role only (SAB-ROLE-2); nobody sees the leftover (SAB-ROLE-3).
    for seat in range(n):
        v = GAME.view(t.state, seat)
        assert v["you"]["role"] == s["roles"][seat] and v["leftover_role"] is None
        assert [p["role"] for p in v["players"] if p["seat"] != seat] == [None] * (n - 1)
    assert GAME.active_seats(s) == {n - 1}


def test_SAB_ROLE_4_SAB_NEXT_3_every_round_deals_the_same_role_cards_again():
    """«Se barajan las mismas cartas de enano que se usaron en la ronda anterior (incluyendo la que
    se dejó aparte) y se reparten de nuevo.» Seen over the three rounds of a 7-player game."""
    t = table(7, gold_choice="auto")
    dealt = []
    for rnd in (1, 2, 3):
        assert t.state["round"] == rnd
        dealt.append(Counter(t.state["roles"] + [t.state["leftover"]]))
        cards_run_out(t, 0)
    assert dealt == [Counter({"saboteur": 3, "miner": 5})] * 3


def test_SAB_COMP_1_SAB_COMP_2_SAB_SETUP_3_SAB_GRID_2_start_and_goal_cards():
    """«Entre las 44 cartas de camino, hay una carta de inicio (mostrando una escalera) y tres cartas
    de fin. De las tres últimas una de ellas tiene el tesoro, mientras que las otras dos muestran tan
    sólo una piedra. Se barajan las cartas de fin y se ponen (boca abajo) en la mesa junto con la
    carta de inicio (boca arriba)»; «espacio de siete cartas», «espacio de un carta» between goals
    (the layout of SAB-GRID-2, SAB-AMB-1)."""
    box = GAME.content()
    assert len([c for c in box["cards"] if c["kind"] == "path"]) + 1 + 3 == 44
    assert Counter(box["goal_shapes"]) == Counter({"treasure": 1, "stone-ne": 1, "stone-nw": 1})
    s = table().state
    assert s["maze"] == {"0,0": {"card": "start", "shape": "ladder", "rotated": False, "by": None}}
    assert {g: (i["x"], i["y"], i["revealed"]) for g, i in s["goals"].items()} == \
        {"A": (8, -2, False), "B": (8, 0, False), "C": (8, 2, False)}
    assert sorted(i["shape"] for i in s["goals"].values()) == ["stone-ne", "stone-nw", "treasure"]
    assert all(g["shape"] is None for g in GAME.view(s, 0)["goals"].values())  # face down
    # The goals are shuffled: over a few deals the treasure lies under more than one of them.
    spots = {next(g for g, i in Table(5, seed=f"goals{k}".encode()).state["goals"].items()
                  if i["shape"] == "treasure") for k in range(12)}
    assert len(spots) > 1


def test_SAB_SETUP_8_SAB_AMB_22_the_first_player():
    """«El jugador más joven empieza, y se juega en sentido horario.» A server knows no ages: the host
    names the first seat (``first_player``) or the game draws one with its seeded randomness
    (SAB-AMB-22); that seat is dealt first and plays first."""
    for first in (0, 2, 4):
        t = table(5) if first == 0 else Table(5, first_player=first)
        assert t.turn == first and data(t.events, "RoundStarted") == [{"round": 1, "first_seat": first}]
        assert data(t.events, "HandDealt")[0]["seat"] == first
    drawn = {Table(5, seed=f"first{k}".encode()).turn for k in range(16)}
    assert len(drawn) > 2


# --- Desarrollo de la partida: a turn -----------------------------------------------------------

def test_SAB_TURN_1_SAB_TURN_2_SAB_TURN_3_one_card_then_the_top_card_then_the_next_player_clockwise():
    """«En su turno, un jugador primero debe jugar una carta ... Después de esto, el jugador toma la
    carta superior de la reserva a su mano. Con esto acaba su turno, y empieza el del siguiente
    jugador»; «se juega en sentido horario» (next clockwise is the next seat, SAB-GRID-1)."""
    t = table(4)
    for seat in (0, 1, 2, 3, 0):
        assert t.turn == seat
        top = t.state["deck"][0]
        card = t.state["hands"][seat][0]
        evs = t.do(seat, {"type": "pass", "card": card})
        assert t.types(evs) == ["CardDiscarded", "CardDrawn", "TurnStarted"]
        assert data(evs, "CardDrawn") == [{"seat": seat, "card": top}]
        assert data(evs, "TurnStarted") == [{"seat": (seat + 1) % 4}]
        assert len(t.state["hands"][seat]) == 6
    assert refused(t, 0, {"type": "pass", "card": t.state["hands"][0][0]})[0] == "not_your_turn"


def test_SAB_TURN_4_once_the_draw_pile_is_gone_a_turn_is_only_the_card():
    """«Nota: Una vez se acabe la reserva, los jugadores ya no toman cartas; un turno consistirá
    entonces sólo en jugar una carta.»"""
    t = table()
    t.empty_deck()
    evs = t.do(0, {"type": "pass", "card": t.state["hands"][0][0]})
    assert t.types(evs) == ["CardDiscarded", "TurnStarted"] and len(t.state["hands"][0]) == 5


# --- Jugar una carta de camino ------------------------------------------------------------------

def test_SAB_PATH_3_SAB_PATH_4_SAB_PATH_5_beside_a_card_on_the_table_with_every_side_fitting():
    """«Una carta de camino se debe poner siempre al lado de una carta de camino que ya esté en la
    mesa. Los caminos en todos los lados de la carta deben encajar con los que ya estén en juego.»"""
    t = table()
    straight, upright = in_hand(t, 0, path_card("straight-ew"), path_card("straight-ns"))
    # Not beside any card: (2,0) is two cells from the start.
    assert refused(t, 0, {"type": "play_path", "card": straight, "x": 2, "y": 0}) == ("not_adjacent", "SAB-PATH-4")
    # Beside the start but its closed west side meets the start's open east side.
    assert refused(t, 0, {"type": "play_path", "card": upright, "x": 1, "y": 0}) == ("edges_mismatch", "SAB-PATH-5")
    assert refused(t, 0, {"type": "play_path", "card": straight, "x": 0, "y": 0}) == ("cell_occupied", "SAB-PATH-3")
    t.place("straight-ns", 1, -1)  # a neighbour above (1,0), open to the south
    # (1,0) now touches the start (east open) and (1,-1) (south open): E-W alone fits one side only.
    assert refused(t, 0, {"type": "play_path", "card": straight, "x": 1, "y": 0}) == ("edges_mismatch", "SAB-PATH-5")
    cross = card_for(t, 0, path_card("cross"))
    evs = t.do(0, {"type": "play_path", "card": cross, "x": 1, "y": 0, "rotated": False})
    assert data(evs, "PathPlaced")[0]["x"] == 1 and t.state["maze"]["1,0"]["card"] == cross
    assert t.state["last_player"] == 0 and t.types(evs)[1:] == ["CardDrawn", "TurnStarted"]


def test_SAB_PATH_2_SAB_AMB_6_never_crosswise():
    """«Una carta de camino nunca se puede jugar transversalmente (ver la ilustración).» A card
    lies upright or turned half-way round (the picture is lost: SAB-AMB-6); a N-S straight is never
    an E-W one, and a command cannot name any other angle."""
    t = table()
    card = card_for(t, 0, path_card("straight-ns"))
    for rotated in (False, True):
        assert refused(t, 0, {"type": "play_path", "card": card, "x": 1, "y": 0, "rotated": rotated}) == \
            ("edges_mismatch", "SAB-PATH-5")
    with pytest.raises(Illegal):  # no angle but the half turn can be named
        t.do(0, {"type": "play_path", "card": card, "x": 1, "y": 0, "rotation": 90})
    curve = card_for(t, 0, path_card("curve-ne"))  # N, E upright; S, W turned round
    evs = t.do(0, {"type": "play_path", "card": curve, "x": 1, "y": 0, "rotated": True})
    assert GAME.view(t.state, 0)["maze"]["1,0"]["edges"] == "SW"
    assert data(evs, "PathPlaced")[0]["rotated"] is True


def test_SAB_PATH_7_SAB_AMB_3_the_rulebook_asks_no_tunnel_back_to_the_start():
    """Ambiguity kept. The rulebook asks only «al lado de una carta de camino que ya esté en la mesa»
    and «Los caminos en todos los lados de la carta deben encajar»; it never asks the new card to
    join a tunnel from the start, so a card touching the maze through closed sides is legal
    (SAB-AMB-3), unless the table option ``require_connection_to_start`` says otherwise."""
    for require, expected in ((False, None), (True, ("not_connected", "SAB-AMB-3"))):
        t = table(require_connection_to_start=require)
        t.place("straight-ew", 1, 0)
        card = card_for(t, 0, path_card("straight-ew"))  # at (1,1): north side closed, as (1,0)'s south
        cmd = {"type": "play_path", "card": card, "x": 1, "y": 1, "rotated": False}
        if expected:
            assert refused(t, 0, cmd) == expected
        else:
            t.do(0, cmd)
            assert t.state["maze"]["1,1"]["card"] == card


def test_SAB_GRID_3_the_tunnels_may_grow_past_the_five_by_nine_area():
    """«Se debe tener en cuenta que estos caminos se puede extender más allá de los bordes del área de
    5 por 9 mostrada en la ilustración.» West of the start and above the top goal's row."""
    t = table()
    play(t, "straight-ew", -1, 0, seat=0)
    t.place("straight-ns", 0, -1)
    t.place("straight-ns", 0, -2)
    evs = play(t, "straight-ns", 0, -3, seat=1)
    assert data(evs, "PathPlaced")[0]["y"] == -3 and {"-1,0", "0,-3"} <= set(t.state["maze"])


def test_SAB_PATH_4_SAB_AMB_2_a_face_down_goal_is_no_neighbour_to_build_on():
    """Ambiguity kept. The goals are path cards («Entre las 44 cartas de camino, hay una carta de
    inicio ... y tres cartas de fin») and a path card goes «al lado de una carta de camino que ya esté
    en la mesa», but the tunnels of a face-down goal are hidden, so «Los caminos en todos los lados de
    la carta deben encajar» cannot be checked against it. Delve's ruling SAB-AMB-2: a face-down goal
    neither gives the adjacency nor constrains the fit."""
    t = table()
    card = card_for(t, 0, path_card("cross"))
    for x, y in ((9, 0), (8, -1), (8, 1)):  # touching only face-down goals
        assert refused(t, 0, {"type": "play_path", "card": card, "x": x, "y": y, "rotated": False}) == \
            ("not_adjacent", "SAB-PATH-4")
    t.place("straight-ew", 7, -1, by=None)  # a face-up card beside (8,-1)
    t.do(0, {"type": "play_path", "card": card, "x": 8, "y": -1, "rotated": False})
    assert t.state["maze"]["8,-1"]["card"] == card  # its N and S sides face the goals, unchecked


def test_SAB_CONN_2_SAB_ROCK_4_a_dead_end_reaches_no_goal():
    """«un minero puede eliminar un callejón sin salida»: a dead end interrupts the way, so a dead
    end laid against a goal does not make «un camino ininterrumpido desde la carta de inicio» and
    the goal stays face down."""
    t = table()
    t.set_goals(A="stone-nw", B="treasure", C="stone-ne")
    tunnel_to(t, 6)
    evs = play(t, "dead-ew", 7, 0)  # open west and east, the two not joined
    assert "GoalRevealed" not in t.types(evs) and not t.state["goals"]["B"]["revealed"]
    assert t.state["phase"] == "play" and t.turn == 1
    assert SHAPES["dead-ew"].dead_end and not SHAPES["straight-ew"].dead_end


def test_SAB_TOOL_4_SAB_PATH_6_SAB_AMB_4_a_broken_tool_blocks_path_cards_only():
    """«Si una de estas cartas se pone delante de un jugador, ese jugador no podrá jugar una carta de
    camino mientras tenga delante la carta. Por supuesto, aún puede jugar los otros tipos de cartas»;
    «Un jugador sólo puede añadir cartas de camino al laberinto cuando no tenga ninguna de estas
    cartas delante de él al principio de su turno» (a turn plays one card, so checking when the
    path card is played is the same: SAB-AMB-4)."""
    t = table()
    edit(GAME, t.state, "broken 0 lantern by=3")
    path, repair = in_hand(t, 0, path_card("straight-ew"), action_card("repair", "lantern"))
    assert refused(t, 0, {"type": "play_path", "card": path, "x": 1, "y": 0, "rotated": False}) == \
        ("tools_broken", "SAB-TOOL-4")
    kinds = {c["type"] for c in GAME.legal_commands(t.state, 0)}
    assert "play_path" not in kinds and {"repair", "pass"} <= kinds
    t.do(0, {"type": "repair", "card": repair, "target": 0, "tool": "lantern"})
    assert t.turn == 1 and t.state["broken"][0] == {}  # repaired, but that was the turn's card
    assert any(c["type"] == "play_path" for c in GAME.legal_commands(t.state, 1))


# --- Jugar una carta de acción: herramientas rotas y reparaciones ------------------------------

def test_SAB_TOOL_1_SAB_TOOL_2_SAB_TOOL_3_one_broken_tool_of_each_kind_three_at_most():
    """«Un jugador puede tener, como máximo, tres de estas cartas de herramienta rota, pero sólo una
    de cada tipo.» Played «boca arriba delante de uno mismo o de otro jugador» (oneself: SAB-AMB-7)."""
    t = table()
    for tool in ("pick", "lantern", "cart"):
        t.set_turn(0)
        card = card_for(t, 0, action_card("break", tool))
        evs = t.do(0, {"type": "break_tool", "card": card, "target": 2})
        assert data(evs, "ToolBroken")[0] == {"seat": 0, "card": card, "target": 2, "tool": tool}
    assert sorted(t.state["broken"][2]) == ["cart", "lantern", "pick"]
    t.set_turn(0)
    for tool in ("pick", "lantern", "cart"):
        card = card_for(t, 0, action_card("break", tool))
        assert refused(t, 0, {"type": "break_tool", "card": card, "target": 2}) == \
            ("tool_already_broken", "SAB-TOOL-3")
    own = card_for(t, 0, action_card("break", "pick"))
    t.do(0, {"type": "break_tool", "card": own, "target": 0})  # on oneself (SAB-AMB-7)
    assert list(t.state["broken"][0]) == ["pick"]


def test_SAB_REP_2_SAB_REP_3_SAB_EX_7_a_repair_mends_the_same_tool_and_both_cards_are_discarded():
    """«si delante de un jugador hay una vagoneta rota, sólo puede ser reparada con una vagoneta
    intacta, no por una linterna ni un pico»; «Se pueden jugar enfrente de uno mismo, o delante de
    otro jugador. En ambos casos, la carta de reparación y la herramienta rota se ponen en la pila
    de descartes.»"""
    t = table()
    edit(GAME, t.state, "broken 2 cart by=3")
    broken = t.state["broken"][2]["cart"]["card"]
    for tool in ("lantern", "pick"):
        card = card_for(t, 0, action_card("repair", tool))
        assert refused(t, 0, {"type": "repair", "card": card, "target": 2, "tool": tool}) == \
            ("nothing_to_repair", "SAB-REP-4")
        assert refused(t, 0, {"type": "repair", "card": card, "target": 2, "tool": "cart"}) == \
            ("tool_not_on_card", "SAB-REP-3")
    card = card_for(t, 0, action_card("repair", "cart"))
    evs = t.do(0, {"type": "repair", "card": card, "target": 2})
    assert data(evs, "ToolRepaired")[0] == {"seat": 0, "card": card, "target": 2, "tool": "cart",
                                            "broken_card": broken}
    assert t.state["broken"][2] == {}
    assert t.state["discard"][-2:] == [{"card": card, "face_up": True, "by": 0},
                                       {"card": broken, "face_up": True, "by": 0}]
    assert GAME.view(t.state, 4)["discard_face_up"][-2:] == [card, broken]


@pytest.mark.parametrize("pair", [("pick", "lantern"), ("pick", "cart"), ("lantern", "cart")])
def test_SAB_REP_1_SAB_REP_5_SAB_AMB_8_a_two_tool_repair_mends_one_of_them_not_both(pair):
    """«También hay cartas de reparación que tienen dos herramientas. Si se juega una de estas
    cartas, se puede usar para reparar una de las dos herramientas indicadas, pero no ambas.» The
    player names the one (SAB-AMB-8)."""
    t = table()
    edit(GAME, t.state, f"broken 1 {pair[0]} by=3\nbroken 1 {pair[1]} by=3")
    card = card_for(t, 0, action_card("repair", *pair))
    assert refused(t, 0, {"type": "repair", "card": card, "target": 1}) == ("tool_required", "SAB-AMB-8")
    t.do(0, {"type": "repair", "card": card, "target": 1, "tool": pair[1]})
    assert list(t.state["broken"][1]) == [pair[0]]  # one mended, the other still broken
    assert not any(c["type"] == "play_path" for c in GAME.legal_commands(t.state, 1))


def test_SAB_REP_4_SAB_ACT_3_a_repair_needs_a_matching_broken_tool_on_the_table():
    """«Nota: Todas las cartas de reparación sólo se pueden jugar si hay la correspondiente
    herramienta rota delante de un jugador.»"""
    t = table()
    card = card_for(t, 0, action_card("repair", "pick", "lantern"))
    assert not [c for c in GAME.legal_commands(t.state, 0) if c["type"] == "repair"]
    assert refused(t, 0, {"type": "repair", "card": card, "target": 0, "tool": "pick"}) == \
        ("nothing_to_repair", "SAB-REP-4")
    edit(GAME, t.state, "broken 3 lantern by=1")
    assert [c for c in GAME.legal_commands(t.state, 0) if c["type"] == "repair"] == \
        [{"type": "repair", "card": card, "target": 3, "tool": "lantern"}]


# --- El derrumbamiento y el mapa ----------------------------------------------------------------

def test_SAB_ROCK_1_SAB_ROCK_2_SAB_ROCK_3_a_rockfall_takes_a_path_card_but_never_start_or_goal():
    """«Un jugador se pone esta carta, el derrumbamiento, delante de sí mismo. Puede entonces tomar
    la carta de camino que escoja (excepto cartas de inicio y de fin) del laberinto de caminos,
    poniéndola en la pila de descartas junto con el derrumbamiento»; «Los espacios vacíos que se
    creen de esta manera se pueden llenar con cartas de camino que encajen en los turnos
    siguientes.» A goal is never taken, face down or turned up (SAB-AMB-11)."""
    t = table()
    laid = t.place("cross", 1, 0, by=3)
    edit(GAME, t.state, "turned A stone-nw")
    rock = card_for(t, 0, action_card("rockfall"))
    for x, y, why in ((0, 0, "cannot_remove"), (8, -2, "cannot_remove"), (8, 0, "no_path_card")):
        assert refused(t, 0, {"type": "rockfall", "card": rock, "x": x, "y": y})[0] == why
    assert [c for c in GAME.legal_commands(t.state, 0) if c["type"] == "rockfall"] == \
        [{"type": "rockfall", "card": rock, "x": 1, "y": 0}]
    evs = t.do(0, {"type": "rockfall", "card": rock, "x": 1, "y": 0})
    assert data(evs, "PathCollapsed")[0] == {"seat": 0, "card": rock, "x": 1, "y": 0, "removed": laid,
                                             "shape": "cross"}
    assert "1,0" not in t.state["maze"]
    assert t.state["discard"][-2:] == [{"card": rock, "face_up": True, "by": 0},
                                       {"card": laid, "face_up": True, "by": 0}]
    evs = play(t, "straight-ew", 1, 0, seat=1)  # the gap is filled again
    assert t.state["maze"]["1,0"]["shape"] == "straight-ew"


def test_SAB_MAP_1_SAB_MAP_2_a_map_shows_one_goal_to_its_player_alone():
    """«Cuando un jugador juega esta carta, con cuidado levanta una de las tres cartas de fin, la mira,
    pone la carta de fin de nuevo en su lugar y descarta esta carta. Ahora él sabe si merece o no la
    pena cavar un camino hasta esa carta de fin»."""
    t = table()
    t.set_goals(A="stone-nw", B="stone-ne", C="treasure")
    card = card_for(t, 0, action_card("map"))
    evs = t.do(0, {"type": "map", "card": card, "goal": "C"})
    peek = evs[0]
    assert peek == {"type": "GoalPeeked", "data": {"seat": 0, "card": card, "goal": "C", "shape": "treasure"}}
    assert "shape" not in GAME.redact(peek, 1)["data"] and "shape" not in GAME.redact(peek, None)["data"]
    assert not t.state["goals"]["C"]["revealed"]  # put back face down, where it was
    assert GAME.view(t.state, 0)["goals"]["C"]["shape"] == "treasure"
    assert GAME.view(t.state, 1)["goals"]["C"]["shape"] is None
    assert t.state["discard"][-1] == {"card": card, "face_up": True, "by": 0}


def test_SAB_MAP_3_SAB_AMB_10_a_map_on_a_goal_already_face_up_is_refused():
    """Ambiguity kept. The rulebook says «levanta una de las tres cartas de fin» without saying what
    a map does on a goal already turned up; Delve's ruling SAB-AMB-10 (only face-down goals, since
    looking at a face-up one tells nothing) stays."""
    t = table()
    edit(GAME, t.state, "turned B stone-ne")
    card = card_for(t, 0, action_card("map"))
    assert refused(t, 0, {"type": "map", "card": card, "goal": "B"}) == ("goal_face_up", "SAB-AMB-10")
    assert [c["goal"] for c in GAME.legal_commands(t.state, 0) if c.get("card") == card and c["type"] == "map"] \
        == ["A", "C"]


# --- Pasar --------------------------------------------------------------------------------------

def test_SAB_PASS_1_SAB_PASS_2_SAB_PASS_3_SAB_PASS_5_a_pass_puts_a_card_face_down_unseen():
    """«Si un jugador no puede o no quiere jugar un carta, debe pasar, poniendo una carta de su mano
    boca abajo en la pila de descartes sin enseñársela al resto de jugadores. Esto significa que en
    la pila de descartes habrán cartas boca arriba así como cartas boca abajo.» Then the draw as in
    every turn."""
    t = table()
    card = card_for(t, 0, path_card("cross"))  # a playable card: passing is still allowed
    assert {"type": "pass", "card": card} in GAME.legal_commands(t.state, 0)
    evs = t.do(0, {"type": "pass", "card": card})
    assert evs[0] == {"type": "CardDiscarded", "data": {"seat": 0, "card": card}}
    assert GAME.redact(evs[0], 1)["data"] == {"seat": 0} and GAME.redact(evs[0], None)["data"] == {"seat": 0}
    assert t.state["discard"] == [{"card": card, "face_up": False, "by": 0}]
    assert GAME.view(t.state, 1)["discard_face_up"] == [] and GAME.view(t.state, 1)["discard_count"] == 1
    assert GAME.view(t.state, 0)["you"]["face_down_discards"] == [card]
    assert "CardDrawn" in t.types(evs)
    assert refused(t, 1, {"type": "pass"}) == ("must_discard", "SAB-PASS-1")


def test_SAB_PASS_4_SAB_AMB_14_an_empty_hand_passes_without_discarding():
    """«Hacia el final de una ronda, es posible que a algunos jugadores no les queden cartas en la
    mano, en cuyo caso también deberán pasar (sin descartar ninguna carta, por supuesto).»"""
    t = table()
    t.empty_deck()
    edit(GAME, t.state, "discard_hand 1")
    before = len(t.state["discard"])
    evs = t.do(0, {"type": "pass", "card": t.state["hands"][0][0]})
    assert t.types(evs) == ["CardDiscarded", "TurnPassed", "TurnStarted"]
    assert data(evs, "TurnPassed") == [{"seat": 1, "auto": True}] and t.turn == 2
    assert len(t.state["discard"]) == before + 1  # seat 0's card only
    # With the option off the empty-handed seat sends the pass itself, discarding nothing.
    t = table(auto_pass_empty_hand=False)
    t.empty_deck()
    edit(GAME, t.state, "discard_hand 1")
    t.do(0, {"type": "pass", "card": t.state["hands"][0][0]})
    assert GAME.legal_commands(t.state, 1) == [{"type": "pass"}]
    assert t.types(t.do(1, {"type": "pass"})) == ["TurnPassed", "TurnStarted"]


# --- Final de una ronda: the goals ----------------------------------------------------------------

def test_SAB_GOAL_1_SAB_GOAL_3_SAB_AMB_13_a_stone_is_turned_laid_to_fit_and_the_round_goes_on():
    """«Cuando un jugador juega una carta de camino de manera tal que llegue a una carta de fin y cree
    un camino ininterrumpido desde la carta de inicio a esa carta de fin, le da la vuelta ... Si tiene
    una piedra, la ronda continúa. La carta de fin descubierta se pone al lado de la carta de camino
    haciendo coincidir los caminos.» The stone at B shows N and E upright, so reached from the west
    it is turned round (S, W) to meet the tunnel (the engine orients it: SAB-AMB-13)."""
    t = table()
    t.set_goals(A="treasure", B="stone-ne", C="stone-nw")
    tunnel_to(t, 6)
    evs = play(t, "straight-ew", 7, 0)
    assert data(evs, "GoalRevealed") == [{"goal": "B", "x": 8, "y": 0, "shape": "stone-ne",
                                          "rotated": True, "by": 0}]
    assert t.types(evs)[-2:] == ["CardDrawn", "TurnStarted"] and t.turn == 1
    assert t.state["phase"] == "play" and "RoundEnded" not in t.types(evs)
    goal = GAME.view(t.state, 3)["maze"]["8,0"]
    assert goal["shape"] == "stone-ne" and goal["edges"] == "SW"
    assert GAME.view(t.state, 3)["goals"]["B"] == {"x": 8, "y": 0, "revealed": True, "shape": "stone-ne"}
    # The other stone, open N and W upright, fits as it lies.
    t = table()
    t.set_goals(A="treasure", B="stone-nw", C="stone-ne")
    tunnel_to(t, 6)
    evs = play(t, "straight-ew", 7, 0)
    assert data(evs, "GoalRevealed")[0]["rotated"] is False
    # A turned-up stone is a card of the maze: a path card beside it must fit it (SAB-PATH-5).
    below = card_for(t, 1, path_card("straight-ns"))  # (8,1) open N, but the stone's S side is closed
    t.set_turn(1)
    assert refused(t, 1, {"type": "play_path", "card": below, "x": 8, "y": 1, "rotated": False}) == \
        ("edges_mismatch", "SAB-PATH-5")


def test_SAB_GOAL_4_a_goal_turned_up_may_clash_with_its_neighbours_as_the_only_exception():
    """«Nota: En raras ocasiones puede ser que la carta de fin no se pueda poner de manera tal que
    todos sus caminos encajen con las cartas de camino adyacentes. Esto se permite como una excepción
    a la regla general, pero sólo este caso y sólo para las cartas de fin.» The stone at B (N, E
    upright) is reached from the west while (8,-1) above it is open to the south: neither way up fits
    both; it is laid anyway, open to the tunnel that reached it (SAB-AMB-13)."""
    t = table()
    t.set_goals(A="treasure", B="stone-ne", C="stone-nw")
    t.place("straight-ns", 8, -1)
    tunnel_to(t, 6)
    evs = play(t, "straight-ew", 7, 0)
    assert data(evs, "GoalRevealed")[0]["rotated"] is True  # S, W: open west to the tunnel, closed north
    assert t.state["phase"] == "play"
    edges = GAME.view(t.state, 0)["maze"]["8,0"]["edges"]
    assert "W" in edges and "N" not in edges  # clashes with (8,-1)'s open south side
    # A path card gets no such exception: the same clash is refused for it.
    t = table()
    t.place("straight-ns", 1, -1)  # open south onto (1,0)
    card = card_for(t, 0, path_card("straight-ew"))  # fits the start, clashes with (1,-1)
    assert refused(t, 0, {"type": "play_path", "card": card, "x": 1, "y": 0, "rotated": False}) == \
        ("edges_mismatch", "SAB-PATH-5")


def test_SAB_GOAL_2_SAB_END_1_SAB_END_3_the_treasure_ends_the_round_and_the_roles_are_shown():
    """«Si es la carta con el tesoro, se acaba la ronda»; «En el momento en que se acaba la ronda se
    descubren las cartas de enano: ¿Quién era un minero, y quién un saboteador?» The finder draws no
    card, the round being over (SAB-AMB-24)."""
    t = table(gold_choice="auto")
    t.set_roles("MSMMS")
    edit(GAME, t.state, "leftover = miner")
    evs = treasure_found_by(t, 2)
    types = t.types(evs)
    assert types[:4] == ["PathPlaced", "GoalRevealed", "RoundEnded", "RolesRevealed"]
    assert "CardDrawn" not in types[:types.index("RoundStarted")]
    assert data(evs, "RoundEnded")[0] == {"round": 1, "reason": "treasure_found", "winner": "miners",
                                          "finder": 2, "last_player": 2}
    shown = GAME.redact(evs[3], 0)["data"]
    assert shown == {"roles": ["miner", "saboteur", "miner", "miner", "saboteur"], "leftover": "miner"}


def test_SAB_AMB_12_a_card_that_reaches_two_goals_turns_both():
    """Ambiguity kept. «juega una carta de camino de manera tal que llegue a una carta de fin ... le
    da la vuelta» is written for one goal; a card reaching two at once turns both, and a treasure
    among them ends the round (SAB-AMB-12)."""
    t = table(gold_choice="auto")
    t.set_goals(A="stone-nw", B="treasure", C="stone-ne")
    t.place("curve-nw", 0, -1, rotated=True)  # S, E: up from the start, then east along y = -1
    for x in range(1, 8):
        t.place_ew(x, -1)
    assert not any(g["revealed"] for g in t.state["goals"].values())  # (8,-1) is no goal
    evs = play(t, "cross", 8, -1)  # open north onto A and south onto B
    assert [d["goal"] for d in data(evs, "GoalRevealed")] == ["A", "B"]
    assert data(evs, "RoundEnded")[0]["winner"] == "miners"


# --- Final de una ronda: the cards run out -------------------------------------------------------

def test_SAB_END_2_SAB_AMB_14_SAB_GOLD_7_cards_out_and_every_hand_empty_the_saboteurs_win():
    """«La ronda se acaba también si se ha agotado la reserva de cartas y todos los jugadores han
    pasado porque ya no les quedaban cartas jugables en la mano»; «Los saboteadores han ganado la
    ronda si no se ha llegado a la carta de fin que tiene el tesoro.» Ambiguity kept: the engine reads
    the first sentence as «the draw pile is empty and every hand is empty» (SAB-AMB-14): every turn
    then discards or plays a card, so the round always gets there, and a player holding a card may
    still play it."""
    t = table(gold_choice="auto")
    t.set_roles("MSMMS")
    t.empty_deck()
    for seat in (1, 2, 3, 4):
        edit(GAME, t.state, f"discard_hand {seat}")
    keep = t.state["hands"][0][:2]
    edit(GAME, t.state, f"discard_hand 0 {' '.join(keep)}")
    evs = t.do(0, {"type": "pass", "card": keep[0]})  # one card still in a hand: the round goes on
    assert "RoundEnded" not in t.types(evs) and t.turn == 0  # the others pass by themselves
    evs = t.do(0, {"type": "pass", "card": keep[1]})
    assert data(evs, "RoundEnded")[0] == {"round": 1, "reason": "cards_out", "winner": "saboteurs",
                                          "finder": None, "last_player": 0}
    assert data(evs, "RolesRevealed")[0]["roles"] == ["miner", "saboteur", "miner", "miner", "saboteur"]


# --- Repartir el oro ------------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(3, 11))
def test_SAB_GOLD_1_SAB_GOLD_2_SAB_EX_12_as_many_gold_cards_as_players_nine_at_ten(n):
    """«Se roban tantas cartas de pepitas de oro (boca abajo) como jugadores, esto es, cinco cartas si
    hay cinco jugadores»; «Nota: Si hay 10 jugadores en la partida, y ganan los mineros, sólo se
    reparten nueve cartas de pepitas de oro.» (The count is of players, not miners: SAB-AMB-16.)"""
    t = table(n, gold_choice="auto")
    t.set_roles("M" * (n - 1) + "S")
    evs = treasure_found_by(t, 0)
    drawn = data(evs, "GoldBundleDrawn")[0]["values"]
    assert len(drawn) == {3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 9}[n]
    assert sum(len(g[0]) for g in t.state["gold"]) == len(drawn)
    assert len(t.state["gold_deck"]) == 28 - len(drawn)


def test_SAB_GOLD_3_SAB_GOLD_4_SAB_GOLD_5_the_finder_keeps_one_then_counter_clockwise_to_the_miners():
    """«El jugador que haya alcanzado la carta de fin con el tesoro toma esas cartas de pepitas de oro
    y se queda una. A continuación pasa las cartas restantes de pepitas de oro en sentido antihorario
    al siguiente minero (no al siguiente saboteador), que también se queda una carta. Esto se repite
    hasta que se han repartido todas las cartas ... Es posible que algunos mineros consigan más
    cartas que otros.» Seven players (seats clockwise 0..6), saboteurs 1, 3 and 6, seat 4 finds the
    treasure: counter-clockwise from 4 the miners are 4, 2, 0, 5, and round again."""
    t = table(7, gold_choice="auto")
    t.set_roles("MSMSMMS")
    evs = treasure_found_by(t, 4)
    bundle = data(evs, "GoldBundleDrawn")[0]
    assert bundle["holder"] == 4 and len(bundle["values"]) == 7
    kept = data(evs, "GoldKept")
    assert [k["seat"] for k in kept] == [4, 2, 0, 5, 4, 2, 0]
    assert [(p["from"], p["to"]) for p in data(evs, "GoldBundlePassed")] == \
        [(4, 2), (2, 0), (0, 5), (5, 4), (4, 2), (2, 0)]
    assert [len(t.state["gold"][s][0]) for s in range(7)] == [2, 0, 2, 0, 2, 1, 0]
    # With nobody choosing (gold_choice auto) each keeps the highest card left (SAB-AMB-25).
    assert [k["value"] for k in kept] == sorted(bundle["values"], reverse=True)


def test_SAB_GOLD_3_SAB_AMB_25_the_holder_chooses_which_card_to_keep():
    """«toma esas cartas de pepitas de oro y se queda una»: the holder keeps one of its choice,
    seeing the cards it holds (SAB-AMB-25); the others see only how many."""
    t = table(5)
    t.set_roles("MMSMM")
    edit(GAME, t.state, "gold_deck = [1, 1, 2, 2, 3]")
    evs = treasure_found_by(t, 3)
    assert data(evs, "GoldBundleDrawn")[0] == {"holder": 3, "values": [3, 2, 2, 1, 1]}
    assert GAME.legal_commands(t.state, 3) == [{"type": "take_gold", "values": [v]} for v in (3, 2, 1)]
    assert GAME.view(t.state, 1)["gold_choice"] == {"seat": 3, "kind": "bundle", "bundle_count": 5,
                                                    "nuggets": None}
    t.do(3, {"type": "take_gold", "values": [1]})
    assert t.state["gold"][3][0] == [1] and t.state["holder"] == 1  # 2 is the saboteur: skipped


def test_SAB_GOLD_6_SAB_AMB_17_a_saboteur_who_reaches_the_treasure_gets_nothing():
    """Ambiguity kept. The rulebook gives the cards to «El jugador que haya alcanzado la carta de fin»
    and passes them «al siguiente minero (no al siguiente saboteador)», silent on a saboteur finder.
    Delve: the miners still win and the bundle starts at the first miner counter-clockwise."""
    t = table(5, gold_choice="auto")
    t.set_roles("MMSSM")
    evs = treasure_found_by(t, 3)
    assert data(evs, "RoundEnded")[0]["winner"] == "miners"
    assert data(evs, "GoldBundleDrawn")[0]["holder"] == 1
    assert [k["seat"] for k in data(evs, "GoldKept")] == [1, 0, 4, 1, 0]
    assert t.state["gold"][2][0] == [] and t.state["gold"][3][0] == []


@pytest.mark.parametrize("n, roles, nuggets", [
    (3, "MSM", 4), (4, "SMMM", 4), (5, "MSMSM", 3), (6, "SMMSMM", 3),
    (7, "SMSMSMM", 3), (9, "MSMSMSMMM", 3), (10, "SMSMSMSMMM", 2),
])
def test_SAB_GOLD_8_SAB_EX_10_the_saboteurs_share_by_their_number(n, roles, nuggets):
    """«Si sólo hay un saboteador, consigue cartas de pepitas de oro por valor de cuatro pepitas. Si
    hay dos o tres saboteadores, cada uno consigue tres pepitas; y si hay cuatro saboteadores, cada
    uno consigue dos pepitas.» The miners get nothing (SAB-OVW-3)."""
    t = table(n, gold_choice="auto")
    t.set_roles(roles)
    evs = cards_run_out(t, 0)
    assert data(evs, "GoldPayoutDue")[0]["nuggets"] == nuggets
    got = [sum(t.state["gold"][s][0]) for s in range(n)]
    assert got == [nuggets if r == "S" else 0 for r in roles]
    assert not data(evs, "GoldBundleDrawn")


def test_SAB_GOLD_8_SAB_ROLE_5_the_saboteurs_counted_are_those_in_play():
    """Ambiguity kept. «Si sólo hay un saboteador, consigue ... cuatro pepitas» counts the saboteurs
    at the table when the roles are shown, not the saboteur cards in the deck: at five players (two
    saboteur cards) with one of them set aside, the one saboteur in play gets 4 (SAB-GOLD-8)."""
    t = table(5, gold_choice="auto")
    t.set_roles("MMSMM")
    edit(GAME, t.state, "leftover = saboteur")
    evs = cards_run_out(t, 0)
    assert data(evs, "GoldPayoutDue") == [{"payees": [2], "nuggets": 4}]
    assert sum(t.state["gold"][2][0]) == 4


def test_SAB_GOLD_9_SAB_ROLE_5_SAB_EX_11_no_saboteur_in_play_no_gold():
    """«Si hay tres o cuatro jugadores, es posible que no haya saboteador. En este caso, si no se
    llega hasta el tesoro, no se reparten cartas de pepitas de oro.»"""
    for n in (3, 4):
        t = table(n, gold_choice="auto")
        t.set_roles("M" * n)
        edit(GAME, t.state, "leftover = saboteur")
        evs = cards_run_out(t, n - 1)
        assert data(evs, "RoundEnded")[0]["winner"] == "saboteurs"
        assert not [e for e in evs if e["type"].startswith("Gold")]
        assert len(t.state["gold_deck"]) == 28 and t.state["round"] == 2


def test_SAB_GOLD_10_gold_stays_secret_until_the_end():
    """«Los jugadores deben mantener sus cartas de oro en secreto hasta el final de la partida.»"""
    t = table(5, gold_choice="auto")
    t.set_roles("MSMMS")
    evs = treasure_found_by(t, 0)
    for e in evs:
        if e["type"] == "GoldKept" and e["data"]["seat"] != 1:
            assert "value" not in GAME.redact(e, 1)["data"]
    v = GAME.view(t.state, 1)
    assert all(p["gold"] is None for p in v["players"])
    assert {s.total for s in GAME.scores(t.state).seats} == {0}


# --- Empezar una nueva ronda; fin de la partida ---------------------------------------------------

@pytest.mark.parametrize("how, last, first", [("cards", 2, 3), ("cards", 4, 0), ("treasure", 1, 2),
                                              ("treasure", 4, 0)])
def test_SAB_NEXT_6_SAB_EX_13_the_player_left_of_the_last_card_starts(how, last, first):
    """«Empieza la ronda el jugador a la izquierda del jugador que jugó la última carta en la ronda
    anterior.» Play goes clockwise, so the left-hand neighbour is the next seat; the finder played
    the last card when the treasure ended the round (SAB-AMB-15)."""
    t = table(5, gold_choice="auto")
    t.set_roles("MMMSS")
    evs = cards_run_out(t, last) if how == "cards" else treasure_found_by(t, last)
    assert data(evs, "RoundStarted") == [{"round": 2, "first_seat": first}]
    assert t.turn == first


def test_SAB_NEXT_1_SAB_NEXT_2_SAB_NEXT_4_SAB_NEXT_5_SAB_AMB_19_a_new_round_starts_afresh_gold_kept():
    """«Las cartas de inicio y de fin se ponen en la mesa de la misma manera que al empezar la
    partida ... Se barajan las cartas de camino, se reparte a cada jugador la cantidad apropiada, y
    el resto se dejan boca abajo en una pila. Por supuesto, los jugadores mantienen las cartas de
    pepitas de oro que han ganado en las rondas anteriores. Las cartas de pepitas de oro restantes se
    ponen de nuevo boca abajo.» The action cards go back in too (SAB-AMB-19)."""
    t = table(6, gold_choice="auto")
    t.set_roles("MMSMMM")
    edit(GAME, t.state, "broken 4 pick by=2")
    treasure_found_by(t, 0)
    s = t.state
    won = [list(g[0]) for g in s["gold"]]
    assert s["round"] == 2 and sum(map(len, won)) == 6 and len(s["gold_deck"]) == 22
    assert list(s["maze"]) == ["0,0"] and not any(g["revealed"] for g in s["goals"].values())
    assert s["discard"] == [] and not any(s["broken"])
    assert [len(h) for h in s["hands"]] == [5] * 6 and len(s["deck"]) == PLAYING_DECK - 30
    assert sorted([c for h in s["hands"] for c in h] + s["deck"]) == sorted(CARDS)
    assert [g[0] for g in s["gold"]] == won and all(g[1] == [] for g in s["gold"])


def test_SAB_WIN_1_SAB_WIN_2_SAB_WIN_3_three_rounds_then_the_most_nuggets_wins():
    """«La partida acaba después de la tercera ronda. Todos los jugadores suman las pepitas de oro de
    todas sus cartas de oro. El jugador con más pepitas de oro gana la partida.»"""
    t = table(3, gold_choice="auto")
    for rnd in (1, 2, 3):
        assert t.state["round"] == rnd and t.state["phase"] == "play"
        t.set_roles("MMS")
        edit(GAME, t.state, "gold_deck = [3, 2, 1]")  # staged: three cards left, drawn in any order
        evs = treasure_found_by(t, 0)
        # Seat 0 keeps the 3, seat 2 the saboteur is skipped, seat 1 keeps the 2, seat 0 the 1.
        assert [(k["seat"], k["value"]) for k in data(evs, "GoldKept")] == [(0, 3), (1, 2), (0, 1)]
    assert GAME.is_terminal(t.state) and t.state["round"] == 3
    assert data(evs, "GoldRevealed")[0]["totals"] == [12, 6, 0]
    board = GAME.scores(t.state)
    assert board.final and board.winners == [0] and board.ranking == [0, 1, 2]
    assert board.seats[0].breakdown == {"round_1": 4, "round_2": 4, "round_3": 4}


def test_SAB_WIN_4_SAB_EX_14_a_tie_shares_the_victory():
    """«Si hay más de un jugador con el mismo número de pepitas, están empatados en la primera
    posición y comparten la victoria.»"""
    t = table(4)
    edit(GAME, t.state, """
        gold = [[[3], [3], [3]], [[2, 2], [3], [2]], [[1], [1], [1]], [[2], [3, 2], [2]]]
        phase = over
    """)
    board = GAME.scores(t.state)
    assert [s.total for s in sorted(board.seats, key=lambda s: s.seat)] == [9, 9, 3, 9]
    assert board.winners == [0, 1, 3] and board.result().kind == "shared"
    assert {s.seat: s.place for s in board.seats} == {0: 1, 1: 1, 3: 1, 2: 4}


@pytest.mark.parametrize("n", range(3, 11))
def test_SAB_GOLD_2_SAB_GOLD_8_SAB_NEXT_6_SAB_WIN_1_whole_games_played_through(n):
    """Whole games of the bots at every table size, checked against the rulebook's numbers written out
    here: «tantas cartas de pepitas de oro ... como jugadores» (9 at ten), «cuatro pepitas / tres
    pepitas / dos pepitas» by the saboteurs in play, «Empieza la ronda el jugador a la izquierda del
    jugador que jugó la última carta», and «La partida acaba después de la tercera ronda»."""
    t = Table(n, seed=f"audit-game-{n}".encode(), gold_choice="auto")
    t.finish(["heuristic" if i % 2 else "random" for i in range(n)])
    pay = {1: 4, 2: 3, 3: 3, 4: 2}
    last = roles = None
    rounds = []
    for e in t.events:
        kind, d = e["type"], e["data"]
        if kind == "RoundStarted":
            rounds.append(d["round"])
            if last is not None:
                assert d["first_seat"] == (last + 1) % n
        elif kind in ("PathPlaced", "ToolBroken", "ToolRepaired", "PathCollapsed", "GoalPeeked", "CardDiscarded"):
            last = d["seat"]
        elif kind == "RolesRevealed":
            roles = d["roles"]
        elif kind == "GoldBundleDrawn":
            assert len(d["values"]) == min(n, 9) and roles[d["holder"]] == "miner"
        elif kind == "GoldPayoutDue":
            assert d["nuggets"] == pay[roles.count("saboteur")]
            assert sorted(d["payees"]) == [i for i, r in enumerate(roles) if r == "saboteur"]
        elif kind == "GoldKept":
            assert roles[d["seat"]] == "miner"
    assert rounds == [1, 2, 3] and GAME.is_terminal(t.state)
    totals = data(t.events, "GoldRevealed")[0]["totals"]
    assert totals == [sum(map(sum, g)) for g in t.state["gold"]]
    assert GAME.scores(t.state).winners == [i for i, v in enumerate(totals) if v == max(totals)]
