"""The search bot (``domain.kit.search``): it sees only what its seat may see, it is
deterministic, its levels are named and validated, and a game it plays on the server
exports, verifies and re-derives every bot move."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from domain import registry
from domain.core import Drbg, Illegal, fold
from domain.kit import bot_choice, copy_state, play, search, table
from domain.kit.search import SearchBot
from application import clocks, seating
from application.moves import batches
from application.replay import verify
from events.envelope import domain_events
from tests.support.forge import envelopes
from tests.support.games import shipped

# (game, seats, the bot that plays up to the position, steps, options): positions with hidden information.
POSITIONS = [
    ("saboteur", 4, "random", 14, {}),  # hands, deck, roles, goals; a map peek or a face-down pass or two
    ("saboteur", 3, "heuristic", 60, {}),  # later: gold, revealed roles of round 1
    ("mountain-king", 2, "random", 1, {}),  # the starter draft: the others' hands and decks
    ("mountain-king", 2, "random", 40, {}),  # the troll and spell decks
    ("dwarf", 2, "random", 9, {}),  # the Mountain, the Special Action piles under their tops
    ("dwarf", 1, "greedy", 12, {"solo_level": "andvettr", "alternative_mountain": True}),
    ("indagar", 2, "random", 60, {}),  # face-down tiles; the others' explored ones
    ("indagar", 1, "greedy", 40, {}),
]


def _position(gid: str, n: int, bot: str, steps: int, options: dict):
    game = registry.get(gid)
    g = play(game, table(game, n, bot), options, f"search-{gid}-{steps}".encode(), max_steps=steps)
    for _ in range(200):  # on to a seat with a choice
        turn = game.turn(g.state)
        assert not turn.terminal
        if turn.seats and len(game.legal_commands(g.state, min(turn.seats))) > 1:
            return game, g.state, min(turn.seats)
        g = play(game, table(game, n, bot), options, f"search-{gid}-{steps}".encode(), max_steps=len(g.steps))
    raise AssertionError("no choice within 200 steps")


def _spec(game):
    return game.bots["search-easy"].spec


@pytest.mark.parametrize("gid,n,bot,steps,options", POSITIONS, ids=[f"{p[0]}-{p[1]}-{p[3]}" for p in POSITIONS])
def test_the_move_does_not_change_when_hidden_information_is_redealt(gid, n, bot, steps, options):
    """Another true state, dealt consistently with the seat's view (the same view, the same
    legal commands), makes the same move from the same DRBG stream: the bot cannot see
    what its seat may not."""
    game, state, seat = _position(gid, n, bot, steps, options)
    spec = _spec(game)
    others = [spec.observe(state, seat).deal(Drbg(b"redeal", f"d{i}")) for i in range(6)]
    assert any(o != state for o in others), "the re-deal changed nothing hidden"
    other = next(o for o in others if o != state)
    assert game.view(other, seat) == game.view(state, seat)
    assert game.legal_commands(other, seat) == game.legal_commands(state, seat)
    mine, theirs = spec.observe(state, seat), spec.observe(other, seat)
    assert (mine.state, mine.pools) == (theirs.state, theirs.pools)
    # a game's own observation may carry more (Saboteur: role deals weighted by the public plays)
    assert {k: v for k, v in vars(mine).items() if k != "fix"} == {k: v for k, v in vars(theirs).items() if k != "fix"}
    bot_ = SearchBot(spec, "easy", playouts=6)
    assert bot_(game, copy_state(state), seat, Drbg(b"same", "s")) == \
        bot_(game, copy_state(other), seat, Drbg(b"same", "s"))


@pytest.mark.parametrize("gid,n,bot,steps,options", POSITIONS[::2], ids=[p[0] for p in POSITIONS[::2]])
def test_same_stream_same_move_and_the_move_is_legal(gid, n, bot, steps, options):
    """A killed worker's re-run of the move draws the same stream: the same command."""
    game, state, seat = _position(gid, n, bot, steps, options)
    policy = SearchBot(_spec(game), "easy", playouts=5)
    first = bot_choice(game, state, seat, policy, b"seed", 40)
    assert bot_choice(game, state, seat, policy, b"seed", 40) == first
    assert first in game.legal_commands(state, seat)


def test_the_clock_caps_the_budget_and_levels_order_it():
    spec = _spec(registry.get("dwarf"))
    easy, normal, hard = (SearchBot(spec, level) for level in search.LEVELS)
    assert easy.playouts < normal.playouts < hard.playouts
    assert hard.within(None).playouts == hard.playouts
    capped = hard.within(int(search.CLOCK_SHARE * spec.playout_ms * 10))
    assert capped.playouts == 10 and capped.level == "hard"
    assert hard.within(0).playouts == 1  # out of time: still a move, the heuristic's first choice


GAMES = shipped()


def test_every_game_offers_the_three_levels():
    for gid in GAMES:
        levels = search.levels(registry.get(gid).bots)
        assert sorted(levels) == ["search-easy", "search-hard", "search-normal"], gid
        assert [levels[f"search-{x}"]["level"] for x in search.LEVELS] == list(search.LEVELS)


def test_parse_bot_names_a_level():
    assert search.parse_bot("search", "hard") == "search-hard"
    assert search.parse_bot("search") == "search-normal"
    assert search.parse_bot("search-easy") == "search-easy"
    assert search.parse_bot("greedy") == "greedy"
    for bot, level in (("search", "expert"), ("greedy", "hard"), ("search", 3)):
        with pytest.raises(Illegal) as err:
            search.parse_bot(bot, level)
        assert err.value.code == "bad_bot_level"


# -- through the API ------------------------------------------------------------------

def test_seats_name_the_search_bot_with_a_level(client):
    resp = client.post("/v1/games", json={"game": "dwarf", "seats": [
        {"name": "a", "bot": "search", "level": "hard"}, {"name": "b", "bot": "search-easy"},
        {"name": "c", "bot": "search"}]})
    assert resp.status_code == 201, resp.json
    assert [s["bot"] for s in resp.json["seats"]] == ["search-hard", "search-easy", "search-normal"]


@pytest.mark.parametrize("seat,status,code", [
    ({"name": "a", "bot": "search", "level": "expert"}, 422, "bad_bot_level"),
    ({"name": "a", "bot": "greedy", "level": "hard"}, 422, "bad_bot_level"),
    ({"name": "a", "level": "hard"}, 400, None),
])
def test_a_bad_level_is_a_problem_and_writes_nothing(client, seat, status, code):
    before = client.get("/v1/games").json
    resp = client.post("/v1/games", json={"game": "dwarf", "seats": [seat, {"name": "b", "bot": "random"}]})
    assert resp.status_code == status and resp.mimetype == "application/problem+json", resp.json
    if code:
        assert resp.json["code"] == code
    assert client.get("/v1/games").json == before


def test_the_catalog_lists_the_levels(client):
    games = {g["id"]: g for g in client.get("/v1/catalog").json["games"]}
    for gid in GAMES:
        entry = games[gid]
        assert {"search-easy", "search-normal", "search-hard"} <= set(entry["bots"]), gid
        assert [(b["id"], b["bot"], b["level"]) for b in entry["bot_levels"]] == [
            (f"search-{x}", "search", x) for x in search.LEVELS], gid
        assert all(b["playouts"] > 0 for b in entry["bot_levels"])


def test_a_search_bot_game_exports_verifies_and_rederives_every_bot_move(service):
    """Played by the service as the worker plays it; the export verifies byte for byte, and
    from the revealed seed every bot command is chosen again, identically."""
    gid = service.create("dwarf", [{"name": "s", "bot": "search", "level": "easy"},
                                   {"name": "g", "bot": "greedy"}], {})["id"]
    for _ in range(2000):
        g = service.load(gid)
        if g.game.is_terminal(g.state):
            break
        assert service.bot_turn(gid, g.version) is not None
    assert service.finalize(gid)
    lines = list(service.export(gid, admin=False))
    assert verify(lines).ok
    envs = envelopes(lines)  # without the signature lines that close the export
    info = envs[0]["data"]
    revealed = next(e for e in envs if e["type"] == "SeedRevealed")["data"]
    seed = bytes.fromhex(revealed["seed"])
    opening = seating.opening(info, batches(envs), seed, revealed)
    game = registry.get("dwarf")
    bots = {s["seat"]: s["bot"] for s in info["seats"]}
    state, version, rederived = fold(game, domain_events(opening.start)), opening.version, 0
    for batch in opening.rest:
        head = batch[0]
        if head["seat"] is not None and head["command"] is not None:
            policy = game.bots[bots[head["seat"]]]
            assert bot_choice(game, state, head["seat"], policy, seed, version) == head["command"], head["seq"]
            rederived += bots[head["seat"]] == "search-easy"
        state = fold(game, domain_events(batch), state)
        version = batch[-1]["seq"]
    assert rederived > 10


def test_the_seats_clock_caps_the_move_the_worker_plays(service):
    """With 1 s on its clock, search-hard thinks for 1000 / CLOCK_SHARE / playout_ms playouts:
    the move the service records is the one that budget chooses, from the log alone."""
    gid = service.create("dwarf", [{"name": "s", "bot": "search", "level": "hard"}, {"name": "g", "bot": "greedy"}],
                         {}, clock={"initial_s": 1, "on_timeout": "forfeit"})["id"]
    for _ in range(20):
        g = service.load(gid)
        seat = min(g.game.active_seats(g.state))
        if seat == 0 and len(g.game.legal_commands(g.state, 0)) > 1:
            break
        assert service.bot_turn(gid, g.version) is not None
    left = clocks.time_left(g.meta, 0)
    assert left is not None and left <= 1000
    spec = g.game.bots["search-hard"].spec
    budget = max(1, int(left / search.CLOCK_SHARE / spec.playout_ms))
    assert budget < spec.playouts["hard"]
    expected = bot_choice(g.game, g.state, 0, SearchBot(spec, "hard", budget), bytes.fromhex(g.meta["seed"]), g.version)
    assert service.bot_turn(gid, g.version) is not None
    lines = [json.loads(line) for line in service.store.export(gid)]
    played = next(e for e in lines if e["seq"] == g.version + 1)
    assert played["seat"] == 0 and played["command"] == expected


def test_a_paired_root_compares_the_heuristics_first_choices_on_the_same_deals(monkeypatch):
    """``SearchSpec.paired``: each of the heuristic's first k choices gets its own tree and the
    same deals (iteration i of every tree draws the same stream), so the move is one of those k;
    a game that does not ask for it (paired 0) takes the old path."""
    game, state, seat = _position("saboteur", 3, "heuristic", 60, {})
    spec = _spec(game)
    assert spec.paired
    streams: dict[bytes, list] = {}
    real = search._iterate

    def spy(game_, obs, seats, allowed, root, spec_, rng, shared):
        streams.setdefault(next(iter(allowed)), []).append(rng.randbelow(1 << 30))
        return real(game_, obs, seats, allowed, root, spec_, rng, shared)
    monkeypatch.setattr(search, "_iterate", spy)
    move = SearchBot(spec, "easy", playouts=8)(game, copy_state(state), seat, Drbg(b"paired", "p"))
    assert len(streams) == min(spec.paired, len(game.legal_commands(state, seat)))
    assert len({tuple(v) for v in streams.values()}) == 1  # one set of deals for every candidate
    assert search._key(move) in streams
    for gid in ("dwarf", "mountain-king", "indagar"):
        assert _spec(registry.get(gid)).paired == 0


def test_a_budget_past_the_tree_cap_searches_more_trees_of_that_size(monkeypatch):
    """``SearchSpec.tree_cap``: a budget past the cap is spent on further trees of that size, on
    further deals (every candidate still on the same ones), and their values are pooled: not on
    deeper trees. Within the cap the move is the one tree's, so a level inside it is unchanged."""
    game, state, seat = _position("saboteur", 3, "heuristic", 60, {})
    spec = _spec(game)
    k = min(spec.paired, len(game.legal_commands(state, seat)))
    seen: dict[bytes, list] = {}
    real = search._iterate

    def spy(game_, obs, seats, allowed, root, spec_, rng, shared):
        seen.setdefault(next(iter(allowed)), []).append((root, rng.randbelow(1 << 30)))
        return real(game_, obs, seats, allowed, root, spec_, rng, shared)
    monkeypatch.setattr(search, "_iterate", spy)
    SearchBot(replace(spec, tree_cap=3), "easy", playouts=7 * k)(game, copy_state(state), seat, Drbg(b"cap", "c"))
    assert len(seen) == k
    for calls in seen.values():
        roots = [r for r, _ in calls]
        assert [roots.count(r) for r in dict.fromkeys(roots)] == [3, 3, 1]  # trees of 3, 3 and the 1 left
    streams = {tuple(x for _, x in calls) for calls in seen.values()}
    assert len(streams) == 1 and len(set(next(iter(streams)))) == 7  # the same 7 deals for each, all different
    monkeypatch.setattr(search, "_iterate", real)

    def move(cap: int):
        return SearchBot(replace(spec, tree_cap=cap), "easy", playouts=7 * k)(
            game, copy_state(state), seat, Drbg(b"cap", "c"))
    assert move(7) == move(0) == move(50)


def test_the_keys_a_move_keeps_are_right_sized():
    """A move keeps some 200,000 command keys; orjson's own bytes would each hold its 4 KiB
    working buffer (a Mountain King move peaked near 1 GiB), ``kept_bytes`` copies them to their size."""
    import tracemalloc
    cmds = [{"type": "trade", "give": {"stone": 2, "iron": i}, "get": "coin"} for i in range(200)]
    tracemalloc.start()
    try:
        keys = [search._key(c) for c in cmds] + list(search._keyed(cmds))
        used = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(keys) == 400 and used < 400 * 256
