"""The fifth rules audit's Indagar findings: five fixed in indagar-7, each test quoting the rulebook;
two read against the rulebook and kept, their tests saying why.

Games created under indagar-6 keep its rules (domain/indagar/versions/indagar_6): each test of a fix
also shows the old version as it was, and the stored exports test replays its records."""
from __future__ import annotations

from domain import registry
from domain.core import Drbg, Illegal
from domain.indagar import monsters as mon
from domain.indagar import state as st
from domain.indagar.rules import GAME
from domain.kit import copy_state
from ind_support import ScriptedDice, armour_everyone, line, monster_turn, play_round, run, table
from tests.support.positions import edit, position

OLD = registry.get("indagar", "indagar-6")


def label(game, s: dict, monster: str, rng) -> str:
    """How the move list words ``monster``'s turn under ``game``."""
    from domain.indagar import positions as verbs
    s = copy_state(s)
    verbs.turn(s, monster)
    who = s["turn"]["who"]
    return game.actor_label(s, who, game.decide_actor(s, who, rng), public=True)


# ---------------------------------------------------------------- (a) Oryana and an occupied Source
def oryana_and_a_held_source() -> tuple[dict, str, str]:
    """Oryana two tiles from the Source, where Zhuan stands, too well armoured to be juicy:
    (state, her tile, the Source)."""
    _, s = position("""
        indagar 4 seed=indagar
        arena
        source = 2
    """)
    src = st.board(s).source
    start = next(t for t in sorted(s["tiles"]) if st.board(s).distance(t, src) == 2)
    edit(GAME, s, f"""
        put oryana {start}
        put zhuan {src}
        armour zhuan
    """)
    assert not mon.juicy(s, "oryana", src)
    return s, start, src


def test_IND_MTGT_5_IND_MMOV_5_oryana_breaks_through_to_a_source_a_figure_holds():
    """«Oryana ... estando demasiado ocupada en obtener la Fuente de Poder» (IND-MON-6); a target a
    monster «no puede alcanzar por una loseta ocupada» is reached through it: «El monstruo parará
    adyacente a la primera loseta ocupada ... Entonces, atacará a lo que sea que esté ocupando esa
    loseta, aún cuando la loseta ocupante no sea un objetivo jugoso» (IND-MTGT-5, IND-MMOV-5,
    IND-JUICY-4). Such an attack is no opportunity attack, which she never makes (IND-OPP-3). Zhuan
    holds the Source: Oryana walks up to it and attacks him; knocked out, he leaves it to her (she
    charges in, IND-FB-5). indagar-6 gave her no target while a figure stood there: she stayed
    where she was and did nothing."""
    s, start, src = oryana_and_a_held_source()
    assert mon.choose_target(s, "oryana") == ([src], True, "gather", True)
    after = monster_turn(s, "oryana", ScriptedDice(6, 6, *[1] * 6))
    here = after["monsters"]["oryana"]["tile"]
    assert here in st.board(s).neighbours[src] and st.board(s).distance(start, here) == 1
    assert after["attack"]["tile"] == src and after["attack"]["breakthrough"]
    assert after["attack"]["defender"] == ["hero", "zhuan"]
    after = run(GAME, after, 1, {"type": "pass"})                             # 12 against 6: retreat
    assert after["heroes"]["zhuan"]["tile"] is None and after["monsters"]["oryana"]["tile"] == src
    assert label(GAME, s, "oryana", ScriptedDice(6, 6, *[1] * 6)) == \
        f"Move to {here} (Meadow), then break through: attack Zhuan Zedan at {src}"
    old = monster_turn(s, "oryana", ScriptedDice(6, 6, *[1] * 6), game=OLD)
    assert old["monsters"]["oryana"]["tile"] == start and old["attack"] is None and not old["pending"]
    assert label(OLD, s, "oryana", ScriptedDice()) == "Take no action"


def test_IND_OPP_3_oryana_short_of_a_held_source_makes_no_opportunity_attack():
    """Four tiles off, her 2 moves leave her short of the Source, beside a juicy hero who is not in
    her way: she takes no action, for she «nunca realiza un ataque de oportunidad» (IND-OPP-3).
    indagar-6 did not move her at all."""
    s, start, src = oryana_and_a_held_source()
    lay = st.board(s)
    far = next(t for t in sorted(s["tiles"]) if lay.distance(t, src) == 4)
    edit(GAME, s, f"put oryana {far}")
    stop = monster_turn(s, "oryana")["monsters"]["oryana"]["tile"]
    assert lay.distance(stop, src) == 2
    aside = next(n for n in sorted(lay.neighbours[stop])              # off her route: not next to where she set out
                 if lay.distance(n, src) >= 2 and n != far and n not in lay.neighbours[far])
    edit(GAME, s, f"put elowen {aside}")                                  # defence 2, her attack 2
    assert mon.juicy(s, "oryana", aside)
    after = monster_turn(s, "oryana")
    assert after["monsters"]["oryana"]["tile"] == stop and after["attack"] is None and not after["pending"]
    assert monster_turn(s, "oryana", game=OLD)["monsters"]["oryana"]["tile"] == far


# ---------------------------------------------------------------- (b) experience before Charge Through
CHARGE_ONTO_THE_SWAMP = """
    indagar 2 seed=indagar
    arena
    put ariane r4c1
    put zhuan r4c2
    reveal r4c2 poison_swamp
    heroes.ariane.xp = 2          # one short of level I
    heroes.ariane.damage = 4      # the swamp's 2 reach her endurance 6
    turn 0 ariane
"""


def hit_and_fall_back(game) -> dict:
    """Ariane hits Zhuan on the Poison Swamp for 2; he falls back, leaving it free to charge into."""
    s = position(CHARGE_ONTO_THE_SWAMP)[1]
    s = run(game, s, 0, {"type": "attack", "tile": "r4c2"}, ScriptedDice(2, 1, 1))
    s = run(game, s, 0, {"type": "pass"}, ScriptedDice(1, 1))
    s = run(game, s, 1, {"type": "pass"})
    return run(game, s, 1, {"type": "fall_back", "to": s["pending"][0]["options"][0]})


def test_IND_LVL_5_IND_RET_4_experience_comes_before_a_charge_through_that_ends_in_retreat():
    """«Cada vez que un héroe ataca o defiende exitosamente, gana 1 experiencia» and «Una vez que un
    héroe tiene suficiente experiencia para pasar al siguiente nivel, debe hacerlo inmediatamente»
    (IND-LVL-3, IND-LVL-5): the success is settled once Zhuan took his 2 and fell back, before the
    optional Charge Through (IND-FB-4). Ariane's third point makes her level I at once; charging
    onto the Poison Swamp then sends her to retreat, which clears her experience but «Nunca se
    quitan las fichas de subida de nivel» (IND-RET-2, IND-RET-4): she comes back at level I.
    indagar-6 awarded the experience only after the Charge Through, to a hero by then in retreat:
    she kept nothing."""
    s = hit_and_fall_back(GAME)
    assert s["heroes"]["ariane"]["bonuses"] == ["?"] and s["heroes"]["ariane"]["xp"] == 0
    assert [p["kind"] for p in s["pending"]] == ["level_bonus", "charge_through"]
    assert GAME.legal_commands(s, 0) == [{"type": "level_bonus", "side": "sword"},
                                         {"type": "level_bonus", "side": "shield"}]
    s = run(GAME, s, 0, {"type": "level_bonus", "side": "sword"})
    s = run(GAME, s, 0, {"type": "charge_through", "go": True})
    ariane = s["heroes"]["ariane"]
    assert ariane["tile"] is None and ariane["xp"] == 0 and ariane["bonuses"] == ["sword"]
    assert s["attack"] is None and not s["pending"]
    old = hit_and_fall_back(OLD)
    assert [p["kind"] for p in old["pending"]] == ["charge_through"] and old["heroes"]["ariane"]["xp"] == 2
    old = run(OLD, old, 0, {"type": "charge_through", "go": True})
    assert old["heroes"]["ariane"]["tile"] is None and old["heroes"]["ariane"]["bonuses"] == []


def test_the_declared_position_levelled_before_charging_through_is_that_moment():
    """The position ``levelled-before-charging-through`` (where the conformance tests check legality
    both ways) is the moment above: the level-up side asked before the Charge Through, which is
    refused until it is answered."""
    s = hit_and_fall_back(GAME)
    _, declared = position(GAME.positions["levelled-before-charging-through"])
    for key in ("pending", "attack", "turn", "outposts", "tiles", "hidden", "heroes", "monsters"):
        assert s[key] == declared[key], key
    try:
        GAME.decide(declared, 0, {"type": "charge_through", "go": True}, Drbg(b"t", "cmd"))
    except Illegal as refused:
        assert refused.code == "bad_decision"
    else:
        raise AssertionError("a Charge Through was accepted before the level-up side")


def test_IND_SUC_4_the_experience_is_the_same_when_the_charge_through_is_declined():
    """Declining the Charge Through changes nothing but the order: level I either way."""
    for game in (GAME, OLD):
        s = hit_and_fall_back(game)
        while s["pending"]:
            first = game.legal_commands(s, 0)[0]
            s = run(game, s, 0, first if first["type"] != "charge_through" else {"type": "charge_through", "go": False})
        assert s["heroes"]["ariane"]["tile"] == "r4c1" and len(s["heroes"]["ariane"]["bonuses"]) == 1


# ---------------------------------------------------------------- (d) Tijian on a resource tile
def tijian_on_gold() -> tuple[dict, str, str]:
    """Tijian on a gold tile, an ore tile two steps off, no other resource tile: (state, gold, ore)."""
    _, s = position("""
        indagar 4 seed=indagar
        arena
    """)
    gold, _between, ore = line(s, "r2c1", 3)
    for t in s["tiles"]:
        if s["tiles"][t]["type"] in ("gold", "wood", "ore"):
            edit(GAME, s, f"reveal {t} meadow")
    edit(GAME, s, f"""
        reveal {gold} gold
        reveal {ore} ore
        put tijian {gold}
    """)
    return s, gold, ore


def test_IND_MON_6_IND_TERM_2_tijian_destroys_the_resource_tile_he_stands_on():
    """«Tijian se enfoca en la loseta de recurso desocupada más cercana»: a tile is occupied for a
    figure when another one is there -- «la loseta actualmente no está ocupada por otro héroe, un
    monstruo» (IND-TILE-3/4) --, so the gold under his feet, 0 tiles away, is his target, and his
    action destroys it (IND-OPP-1 rule 3: «como Tijian para destruir una loseta»). indagar-6 counted
    his own tile as occupied: he walked off to destroy the ore, leaving the gold he stood on."""
    s, gold, ore = tijian_on_gold()
    after = monster_turn(s, "tijian")
    assert after["monsters"]["tijian"]["tile"] == gold
    assert after["tiles"][gold]["destroyed"] and not after["tiles"][ore]["destroyed"]
    assert after["monsters"]["tijian"]["counts"] == {"tiles_destroyed": 1}
    assert label(GAME, s, "tijian", Drbg(b"m", "turn")) == f"Destroy {gold} (Gold)"
    old = monster_turn(s, "tijian", game=OLD)
    assert old["monsters"]["tijian"]["tile"] == ore and old["tiles"][ore]["destroyed"]
    assert not old["tiles"][gold]["destroyed"]


def test_IND_MTGT_6_a_monster_on_its_target_tile_is_not_walled_in():
    """Mountains all round do not keep Tijian from the gold he stands on: he is not stuck
    (IND-MTGT-6, «incapaz de alcanzar»: nothing is out of reach) and destroys it."""
    s, gold, ore = tijian_on_gold()
    for n in st.board(s).neighbours[gold]:
        edit(GAME, s, f"reveal {n} mountains")
    assert not mon.stuck(s, "tijian")
    after = monster_turn(s, "tijian")
    assert after["tiles"][gold]["destroyed"]


# ---------------------------------------------------------------- (e) skipRound1 and event monsters
def event_monster_in_round_1(game) -> tuple[dict, list[str]]:
    """Round 1 under ``monster_start: skipRound1``, with Kakonositel on the board, far from every
    hero; no primary monster (they would not act in round 1 anyway), nobody juicy."""
    s = armour_everyone(table(2, monster_start="skipRound1"))
    far = max((t for t in s["tiles"] if s["tiles"][t]["type"] is None and st.figure_at(s, t) is None),
              key=lambda t: min(st.board(s).distance(t, x["tile"]) for x in s["heroes"].values() if x["tile"]))
    for m in st.primaries(s):
        edit(GAME, s, f"put {m} none")
    edit(GAME, s, f"event kakonositel {far}")
    return play_round(s, game=game)


def test_IND_AMB_36_IND_MTURN_6_under_skipRound1_no_event_monster_acts_in_round_1():
    """«Los monstruos no se activan durante la primera ronda de juego ... Ellos comenzarán a tener sus
    turnos desde la segunda ronda de juego» (IND-MTURN-6), read literally by ``skipRound1``
    (IND-AMB-36 (A)): Kakonositel's one turn «al final de la ronda de juego» (IND-EVM-3) is a monster
    turn in round 1 too, so it is skipped; it acts at the end of round 2. indagar-6 skipped only the
    primary monsters and let it act at the end of round 1."""
    s, whos = event_monster_in_round_1(GAME)
    assert s["round"] == 2 and "event-kakonositel" not in whos
    s, whos = play_round(s)
    assert whos[-1] == "event-kakonositel"
    old, whos = event_monster_in_round_1(OLD)
    assert old["round"] == 2 and whos[-1] == "event-kakonositel"


def test_IND_EVM_2_its_reveal_attack_is_no_turn_and_still_happens_in_round_1():
    """«Primero, ellos inmediatamente atacarán al héroe que reveló su loseta (si aplica). Segundo,
    ellos solo tienen 1 turno»: the reveal attack is not the monster's turn, so ``skipRound1``
    leaves it alone."""
    _, s = position("""
        indagar 2 seed=indagar options={"monster_start": "skipRound1"}
        arena
        put ariane r4c1
        hide r4c2 kakonositel
        turn 0 ariane
    """)
    assert s["round"] == 1
    s = run(GAME, s, 0, {"type": "move", "to": "r4c2"}, ScriptedDice(*[1] * 12))
    assert s["attack"]["attacker"] == ["monster", "kakonositel"] and s["attack"]["reveal"]


# ---------------------------------------------------------------- (g) a concession ranks no monster
def resigned(game, players: int, seat: int) -> dict:
    s = table(players)
    for ev in game.decide_platform(s, seat, {"type": "resign"}, Drbg(b"r", "resign")):
        s = game.evolve(s, ev)
    return game.scores(s).to_dict()


def places(board: dict) -> dict[str, int | None]:
    return {p["id"]: p["place"] for p in board["participants"]}


def test_IND_WIN_7_a_seat_resigning_leaves_the_monsters_unranked():
    """A monster places only by its victory: «Si un monstruo completa sus condiciones de victoria, el
    monstruo gana y todos los jugadores pierden» (IND-WIN-7). A seat that resigns places last of the
    seats (``domain.kit.platform``); the monsters' lines keep no place, as in any game they did not
    win. indagar-6 let the kit rank their unplaced lines between the seat left and the conceder: in
    a two-player game the resigning player read "#4 of 4" (the web counts the lines that hold a
    place, ``server/web/static/panels.js`` placeText), and the scores, not the page, said so."""
    board = resigned(GAME, 2, 1)
    assert places(board) == {"seat:0": 1, "seat:1": 2, "actor:monster-helgoth": None, "actor:monster-tijian": None}
    assert board["outcome"] == {"kind": "win", "winners": ["seat:0"]} and board["ranking"] == [0, 1]
    assert sum(p["place"] is not None for p in board["participants"]) == 2               # "#2 of 2"
    old = resigned(OLD, 2, 1)
    assert places(old) == {"seat:0": 1, "actor:monster-helgoth": 2, "actor:monster-tijian": 2, "seat:1": 4}
    three = places(resigned(GAME, 3, 0))
    assert three["seat:0"] == 3 and {three["seat:1"], three["seat:2"]} == {1, 2}     # in the rules' order


def test_IND_SOLO_10_a_solo_player_resigning_loses_as_at_the_end_of_a_lost_game():
    """Solo, the player «pierde el juego» without 10 PP at the end of round 10 (IND-SOLO-10): no
    player wins, nobody places first, the monsters stay unranked -- as a resignation now reads too.
    indagar-6 ranked the four monsters first, as if they had won."""
    board = resigned(GAME, 1, 0)
    assert board["outcome"] == {"kind": "no_player_wins", "winners": []}
    assert places(board)["seat:0"] == 2 and all(v is None for k, v in places(board).items() if k != "seat:0")
    old = resigned(OLD, 1, 0)
    assert old["outcome"]["winners"] == ["actor:monster-helgoth", "actor:monster-oryana",
                                         "actor:monster-spirit-walker", "actor:monster-tijian"]


def test_an_abort_ranks_nobody_under_both_versions():
    for game in (GAME, OLD):
        s = table(2)
        for ev in game.decide_platform(s, None, {"type": "abort"}, Drbg(b"r", "abort")):
            s = game.evolve(s, ev)
        assert game.scores(s).to_dict()["outcome"]["kind"] == "aborted"


# ---------------------------------------------------------------- kept: (c) and (f)
def test_IND_EVT_4_IND_AMB_25_kept_a_cache_token_may_go_to_a_hero_in_retreat():
    """Kept as the rules say: «Dale al jugador que des-cubrió esta loseta, una ficha de +1
    Ataque/Subir de Nivel» gives the token to the player, and IND-AMB-25 lets the player put it on
    «one of their heroes, their choice». A hero in retreat is still the player's hero, set «en su
    carta de héroe», where its level-up tokens stay (IND-RET-4); the rules strip a hero's tokens
    only «Cuando un héroe entra en retiro» (IND-RET-2), not while it is there. So Bertram, in
    retreat, may take it, and keeps it until he next retreats (option
    ``cache_tokens_survive_retreat``). The same under indagar-6."""
    text = """
        indagar 2 seed=indagar
        arena
        put ariane r4c1
        hide r4c2 weapons_cache
        turn 0 ariane
    """
    for game in (GAME, OLD):
        s = run(game, position(text)[1], 0, {"type": "move", "to": "r4c2"})
        assert s["heroes"]["bertram"]["tile"] is None
        assert {"type": "choose_hero", "hero": "bertram"} in game.legal_commands(s, 0)
        s = run(game, s, 0, {"type": "choose_hero", "hero": "bertram"})
        assert s["heroes"]["bertram"]["caches"] == ["sword"] and s["heroes"]["ariane"]["caches"] == []


def test_IND_ABL_10_kept_light_of_mending_may_be_used_on_an_undamaged_hero():
    """Kept as the rules say: «Las habilidades pueden ser usadas en cualquier momento durante tu turno
    de juego» (IND-ABL-10), paying the cost «al momento de activarlas» (IND-ABL-4); no rule asks an
    ability to have something to do. And the use is not idle: it makes the seat «el último jugador
    que usó una habilidad», the one the Spirit Walker hunts (IND-MON-6), and uses the ability for the
    turn (IND-ABL-6). Mother Elowen, unhurt, may use Light of Mending: the wood is paid, nothing is
    healed. The same under indagar-6."""
    text = """
        indagar 2 seed=indagar
        arena
        put elowen r4c1
        seats.0.res = {"gold": 0, "wood": 1, "ore": 0}
        last_ability_seat = 1
        turn 0 elowen
    """
    for game in (GAME, OLD):
        s = position(text)[1]
        assert {"type": "use_ability", "ability": "light-of-mending"} in game.legal_commands(s, 0)
        s = run(game, s, 0, {"type": "use_ability", "ability": "light-of-mending"})
        assert s["seats"][0]["res"]["wood"] == 0 and s["heroes"]["elowen"]["damage"] == 0
        assert s["last_ability_seat"] == 0 and s["turn"]["used"] == ["light-of-mending"]


def test_the_fixes_are_indagar_7():
    assert GAME.rules_version == "indagar-7" and OLD.rules_version == "indagar-6"
