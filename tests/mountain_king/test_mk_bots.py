"""Bots (bots.py): every command they return is legal, greedy games end, greedy beats
random, and greedy's choice never depends on hidden information (MK-INFO-1, MK-AMB-28)."""
from __future__ import annotations

from functools import lru_cache

import pytest

from domain import kit
from domain.core import Drbg, Seat
from domain.mountain_king import bots, terrain
from domain.mountain_king.content import MINERALS
from domain.mountain_king.digging import HONOR
from domain.mountain_king.economy import resource_of
from domain.mountain_king.rules import GAME
from domain.mountain_king.state import key

TABLES = {"2": (2, None), "3": (3, None), "4": (4, None), "5": (5, None), "teams": (4, {"teams": True})}


def play(bots: tuple[str, ...], seed: bytes, options: dict | None = None, max_decisions: int = 3000):
    """A seeded game (the kit's driver); every bot command must be listed by legal_commands
    and accepted by decide (the driver raises if it is refused)."""
    def listed(bot):
        def policy(game, state, seat, rng):
            cmd = GAME.bots[bot](game, state, seat, rng)
            assert cmd in game.legal_commands(state, seat), (bot, cmd)
            return cmd
        return policy

    seats = [Seat(i, f"{b}{i}", b) for i, b in enumerate(bots)]
    g = kit.play(GAME, seats, options or {}, seed, max_steps=max_decisions,
                 policies={i: listed(b) for i, b in enumerate(bots)})
    return g.state, len(g.steps) - 1


@lru_cache(maxsize=None)
def duel(g: int):
    """Greedy against random, greedy first in even games (cancels the first-player edge)."""
    bots = ("greedy", "random") if g % 2 == 0 else ("random", "greedy")
    state, _ = play(bots, b"mk-duel-%d" % g)
    return bots, state


@pytest.mark.parametrize("table", ["3", "4", "5", "teams"])  # 2 players: the duels below
def test_bots_commands_are_legal_at_mixed_tables(table):
    players, options = TABLES[table]
    bots = tuple("greedy" if i % 2 == 0 else "random" for i in range(players))
    state, n = play(bots, f"mk-mixed-{table}".encode(), options, max_decisions=120)
    assert n == 120 or GAME.is_terminal(state)
    assert state["phase"] in ("play", "over")  # past doors and draft: every kind of step was reached


@pytest.mark.parametrize("table", sorted(TABLES))
def test_random_bot_commands_are_legal_to_the_end(table):
    players, options = TABLES[table]
    state, _ = play(("random",) * players, f"mk-random-{table}".encode(), options)
    assert GAME.is_terminal(state)


def test_greedy_games_end():
    for g in range(4):
        _, state = duel(g)
        assert GAME.is_terminal(state)
        assert GAME.scores(state).final


def test_greedy_only_2_player_game_ends():
    state, n = play(("greedy", "greedy"), b"mk-greedy-2")
    assert GAME.is_terminal(state), n


def test_greedy_beats_random_more_often_than_not():
    wins = 0.0
    for g in range(10):
        bots, state = duel(g)
        winners = GAME.scores(state).winners
        greedy = bots.index("greedy")
        wins += (greedy in winners) / len(winners)
    assert wins >= 8


def _midgame(players: int, seed: bytes, decisions: int):
    state, _ = play(("random",) * players, seed, max_decisions=decisions)
    assert state["phase"] == "play"
    return state


def test_greedy_choice_ignores_hidden_deck_orders():
    """MK-INFO-1: the troll decks and spell deck order are secret, so reordering them
    must not change what greedy does."""
    state = _midgame(3, b"mk-hidden", 60)
    seat = min(GAME.active_seats(state))
    other = GAME.load_state(GAME.dump_state(state))
    for lv, deck in other["horde"]["decks"].items():
        other["horde"]["decks"][lv] = deck[::-1]
    other["spells"]["deck"] = other["spells"]["deck"][::-1]
    pick = GAME.bots["greedy"]
    assert pick(GAME, state, seat, Drbg(b"same", "b")) == pick(GAME, other, seat, Drbg(b"same", "b"))


def test_greedy_draft_ignores_other_hands():
    """MK-PSETUP-4: another seat's hand and deck are unseen during the starter draft."""
    state, _ = play(("random",) * 3, b"mk-draft", max_decisions=3)  # doors placed, draft begun
    assert state["phase"] == "draft"
    other = GAME.load_state(GAME.dump_state(state))
    dr = other["draft"][1]
    dr["hand"], dr["deck"] = dr["deck"][:len(dr["hand"])], dr["hand"] + dr["deck"][len(dr["hand"]):]
    pick = GAME.bots["greedy"]
    assert pick(GAME, state, 0, Drbg(b"same", "b")) == pick(GAME, other, 0, Drbg(b"same", "b"))


def test_dig_pre_score_reads_the_board():
    """A dig's pre-score (bots._dig_score, from the per-board cell table) is, to the last bit,
    tunnel honor less the minerals spent plus per cell what lies buried (MK-DIG-9), twice the
    level of a covered statue and less a hammer for rubble (MK-DIG-8), read from the board."""
    checked = []

    def check(game, state, seat, rng):
        b = terrain.side(state)
        for cmd in game.legal_commands(state, seat):
            if cmd["type"] != "dig":
                continue
            size = len(cmd["cells"])
            want = HONOR[size][MINERALS.index(cmd["mineral"])] - size * bots.WORTH[cmd["mineral"]]
            for cell in map(tuple, cmd["cells"]):
                want += sum(bots.WORTH[resource_of(r)] for r in b.buried.get(cell, ()))
                if key(cell) in state["statues"]:
                    want += 2 * b.level(cell)
                if cell in b.rubble:
                    want -= bots.WORTH["hammer"]
            assert bots._dig_score(state, bots._board_tables(b)[1], cmd) == want, cmd
            checked.append(cmd)
        return GAME.bots["greedy"](game, state, seat, rng)

    kit.play(GAME, [Seat(i, f"g{i}", "greedy") for i in range(3)], {}, b"mk-digs", max_steps=150,
             policies={i: check for i in range(3)})
    assert len(checked) > 1000  # greedy digs: statues, rubble and buried resources all met


def test_search_listing_spells_decks_by_size_only():
    """MK-INFO-1: the search shares a node's legal list between deals that differ only in the
    decks' hidden orders; anything public that changes, or the starter draft's hands, is not shared."""
    from domain.mountain_king.sampler import listing
    state = _midgame(3, b"mk-hidden", 60)
    other = GAME.load_state(GAME.dump_state(state))
    for lv, deck in other["horde"]["decks"].items():
        other["horde"]["decks"][lv] = deck[::-1]
    other["spells"]["deck"] = other["spells"]["deck"][::-1]
    assert other != state and listing(other) == listing(state)
    richer = GAME.load_state(GAME.dump_state(state))
    richer["stores"][0]["coin"] = richer["stores"][0].get("coin", 0) + 1
    assert listing(richer) != listing(state)
    shorter = GAME.load_state(GAME.dump_state(state))
    shorter["spells"]["deck"] = shorter["spells"]["deck"][1:]
    assert listing(shorter) != listing(state)
    draft, _ = play(("random",) * 3, b"mk-draft", max_decisions=3)
    assert listing(draft) is None


def _root(spec, state, seat: int, playouts: int) -> dict:
    """Every root child's visits and total value after ``playouts`` iterations (``search.choose``'s loop)."""
    from domain.kit import search
    obs, root, shared = spec.observe(state, seat), search._Node(None, None), search._Shared()
    allowed = search._keyed(GAME.legal_commands(state, seat))
    seats = list(range(GAME.players(state)))
    for i in range(playouts):
        search._iterate(GAME, obs, seats, allowed, root, spec, Drbg(b"same", "m").fork(f"i{i}"), shared)
    return {k: (c.visits, c.total) for k, c in root.children.items()}


@pytest.mark.parametrize("seed,decisions", [(b"mk-hidden", 20), (b"mk-listing", 76)])
def test_shared_listings_leave_the_search_tree_unchanged(seed, decisions):
    """Sharing listings, the pre-scores `greedy` keeps in their memo, and the values of the
    commands it simulated there only save work here: from the same stream the tree's root gathers
    the same visits and values without them, so the move is the same. (A kept value is one sample
    where a command's simulation draws from a hidden order: the same draw in distribution, not
    always the same card; at these positions no choice turns on it.)"""
    from dataclasses import replace
    state = _midgame(2, seed, decisions)
    seat = min(GAME.active_seats(state))
    spec = GAME.bots["search-normal"].spec
    assert _root(spec, state, seat, 60) == _root(replace(spec, listing=None), state, seat, 60)


def test_greedy_simulates_a_command_once_per_memo(monkeypatch):
    """In the search, `greedy` simulates a command once per spelling of the state (its memo) and
    reads its value back at later widenings; a command that draws nothing hidden (a trade) keeps
    the value a new simulation on another deal gives."""
    from domain.kit.search import _Listed
    state = _midgame(2, b"mk-listing", 76)
    seat = min(GAME.active_seats(state))
    legal = GAME.legal_commands(state, seat)
    simulated = []
    real = bots._simulated

    def spy(judge, after, seat, cmd, sim):
        simulated.append(id(cmd))
        return real(judge, after, seat, cmd, sim)

    monkeypatch.setattr(bots, "_simulated", spy)
    memo: dict = {}
    for stream in ("a", "b", "c"):
        bots.greedy_policy(_Listed(GAME, state, seat, legal, memo), state, seat, Drbg(b"memo", stream))
    assert simulated and len(simulated) == len(set(simulated)) == len(memo["values"])
    trades = [c for c in legal if c["type"] == "trade" and id(c) in memo["values"]]
    assert trades
    world = bots.determinise(state, seat, Drbg(b"memo", "other"))
    for cmd in trades:
        fresh = real(bots.Judge(world, seat), GAME.load_state(GAME.dump_state(world)), seat, cmd, Drbg(b"x", "y"))
        assert fresh == memo["values"][id(cmd)]


@pytest.mark.parametrize("players", [2, 3])
def test_the_leaf_judges_every_seat_as_greedy_does(players):
    """``bots.estimates`` (the search's leaf, every seat at once) is, to the last bit, each
    seat's ``Judge(s, p).value(s)``, all through a game."""
    seen = []

    def check(game, state, seat, rng):
        if state["phase"] == "play":
            seats = list(range(players))
            assert bots.estimates(state, seats) == {p: bots.Judge(state, p).value(state) for p in seats}
            seen.append(state["round"])
        return GAME.bots["greedy"](game, state, seat, rng)

    kit.play(GAME, [Seat(i, f"g{i}", "greedy") for i in range(players)], {}, b"mk-leaf", max_steps=400,
             policies={i: check for i in range(players)})
    assert len(seen) > 100 and max(seen) > 3
