"""A sixth rules audit, paragraph by paragraph against the Spanish rulebook: the sentences the
earlier Indagar tests did not pin down, each test quoting the rulebook and citing its rule ID.

Where the rulebook is silent or unclear the test says so and keeps the ruling of RULES.md
section 31 (IND-AMB-n)."""
from __future__ import annotations

from domain.core import Drbg
from domain.indagar import combat, scoring
from domain.indagar import state as st
from domain.indagar.rules import GAME
from domain.kit import copy_state
from ind_support import (ScriptedDice, apply, arena, armour_everyone, line, neighbours, play_round, put, table,
                         turn_of)
from tests.support.positions import edit, position


# ---------------------------------------------------------------- successful attack / defence
def occupied(level: int, hero: str = "sunjun") -> tuple[dict, str, str]:
    """Ariane (seat 0, in her turn) beside a level-``level`` gold outpost of seat 1 that ``hero``
    (seat 1) stands on: (state, Ariane's tile, the outpost's tile)."""
    s = arena(2)
    a, t = line(s, "r4c1", 2)
    edit(GAME, s, f"""
        tiles.{t}.type = "gold"
        put ariane {a}
        put {hero} {t}
        outpost {t} 1 {level}
        turn 0 ariane
    """)
    return s, a, t


def test_IND_SUC_3_a_hero_unhurt_on_an_outpost_not_downgraded_is_one_successful_defence():
    """«Una defensa exitosa ocurre en los siguientes escenarios: El héroe defensor recibe 0 daños. Un
    puesto de avanzada no baja de nivel. ... cuando un héroe ocupando un puesto de avanzada recibe 0
    daños y además el puesto de avanzada no baja de nivel, es considerado como una sola defensa
    exitosa» (IND-SUC-3, IND-SUC-4). 2 damage on a level-2 outpost (endurance 4): the outpost holds,
    Sun Jun takes nothing, she gains 1 experience and Ariane none (IND-AOUT-2: «Si un puesto de avanzada
    baja de nivel, cualquier daño adicional es recibido por el héroe», so none reaches her)."""
    s, a, t = occupied(2)
    s = apply(s, 0, {"type": "attack", "tile": t}, ScriptedDice(3, 3, 2))     # 8
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(1, 2, 1, 2))               # Sun Jun 2 + outpost 2: 6
    s = apply(s, 1, {"type": "pass"})
    assert s["outposts"][t]["level"] == 2 and s["heroes"]["sunjun"]["damage"] == 0
    assert s["heroes"]["sunjun"]["xp"] == 1                                    # one successful defence
    assert s["heroes"]["ariane"]["xp"] == 0
    assert s["heroes"]["sunjun"]["tile"] == t and s["attack"] is None          # no fall back, no charge


def test_IND_SUC_2_3_a_downgrade_with_the_hero_hit_for_2_is_one_success_and_no_defence():
    """«Durante un ataque donde ocurran ambos, un puesto de avanzada es destruido/bajado de nivel y un
    héroe que estaba ocupando un puesto de avanzada recibe al menos dos daños, es considerado como un
    solo ataque exitoso» (IND-SUC-2): 6 damage on a level-1 outpost (endurance 3) destroys it and Sun
    Jun takes the other 3 (IND-AOUT-4) and must fall back (IND-FB-1); Ariane gains 1 experience, not
    2, and Sun Jun, hurt, none (IND-SUC-3)."""
    s, a, t = occupied(1)
    s = apply(s, 0, {"type": "attack", "tile": t}, ScriptedDice(4, 4, 4))     # 12
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(2, 2, 2))                  # Sun Jun 2 + outpost 1: 6
    s = apply(s, 1, {"type": "pass"})
    assert t not in s["outposts"] and s["heroes"]["sunjun"]["damage"] == 3
    assert s["pending"][0]["kind"] == "fall_back" and s["pending"][0]["seat"] == 1
    s = apply(s, 1, {"type": "fall_back", "to": s["pending"][0]["options"][0]})
    assert s["heroes"]["ariane"]["xp"] == 1 and s["heroes"]["sunjun"]["xp"] == 0
    assert s["seats"][0]["res"]["gold"] == 3 + 1                              # IND-AOUT-5: level 1 of gold


def test_IND_SUC_1_4_exactly_1_damage_is_neither_a_successful_attack_nor_defence():
    """«Un ataque exitoso ocurre ... Cuando un héroe enemigo recibe al menos 2 daños»; «Una defensa
    exitosa ocurre ... El héroe defensor recibe 0 daños» (IND-SUC-1/3/4): 1 damage gives nobody
    experience, and the hero stays where it is («Cada vez que un Héroe reciba 2 o más daños durante un
    ataque, debe escapar», IND-FB-1)."""
    s = arena(2)
    a, z = line(s, "r4c1", 2)
    edit(GAME, s, f"""
        put ariane {a}
        put sunjun {z}
        turn 0 ariane
    """)
    s = apply(s, 0, {"type": "attack", "tile": z}, ScriptedDice(2, 2, 2))     # 6
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(2, 3))                     # 5
    s = apply(s, 1, {"type": "pass"})
    assert s["heroes"]["sunjun"]["damage"] == 1 and s["heroes"]["sunjun"]["tile"] == z
    assert s["heroes"]["ariane"]["xp"] == 0 and s["heroes"]["sunjun"]["xp"] == 0
    assert s["pending"] == [] and s["attack"] is None


# ---------------------------------------------------------------- flanking on an outpost
def test_IND_FLK_1_flanking_counts_against_an_outpost_too():
    """«Existe una bonificación especial cuando un héroe ataque a un héroe enemigo o puesto de avanzada
    que esté rodeado por otros héroes amistosos ... recibe +1 ataque por cada héroe amistoso adicional
    que esté adyacente al héroe enemigo o puesto de avanzada siendo atacado» (IND-FLK-1/2). Ariane
    attacks a lone enemy outpost with Bertram and Elowen beside it: 3 + 2 dice."""
    s = arena(2)
    a, t = line(s, "r4c1", 2)
    edit(GAME, s, f"""
        tiles.{t}.type = "ore"
        put ariane {a}
        outpost {t} 1 1
        turn 0 ariane
    """)
    friends = [n for n in neighbours(s, t) if n != a][:2]
    put(s, "bertram", friends[0])
    put(s, "elowen", friends[1])
    assert combat.attack_pool(s, ("hero", "ariane"), t) == 3 + 2
    s = apply(s, 0, {"type": "attack", "tile": t}, ScriptedDice(1, 1, 1, 1, 1))
    assert len(s["attack"]["adice"]) == 5


# ---------------------------------------------------------------- round end, winning
def last_round(players: int, **options) -> dict:
    """Round 10 of a table where no monster finds anyone juicy, started as a real round 10 would."""
    s = armour_everyone(table(players, monster_start="skipRound1", **options))
    edit(GAME, s, "round = 10")
    return no_monsters(s)


def no_monsters(s: dict) -> dict:
    """Every primary monster in retreat for the round (grey side up): none takes a turn."""
    for m in st.primaries(s):
        edit(GAME, s, f"""
            put {m} none
            monsters.{m}.retreat = grey
        """)
    return s


def test_IND_WIN_6_IND_ROUND_16_the_game_ends_after_round_10_and_outposts_no_longer_produce():
    """«El juego siempre termina al final de la ronda 10, incluso si ningún jugador tiene 10 o más
    puntos. En ese caso, el ganador es el jugador con más puntos de supremacía» (IND-WIN-6); the round
    end checks for a winner (step 2) before outposts produce (step 3, «Gana recursos de los puestos de
    avanzada»), so nothing is produced at the end of round 10 (IND-ROUND-12/13/16), and no spirit is
    placed (IND-ROUND-14). Three players: seat 1 holds 2 PP of outposts and wins with the most."""
    s = last_round(3)
    gold = next(t for t in st.board(s).area(1) if s["tiles"][t]["type"] == "gold")
    wood = next(t for t in st.board(s).area(1) if s["tiles"][t]["type"] == "wood")
    edit(GAME, s, f"""
        outpost {gold} 1 3
        outpost {wood} 1 1
        seats.0.pp = {{"spirits": 1}}
    """)
    res = copy_state(s["seats"][1]["res"])
    source = s["source"]
    s, _ = play_round(s)
    assert s["phase"] == "over" and s["result"] == {"winner": "seat:1", "reason": "round_limit"}
    assert s["seats"][1]["res"] == res and s["source"] == source
    board = GAME.scores(s)
    assert [x.seat for x in sorted(board.seats, key=lambda x: x.place)][:2] == [1, 0]


def test_IND_WIN_4_5_four_players_over_ten_the_first_in_play_order_wins():
    """«Si dos o más jugadores tienen 10 o más puntos de supremacía al final de una ronda, el jugador que
    gana es aquel que juega primero según el actual orden de juego»; «Un jugador con 10 y un jugador con
    11 aún se consideran empatados con 10» (IND-WIN-4/5). Four players, seat 2 holds the initiative:
    seats 0 (12 PP), 1 (10) and 3 (11) qualify; play order is 2, 3, 0, 1, so seat 3 wins, and the
    scores place the others by capped points, then play order (3, 0, 1, then seat 2 with 9)."""
    _, s = position("""
        indagar 4 seed=indagar
        initiative = 2
        seats.0.pp = {"spirits": 12}
        seats.1.pp = {"spirits": 10}
        seats.2.pp = {"spirits": 9}
        seats.3.pp = {"spirits": 11}
    """)
    assert scoring.check_winner(s) == {"winner": "seat:3", "reason": "primacy"}
    s["phase"], s["result"] = "over", scoring.check_winner(s)
    board = scoring.scoreboard(s)
    assert [x.seat for x in sorted(board.seats, key=lambda x: x.place)] == [3, 0, 1, 2]


def test_IND_WIN_3_reaching_ten_during_a_round_does_not_end_it():
    """«El juego no se detiene durante una ronda, incluso si un jugador alcanza los 10 puntos de
    supremacía, dándoles así la oportunidad de noquearlo antes del término de la ronda» (IND-WIN-3):
    seat 0 has 10 PP from the first turn of round 3; every seat still plays the round out, and the
    game ends only at its end (IND-WIN-2)."""
    s = no_monsters(armour_everyone(table(2, monster_start="skipRound1")))
    edit(GAME, s, """
        round = 3
        seats.0.pp = {"spirits": 10}
    """)
    s, whos = play_round(s)
    assert whos.count("seat:0") == 3 and whos.count("seat:1") == 3
    assert s["phase"] == "over" and s["result"]["winner"] == "seat:0"


def test_IND_SOLO_10_a_solo_round_10_ends_the_game_lost_below_ten_and_won_at_ten():
    """«If you do not have 10 primacy points when game round 10 ends, you lose the game» (IND-SOLO-10),
    played through the round's end: 9 PP lose (no player wins), 10 PP win."""
    s = last_round(1)
    edit(GAME, s, 'seats.0.pp = {"spirits": 9}')
    lost, _ = play_round(s)
    assert lost["phase"] == "over" and lost["result"] == {"winner": None, "reason": "round_limit"}
    edit(GAME, s, 'seats.0.pp = {"spirits": 10}')
    won, _ = play_round(s)
    assert won["phase"] == "over" and won["result"]["winner"] == "seat:0"


def test_IND_ROUND_14_IND_SPI_1_spirits_gather_on_the_source_until_a_hero_takes_them_all():
    """«Coloca un espíritu en la Fuente del Poder» at every round end (IND-ROUND-14); «el jugador
    puede usar una acción para reclamar todos los espíritus» (IND-SPI-1, IND-ACTN-1): after two rounds
    two spirits lie there, and one gather takes both."""
    s = armour_everyone(table(2, monster_start="skipRound1"))
    s, _ = play_round(s)
    s, _ = play_round(s)
    assert s["source"] == 2 and s["round"] == 3
    src = st.board(s).source
    edit(GAME, s, f"""
        put ariane {src}
        turn 0 ariane
    """)
    s = apply(s, 0, {"type": "gather"})
    assert s["source"] == 0 and s["seats"][0]["spirits"] == 2 and s["turn"]["action"]
