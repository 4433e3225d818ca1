"""A sixth rules audit, paragraph by paragraph against the Spanish rulebook: the sentences the
earlier Indagar tests did not pin down, each test quoting the rulebook and citing its rule ID.

Where the rulebook is silent or unclear the test says so and keeps the ruling of RULES.md
section 31 (IND-AMB-n)."""
from __future__ import annotations

import json

from domain.indagar import combat, content, scoring, strategy, turns
from domain.indagar import monsters as mon
from domain.indagar import positions as verbs
from domain.indagar import state as st
from domain.indagar.rules import GAME
from domain.kit import copy_state
from ind_support import (ScriptedDice, apply, arena, armour_everyone, line, monster_turn, neighbours, play_round,
                         put, table, turn_of)
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
    s, _, t = occupied(2)
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
    s, _, t = occupied(1)
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


# ---------------------------------------------------------------- economy: building and buying
def builder(kind: str = "gold") -> tuple[dict, str]:
    """Elowen (seat 0, Arkland, no Fortified) in her turn on a revealed ``kind`` tile: (state, tile)."""
    s = arena(2)
    (t,) = line(s, "r4c1", 1)
    edit(GAME, s, f"""
        tiles.{t}.type = "{kind}"
        put elowen {t}
        seats.0.res = {{"gold": 9, "wood": 9, "ore": 9}}
        turn 0 elowen
    """)
    return s, t


def test_IND_OUT_1_3_4_costs_and_one_level_per_action():
    """«Nivel 1 - Coste 2 oro para construir ... Nivel 2 - Coste 1 oro, 2 maderas para mejora ... Nivel 3
    - Coste 1 oro, 1 madera, 2 minerales»; «Mejorar un puesto de avanzada requiere una única acción de
    héroe. Por eso, normalmente no es posible para un héroe mejorar un puesto de avanzada de nivel 1 a
    nivel 3 en una única activación» (IND-OUT-1/2/3/4): a build spends the action, so no upgrade
    follows in the same activation; the next activations upgrade one level each, each at its cost."""
    s, t = builder("wood")
    s = apply(s, 0, {"type": "build"})
    assert s["outposts"][t]["level"] == 1 and s["seats"][0]["res"] == {"gold": 7, "wood": 9, "ore": 9}
    assert {"type": "upgrade"} not in GAME.legal_commands(s, 0)
    turn_of(s, 0, "elowen")
    s = apply(s, 0, {"type": "upgrade"})
    assert s["outposts"][t]["level"] == 2 and s["seats"][0]["res"] == {"gold": 6, "wood": 7, "ore": 9}
    turn_of(s, 0, "elowen")
    s = apply(s, 0, {"type": "upgrade"})
    assert s["outposts"][t]["level"] == 3 and s["seats"][0]["res"] == {"gold": 5, "wood": 6, "ore": 7}
    turn_of(s, 0, "elowen")
    assert {"type": "upgrade"} not in GAME.legal_commands(s, 0)                # level 3 is the top


def test_IND_OUT_6_IND_COMP_2_a_seventh_level_1_outpost_cannot_be_built():
    """«un jugador nunca puede tener más de 6 puestos de avanzada de nivel 1, 4 de nivel 2 y 2 de nivel 3,
    en cualquier momento sobre la mesa» (IND-COMP-2, IND-OUT-6): with six level-1 outposts on the board
    the build is refused; once one is upgraded to level 2, a level-1 piece is free again."""
    s, t = builder("gold")
    others = [x for x in sorted(s["tiles"]) if x != t][:6]
    for x in others:
        edit(GAME, s, f"""
            tiles.{x}.type = "ore"
            outpost {x} 0 1
        """)
    assert {"type": "build"} not in GAME.legal_commands(s, 0)
    edit(GAME, s, f"outposts.{others[0]}.level = 2")
    assert {"type": "build"} in GAME.legal_commands(s, 0)


def test_IND_TERM_2_IND_OUT_9_a_destroyed_tile_keeps_its_outpost_and_points_but_yields_nothing():
    """«Destruido - Una loseta que sea destruida no produce más recursos y no puede construirse o
    mejorarse un puesto de avanzada sobre ella. Si la loseta es destruida pero un puesto de avanzada ya
    estaba sobre ella y no es destruida, permanece ahí» (IND-TERM-2): the outpost stays and still
    counts 1 PP (IND-PP-1), produces nothing at round end (IND-OUT-9) and cannot be upgraded."""
    s, t = builder("gold")
    edit(GAME, s, f"""
        outpost {t} 0 1
        tiles.{t}.destroyed = true
    """)
    assert st.pp(s, 0) == 1
    assert {"type": "upgrade"} not in GAME.legal_commands(s, 0)
    assert turns.production(s)[0] == {"gold": 0, "wood": 0, "ore": 0}


def test_IND_RES_5_IND_AMB_20_an_exchange_in_an_opponents_attack():
    """«En cualquier momento, puedes cambiar 3 recursos cualquiera por 1 de otro recurso» (IND-RES-5):
    the defender exchanges inside the opponent's attack, in its defence window (IND-AMB-20: any mix of
    3 for 1 of a resource not handed in)."""
    s = arena(2)
    a, z = line(s, "r4c1", 2)
    edit(GAME, s, f"""
        put ariane {a}
        put sunjun {z}
        seats.1.res = {{"gold": 2, "wood": 1, "ore": 0}}
        turn 0 ariane
    """)
    s = apply(s, 0, {"type": "attack", "tile": z}, ScriptedDice(1, 1, 1))
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(3, 3))
    give = {"gold": 2, "wood": 1, "ore": 0}
    assert {"type": "exchange", "give": give, "get": "ore"} in GAME.legal_commands(s, 1)
    s = apply(s, 1, {"type": "exchange", "give": give, "get": "ore"})
    assert s["seats"][1]["res"] == {"gold": 0, "wood": 0, "ore": 1}
    assert s["pending"][0] == {"kind": "window", "side": "defence", "seat": 1}   # the window stays open


# ---------------------------------------------------------------- abilities and strategy
def test_IND_ABL_6_once_per_player_turn_again_in_a_later_turn_of_the_round():
    """«Ninguna habilidad puede ser usada más de una vez durante un turno de jugador. Sin embargo, ellas
    pueden ser usadas múltiples veces durante una ronda de juego ya que una ronda de juego consiste de
    múltiples turnos de jugadores» (IND-ABL-6): Timber Rights (Forest, Expansion tree) is used in one
    turn, refused again in it, and used again in the player's next turn of the same round."""
    _, s = position("""
        indagar 2 seed=indagar options={"factions": ["forest", "arkland"]}
        arena
        put thorn r4c1
        put maeve r4c3
        tree 0 expansion timber-rights=coin
        seats.0.res = {"gold": 0, "wood": 0, "ore": 0}
        turn 0 thorn
    """)
    use = {"type": "use_ability", "ability": "timber-rights", "discount": "gold"}   # coin bag: free
    s = apply(s, 0, use)
    assert s["seats"][0]["res"]["wood"] == 2
    assert use not in GAME.legal_commands(s, 0)
    turn_of(s, 0, "maeve")                                                   # a later turn, same round
    assert use in GAME.legal_commands(s, 0)
    s = apply(s, 0, use)
    assert s["seats"][0]["res"]["wood"] == 4


def test_IND_STR_6_7_the_same_tree_declared_again_unlocks_another_ability():
    """«Cada vez que un árbol de estrategia es puesto en juego, un jugador puede elegir desbloquear una
    habilidad en el árbol de estrategia escogido ... Una vez desbloqueada, la habilidad permanece
    desbloqueada por el resto del juego» (IND-STR-6/7); «pueden designar el mismo árbol de estrategia
    para múltiples rondas de juego, consecutivamente» (IND-STR-4): three rounds of Expansion unlock
    its three abilities, and no fourth unlock is offered."""
    s = no_monsters(armour_everyone(table(2, factions=["forest", "arkland"], monster_start="skipRound1")))
    unlocks = ["timber-rights", "pathfinders", "hidden-groves"]
    for i in range(3):
        if i:
            s, _ = play_round(s)
            s = no_monsters(s)
        while s["pending"] and s["pending"][0]["kind"] == "declare":
            seat = s["pending"][0]["seat"]
            cmd = ({"type": "declare", "tree": "expansion", "unlock": unlocks[i], "token": "bolt"} if seat == 0
                   else {"type": "declare", "tree": "prosperity"})
            assert cmd in GAME.legal_commands(s, seat)
            s = apply(s, seat, cmd)
    assert set(s["seats"][0]["unlocked"]) == set(unlocks)
    again = [c for c in strategy.declarations(s, 0) if c["tree"] == "expansion"]
    assert again == [{"type": "declare", "tree": "expansion"}]                 # nothing left to unlock


# ---------------------------------------------------------------- monsters
def test_IND_MTURN_5_IND_MRET_2_a_monster_in_retreat_loses_its_seat_for_the_round():
    """«Los monstruos que estén en retiro deben quedarse ahí por una ronda completa del juego»
    (IND-MRET-2, IND-MTURN-5): in a two-player round Tijian, in retreat, takes no turn, and the round
    is the seats' and Helgoth's alone; its token is flipped at the next round start, and it is back on
    its home the round after."""
    s = armour_everyone(table(2, monster_start="none"))
    edit(GAME, s, """
        put tijian none
        monsters.tijian.retreat = grey
    """)
    s, whos = play_round(s)
    assert "monster-tijian" not in whos and whos.count("monster-helgoth") >= 2
    assert s["monsters"]["tijian"]["retreat"] == "colour" and s["monsters"]["tijian"]["tile"] is None
    s, whos = play_round(s)
    assert "monster-tijian" not in whos
    assert s["monsters"]["tijian"]["retreat"] is None and s["monsters"]["tijian"]["tile"] is not None


def test_IND_JUICY_1_IND_MON_6_helgoth_attacks_his_target_outpost_whoever_holds_it():
    """Ambiguity kept. «La regla del objetivo jugoso significa que un monstruo no atacará a un héroe cuyo
    valor de defensa sea mayor que el valor de ataque del monstruo. Asegúrate de sumar al valor de defensa
    del puesto de avanzada que el héroe esté ocupando» (IND-JUICY-1/2) speaks of heroes; of outposts the
    rulebook says only that «Un monstruo siempre elegirá usar su acción en su objetivo (como ... Helgoth
    para atacar un puesto de avanzada)» and that the juicy test bars *opportunity* attacks on them
    («no puede realizar un ataque de oportunidad contra un héroe, monstruo, o puesto de avanzada que no
    sea un objetivo jugoso», IND-JUICY-3, IND-OPP-1). The engine reads Helgoth's script (IND-MON-6: the
    closest outpost of the player with the most outposts, a card the rulebook does not print, IND-GAP-5)
    as not filtered by juiciness: beside his target, a level-2 outpost (2 dice) with Sun Jun on it
    (2 dice), 4 > his attack 3, he still attacks it."""
    s = arena(4)
    a, t = line(s, "r2c1", 2)
    edit(GAME, s, f"""
        put helgoth {a}
        reveal {t} gold
        outpost {t} 1 2
        put sunjun {t}
    """)
    assert not mon.juicy(s, "helgoth", t)
    assert mon.choose_target(s, "helgoth")[0] == [t]
    after = monster_turn(s, "helgoth", ScriptedDice(1, 1, 1, 6, 6, 6, 6))
    assert after["attack"] is not None and after["attack"]["tile"] == t
    assert after["attack"]["defender"] == ["hero", "sunjun"] and after["attack"]["outpost"] == 2


# ---------------------------------------------------------------- experience from event monsters
def knock_out(monster: str, xp: int, bonuses: list[str]) -> dict:
    """Ariane (``xp``, level tokens ``bonuses``) attacks ``monster``, one damage from retreat, and
    sends it there with 18 against its 1s."""
    s = arena(2)
    a, m = line(s, "r4c1", 2)
    endurance = content.event_monsters()[monster]["endurance"]
    verbs.event(s, monster, m, str(endurance))
    edit(GAME, s, f"""
        put ariane {a}
        heroes.ariane.xp = {xp}
        heroes.ariane.bonuses = {json_list(bonuses)}
        turn 0 ariane
    """)
    attack = 3 + bonuses.count("sword")
    s = apply(s, 0, {"type": "attack", "tile": m}, ScriptedDice(*[6] * attack))
    defence = content.event_monsters()[monster]["defence"]
    s = apply(s, 0, {"type": "pass"}, ScriptedDice(*[1] * defence))
    assert s["monsters"][monster]["tile"] is None and s["monsters"][monster]["retreat"] == "gone"
    return s


def json_list(xs: list[str]) -> str:
    return json.dumps(xs)


def test_IND_EVM_1_IND_LVL_5_kelfeerazen_gives_4_experience_and_the_excess_carries_over():
    """«Kelfeerazen otorga 4 Experiencia cuando es enviado a retiro en vez de 3» (IND-EVM-1,
    IND-MDEF-3); «Si un Héroe recibe más experiencia de la que necesita para pasar al siguiente nivel,
    la experiencia en exceso se acumula» (IND-LVL-5): 2 + 4 = 6 reaches level I (3) and 3 carry over
    toward level II (4 more)."""
    s = knock_out("kelfeerazen", 2, [])
    assert s["heroes"]["ariane"]["bonuses"] == ["?"] and s["heroes"]["ariane"]["xp"] == 3
    assert s["pending"][0] == {"kind": "level_bonus", "seat": 0, "options": ["sword", "shield"], "hero": "ariane"}


def test_IND_LVL_6_7_IND_PP_5_groxiah_lifts_a_level_2_hero_to_3_and_its_player_scores():
    """«El Horror Indecible otorga 5 Experiencia» (IND-EVM-1); «Cualquier experiencia ganada después
    que un héroe alcance el nivel 3, puede ser descartada» (IND-LVL-6); «Cada jugador gana 1 punto de
    supremacía por cada héroe nivel 3 que tenga» (IND-PP-5, IND-LVL-7): a level-2 hero with 2 of the 5
    it needs gains 5, reaches level III with 2 to spare, which are discarded, and seat 0 gains 1 PP."""
    before = st.pp(arena(2), 0)
    s = knock_out("groxiah", 2, ["sword", "shield"])
    assert len(s["heroes"]["ariane"]["bonuses"]) == 3 and s["heroes"]["ariane"]["xp"] == 0
    assert st.pp(s, 0) == before + 1 and s["seats"][0]["pp"]["levels"] == 1


# ---------------------------------------------------------------- commander points, Portal
def test_IND_PP_2_IND_AMB_27_a_storm_that_sends_the_enemy_commander_to_retreat_scores():
    """Ambiguity kept. «Cada jugador gana 1 punto de supremacía por enviar a un comandante enemigo en
    retirada» (IND-PP-2, IND-CMD-3) does not say by what means; the ruling (IND-AMB-27) counts an
    ability as well as an attack: Thorn's Wild Storm (2 with its bolt) sends Sun Jun, seat 1's
    commander with 3 of her 5 endurance gone, to retreat, and seat 0 gains 1 PP."""
    _, s = position(GAME.positions["wild-storm"] + """
        seats.1.commander = sunjun
    """)
    before = st.pp(s, 0)
    s = apply(s, 0, {"type": "use_ability", "ability": "wild-storm"})
    while s["pending"] and s["pending"][0]["kind"] == "respond":
        s = apply(s, s["pending"][0]["seat"], {"type": "pass"})
    assert s["heroes"]["sunjun"]["tile"] is None
    assert st.pp(s, 0) == before + 1 and s["seats"][0]["pp"]["commanders"] == 1


def test_IND_EVT_2_IND_AMB_29_no_portal_swap_with_a_monster_on_a_face_down_tile():
    """Ambiguity kept. «Durante su activación, un héroe que esté ocupando esta loseta puede cambiar de
    lugar con cualquier héroe en el tablero» (IND-EVT-2), and a monster «cuenta como héroe enemigo para
    todos los propósitos» (IND-MON-3); yet a hero moved onto a hidden tile reveals it, and one «forzado
    a moverse a una loseta no revelada infranqueable u ocupada ... al usar una habilidad» retreats
    (IND-FOG-5). The ruling (IND-AMB-29) offers no swap with a figure on a face-down tile: Tijian,
    standing on one, is no partner; on a face-up tile he is."""
    s = arena(2)
    p, far = line(s, "r4c1", 2)[0], line(s, "r2c1", 1)[0]
    edit(GAME, s, f"""
        reveal {p} ancient_portal
        put ariane {p}
        hide {far} meadow
        put tijian {far}
        turn 0 ariane
    """)
    assert {"type": "swap", "figure": "tijian"} not in GAME.legal_commands(s, 0)
    edit(GAME, s, f"reveal {far} meadow")
    assert {"type": "swap", "figure": "tijian"} in GAME.legal_commands(s, 0)
