"""The search bot's solo play against Andvettr (``race``, ``sampler``): the table is judged as a
race of the player's 4th Object (DW-END-1) against his 13th Medal (DW-AND-8), and the rollouts
block the only free location of the kind his second worker seeks (DW-AND-2, DW-AMB-28)."""
from __future__ import annotations

from domain.core import Drbg
from domain.dwarf import race, sampler
from domain.dwarf.greedy import rollout
from domain.dwarf.grid import LOCATIONS
from domain.dwarf.rules import GAME
from tests.dwarf.dwarf_support import act, give, start, step_actor, who
from tests.dwarf.test_dwarf_rounds import stage_mine
from tests.support.positions import edit

GOLD, KNOCKERS, DRAGON, AXE, SWORD, HELP = "S2", "S8", "M09", "M08", "S7", "S5"  # Gold Vein, two Defends, Forge Axe
# and Sword, Receive Help
AUTO = 1


def solo(cards: dict, medals: int = 5, level: str = "andvettr", **options) -> dict:
    """Solo against ``level``: Gold Veins wherever ``cards`` puts nothing; Andvettr holds
    ``medals`` and has placed his first worker; the player's first placement is next. Unless
    ``options`` say otherwise, under rules dwarf-3's readings (his second worker seeks a Defend,
    DW-AMB-28, and defends twice, DW-AMB-31), which the tests below are about."""
    options = {"andvettr_second_worker_rule": "defend", "andvettr_double_actions": "all", **options}
    s = stage_mine(start(1, solo_level=level, **options), {**{loc: GOLD for loc in LOCATIONS}, **cards})
    s = give(s, AUTO, medal=medals)
    s = step_actor(s)
    assert who(s) == 0
    return s


def place(loc: str) -> dict:
    return {"type": "place", "mine": 0, "location": loc}


def judged(s: dict, command: dict) -> float:
    """The search's value of the round played out after ``command`` (the rollout's end)."""
    return sampler.evaluate(rollout(s, 0, command), [0])[0]


def test_DW_AND_2_DW_AND_5_the_rollout_blocks_the_only_free_defend_location():
    """DW-AND-2, DW-AND-5, DW-AMB-31: one free Defend location: the player's first worker takes
    it, or his second worker would defend it for 2 Medals. Two free: he would take the other,
    so the rollout plays its usual step."""
    s = solo({"32": KNOCKERS})
    assert "0:32" not in s["workers"]
    assert sampler.block(s, 0) == place("32")
    assert sampler.rollout(GAME, s, 0, Drbg(b"r", "r")) == place("32")
    assert sampler.block(solo({"32": KNOCKERS, "12": DRAGON}), 0) is None
    assert sampler.block(solo({"32": KNOCKERS}, level="eldhusfifl"), 0) is None  # Eldhusfifl never seeks a Defend


def test_DW_AND_2_the_rollout_blocks_the_only_free_location_of_the_kind_he_seeks():
    """DW-AND-2, DW-AMB-28 (rules dwarf-4): his second worker seeks Receive Help first, so the
    rollout's first worker takes the only free one, and leaves a lone Defend location alone;
    where he seeks any free location (the literal reading), nothing is blocked."""
    dwarf4 = {"andvettr_second_worker_rule": "receive_help", "andvettr_double_actions": "forge"}
    assert sampler.block(solo({"22": HELP, "32": KNOCKERS}, **dwarf4), 0) == place("22")
    assert sampler.block(solo({"32": KNOCKERS}, **dwarf4), 0) is None
    assert sampler.block(solo({"22": HELP}, andvettr_second_worker_rule="any_empty"), 0) is None


def test_DW_AND_2_DW_AND_8_the_evaluation_prefers_blocking_his_defend_before_his_medals_are_near():
    """DW-AND-2, DW-AND-5, DW-AND-8: at 5 Medals, far from his instant win, the round in which the
    player holds the only free Defend location (he gets no Medal) is judged better than any
    round in which the player mines Gold (he gets 2)."""
    s = solo({"32": KNOCKERS})
    others = [c for c in GAME.legal_commands(s, 0) if c["type"] == "place" and c != place("32")]
    assert others and judged(s, place("32")) > max(judged(s, c) for c in others)


def test_DW_END_1_DW_RES_4_the_evaluation_prefers_forging_what_the_holdings_pay_for():
    """DW-END-1, DW-RES-4, DW-GLOS-3: the player's last placement of the round, holding 3 Iron
    and 1 Steel with a Forge Axe showing: the round that forges it is judged better than the
    round that mines Gold instead."""
    s = give(solo({"13": AXE, "32": KNOCKERS}), 0, iron=3, steel=1)
    s = step_actor(act(s, 0, place("32")))
    assert who(s) == 0 and GAME.legal_commands(s, 0)
    assert judged(s, place("13")) > judged(s, place("33"))


def test_DW_AND_8_DW_END_1_the_chance_grows_with_objects_and_shrinks_with_his_medals():
    """DW-AND-8, DW-AMB-32, DW-END-1: at a round's end, more of his Medals or one more Defend
    location showing lowers the player's chance; one more Object raises it."""
    s = solo({"32": KNOCKERS})
    c = race.chance(s, 0)
    assert race.chance(give(s, AUTO, medal=2), 0) < c
    forged = give(s, 0, object=1)
    assert forged["players"][0]["created"] == 1  # an Object gained is an Object created (DW-AMB-23)
    assert race.chance(forged, 0) > c
    assert race.chance(solo({"32": KNOCKERS, "12": DRAGON}), 0) < c


def test_DW_RES_4_DW_SPEC_9_the_recipes_on_offer_and_what_the_holdings_pay():
    """DW-RES-4, DW-GLOS-3, DW-SPEC-9: the Forge cards showing and, until the player's 3rd
    Special Action, the pile tops that make an Object; ``ready`` pays each once at most."""
    s = solo({"13": AXE, "31": SWORD})
    forges = [{"iron": 3, "steel": 1}, {"steel": 3}]
    tops = [c for c in race.recipes(s, 0) if c not in forges]
    assert race.recipes(s, 0)[:2] == forges
    assert all(c in ({"steel": 2}, {"iron": 2}) for c in tops)  # Master Smith, Heirloom
    spent = GAME.load_state(s)
    edit(GAME, spent, "players.0.specials = 3")  # staged: the 3 Special Actions allowed (DW-AND-7)
    assert race.recipes(spent, 0) == forges
    held = {"iron": 3, "gold": 0, "steel": 3, "object": 0, "medal": 0}
    assert race.ready(held, forges, 4) == 1  # the Axe or the Sword: together they need 4 Steel
    assert race.ready({**held, "steel": 4}, forges, 4) == 2
    assert race.ready({**held, "steel": 4}, forges, 1) == 1


def test_the_race_is_only_against_andvettr():
    """DW-AND-8 is Andvettr's (and his father's, DW-FAD-1): against Eldhusfifl or in a 2-seat
    game there is no race and the evaluation is the majorities' (``greedy.worth``)."""
    assert race.chance(solo({}, level="andvettr-fadir"), 0) is not None
    assert race.chance(solo({}, level="eldhusfifl"), 0) is None
    assert race.chance(start(2), 0) is None
