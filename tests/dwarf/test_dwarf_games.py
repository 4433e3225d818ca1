"""Whole games: every player count and solo level runs to an end (DW-END) with every bot."""
from __future__ import annotations

import pytest

from domain.dwarf.rules import GAME
from domain.kit import search
from tests.dwarf.dwarf_support import played


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("bot", sorted(set(GAME.bots) - set(search.levels(GAME.bots))))  # search: tests/kit
def test_DW_ROUND_1_DW_ROUND_2_bot_games_end(n, bot):
    """DW-ROUND-1/2, DW-END-1/2: rounds repeat until 4 Objects or an empty Mountain."""
    s = played(n, bot, seed=bytes([n])).state
    assert s["ended"] in ("four_objects", "mountain_empty")
    board = GAME.scores(s)
    assert board.final and board.winners


@pytest.mark.parametrize("level", ["eldhusfifl", "andvettr", "andvettr-fadir"])
def test_DW_SOLO_2_each_level_plays_to_the_end(level):
    """DW-SOLO-2: any level can be chosen and the game reaches an end."""
    s = played(1, "greedy", solo_level=level).state
    assert s["ended"] in ("four_objects", "mountain_empty", "automaton_medals")
    assert GAME.scores(s).final


def test_same_seed_same_game():
    a, b = played(3, seed=b"same"), played(3, seed=b"same")
    assert a.state == b.state and [s.events for s in a.steps] == [s.events for s in b.steps]
