"""Setup in order (IND-SETUP-1, IND-SETUP-2, IND-SETUP-3, IND-SETUP-4, IND-SETUP-5, IND-SETUP-6, IND-SETUP-7, IND-SETUP-8, IND-SETUP-9, IND-SETUP-10, IND-SETUP-11) and the start of round 1."""
from __future__ import annotations

from collections import Counter

import pytest

from domain.core import Drbg, Illegal
from domain.indagar import content, setup
from domain.indagar import state as st
from domain.indagar.board import layout
from domain.indagar.rules import GAME
from ind_support import apply, table

EVENTS = set(content.tiles()["events"])


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_IND_SETUP_1_IND_BOARD_4_5_face_down_mix_is_shuffled_onto_white_and_home_positions(players):
    s = table(players)
    lay = layout(players)
    assert set(s["hidden"]) == set(lay.hidden)
    assert all(s["tiles"][t]["type"] is None for t in lay.hidden)
    kinds = Counter(s["hidden"].values())
    mix = content.tiles()["mix"][players]
    for kind in ("gold", "wood", "ore", "mountains", "mud", "meadow"):
        assert kinds[kind] == mix[kind]
    assert sum(n for k, n in kinds.items() if k in EVENTS) == mix["events"]
    # IND-BOARD-3: starting areas and the Source are face up
    assert all(s["tiles"][t]["type"] for t in lay.start) and s["tiles"][lay.source]["type"] == "source"


def test_IND_BOARD_5_event_tiles_are_drawn_at_random_from_the_pool():
    drawn = [frozenset(Counter(k for k in table(3, seed=bytes([i]))["hidden"].values() if k in EVENTS).items())
             for i in range(6)]
    assert len(set(drawn)) > 1
    pool = content.tiles()["events"]
    for d in drawn:
        assert all(n <= pool[k] for k, n in d)


def test_IND_SETUP_3_IND_AMB_2_initiative_rerolls_only_the_tied_highest():
    for i in range(40):
        rounds, first = setup.initiative_rolls(4, 6, Drbg(bytes([i]), "x"))
        for r in rounds[:-1]:
            best = max(sum(v) for v in r.values())
            assert sum(1 for v in r.values() if sum(v) == best) > 1
        last = rounds[-1]
        assert all(len(v) == 3 for v in last.values())
        assert sum(last[str(first)]) > max(sum(v) for p, v in last.items() if p != str(first))
        for earlier, later in zip(rounds, rounds[1:]):
            best = max(sum(v) for v in earlier.values())
            assert set(later) == {p for p, v in earlier.items() if sum(v) == best}


def test_IND_SETUP_4_5_6_7_factions_heroes_and_commander():
    s = table(2, factions=["forest", "ramal"], commanders=["maeve", "kael"])
    assert [x["faction"] for x in s["seats"]] == ["forest", "ramal"]
    assert s["seats"][0]["heroes"] == content.faction_heroes("forest")
    assert s["seats"][1]["commander"] == "kael"
    # IND-CMD-1: the commander defends with +1
    from domain.indagar.combat import hero_defence
    assert hero_defence(s, "kael") == content.heroes()["kael"]["defence"] + 1
    with pytest.raises(Illegal) as err:
        GAME.validate_options({"factions": ["sect", "sect"]}, 2)
    assert err.value.rule == "IND-SETUP-4"
    with pytest.raises(Illegal) as err:
        GAME.validate_options({"commanders": ["ariane", "maeve"]}, 2)
    assert err.value.rule == "IND-SETUP-7"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_IND_SETUP_8_9_10_monsters_on_homes_heroes_on_deployment_tiles_resources(players):
    s = table(players)
    lay = layout(players)
    assert len(s["monsters"]) == players
    assert sorted(m["tile"] for m in s["monsters"].values()) == sorted(lay.homes.values())
    for p in range(players):
        assert sorted(s["heroes"][h]["tile"] for h in s["seats"][p]["heroes"]) == sorted(lay.deployment(p))
        assert s["seats"][p]["res"] == {"gold": 3, "wood": 2, "ore": 2}
        assert s["seats"][p]["spirits"] == 0
    assert s["source"] == 0                                                  # IND-AMB-3


def test_IND_SETUP_11_IND_ROUND_7_round_1_opens_with_declarations_then_the_initiative_holder():
    s = table(3)
    assert s["round"] == 1 and s["phase"] == "play" and s["turn"] is None
    order = st.play_order(s)
    assert [p["seat"] for p in s["pending"]] == order and {p["kind"] for p in s["pending"]} == {"declare"}
    for seat in order:
        assert GAME.turn(s).seats == {seat}
        s = apply(s, seat, GAME.legal_commands(s, seat)[0])
    assert s["turn"]["who"] == f"seat:{s['initiative']}"                 # IND-ORDER-1
    assert GAME.turn(s).seats == {s["initiative"]}


def test_IND_SOLO_2_IND_BOARD_7_solo_setup_four_monsters_on_random_sealed_homes():
    """IND-SOLO-9: easy mode plays 3 monsters."""
    homes = set()
    for i in range(8):
        s = table(1, seed=bytes([i]))
        assert len(s["monsters"]) == 4
        assert sorted(m["tile"] for m in s["monsters"].values()) == sorted(s["sealed"])
        homes.add(tuple(s["monsters"][m]["home"] for m in sorted(s["monsters"])))
    assert len(homes) > 1
    easy = table(1, solo_easy=True)
    assert len(easy["monsters"]) == 3


def test_IND_MTURN_1_ring_puts_each_monster_after_its_counter_clockwise_seat():
    s = table(4, monsters=["oryana", "helgoth", "spirit-walker", "tijian"])
    assert s["ring"] == ["seat:0", "monster-oryana", "seat:1", "monster-helgoth", "seat:2",
                         "monster-spirit-walker", "seat:3", "monster-tijian"]


def test_start_is_deterministic_per_seed():
    assert table(3, seed=b"same") == table(3, seed=b"same")
    assert table(3, seed=b"same")["hidden"] != table(3, seed=b"other")["hidden"]
    assert st.pp(table(2), 0) == 0
