"""Property tests over random legal games (2-5 players and the 2v2 variant).

Invariants checked after every command: resources never negative and the
MK-COMP-15 supply conserved; tiles never overlap (MK-DIG-7); networks never
touch an opponent's (MK-DIG-5, MK-NET-5); a sample of legal commands is
accepted; the state survives a JSON round trip. Then: every game ends
(MK-AMB-31), replaying the events rebuilds the state, and the same seed gives
the same events (determinism).
"""
import json

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from domain import kit
from domain.core import Drbg, fold
from domain.mountain_king.catalog import top_row
from domain.mountain_king.economy import SUPPLY
from domain.mountain_king.rules import GAME
from domain.mountain_king.terrain import lay

from mk_driver import play
from tests.support.positions import position

CONFIGS = [(2, None), (3, None), (4, None), (5, None), (4, {"teams": True}), (2, {"board": "winter"}),
           (3, {"start_player": 1}), (4, {"teams": True, "start_player": 3})]


def totals(s):
    t = dict(s["supply"])
    for store in s["stores"]:
        for r, n in store.items():
            assert n >= 0, (r, n)
            t[r] += n
    for roster in s["rosters"]:
        for troll in roster.values():
            for i, sym in enumerate(top_row(troll["card"])):
                t[sym.split(":")[0]] += troll["held"][i]
    for spot in s["horde"]["slots"].values():
        for r, n in spot["bribes"].items():
            t[r] += n
    t["rune"] += sum(c["runes"] for c in s["spells"]["book"])
    return t


def check(state, events, sample_rng=None):
    if "supply" not in state:
        return
    assert all(v >= 0 for v in state["supply"].values())
    assert totals(state) == SUPPLY
    cells = [tuple(c) for p in state["pieces"].values() for c in p["cells"]]
    assert len(cells) == len(set(cells)), "tiles overlap"
    assert not set(cells) & {tuple(int(x) for x in k.split(",")) for k in state["workshops"]}
    layout = lay(state)
    for a in layout.networks:
        for b in layout.networks:
            sa = {state["store_of"][x] for x in a.seats}
            sb = {state["store_of"][x] for x in b.seats}
            if a is b or not sa or not sb or sa & sb:
                continue
            touching = {(r + dr, c + dc) for r, c in a.cells for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))}
            assert not touching & b.cells, "networks of opponents touch"
    assert json.loads(json.dumps(state)) == state
    placed = sum(len(t) for t in state["ped_tokens"])  # one token per pedestal ever placed (MK-PED-5)
    assert 15 - len(state["ped_track"]) == placed
    held = sum(sum(p.values()) for p in state["peds"])
    on_slots = sum(1 for sp in state["horde"]["slots"].values() if sp["ped"])
    assert sum(state["bag"].values()) + held + on_slots + placed == 18  # MK-COMP-13
    placed_statues = next(e for e in events if e["type"] == "StatuesPlaced")["data"]["statues"]
    assert sorted(state["statues"].values()) == sorted(placed_statues.values())


def accepts_legal(state, rng):
    for seat in GAME.active_seats(state):
        cmds = GAME.legal_commands(state, seat)
        assert cmds, f"an active seat always has a legal command: {seat} {state['phase']} {state['turn']}"
        for k in range(min(4, len(cmds))):
            GAME.decide(state, seat, cmds[rng.randbelow(len(cmds))], Drbg(b"probe", f"{k}"))


@settings(max_examples=8, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(config=st.sampled_from(CONFIGS), seed=st.binary(min_size=1, max_size=8))
def test_random_games_keep_invariants_and_end(config, seed):
    players, options = config
    probe = Drbg(seed, "probe")
    step = {"n": 0}

    def each(state, events):
        check(state, events)
        step["n"] += 1
        if step["n"] % 7 == 0:
            accepts_legal(state, probe)

    state, events, n = play(players, options, seed=seed, check=each)
    assert GAME.is_terminal(state), "MK-AMB-31: every game ends"
    assert fold(GAME, events) == state
    assert GAME.load_state(json.loads(json.dumps(GAME.dump_state(state)))) == state
    board = GAME.scores(state)
    assert board.final and len(board.seats) == players
    assert set(board.seats[0].breakdown) == {"tunnels", "coronation", "pedestals", "leftover_sets",
                                             "great_halls", "statues"}
    again = play(players, options, seed=seed)[1]
    assert again == events, "same seed and commands, same events"


def test_random_bot_plays_a_whole_game():
    g = kit.play(GAME, kit.table(GAME, 3, "random"), {}, b"bot")
    assert g.terminal and g.scores().final


JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-3, 20) | st.sampled_from(["x", "storage", "fire", "B1"]),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
                           ["stone", "iron", "coin", "a"]), inner, max_size=2), max_leaves=6)
_STATES = {}


def _rich_state():
    if "s" not in _STATES:
        _, s = position("""
            mountain-king 4 seed=seed
            opening
            storage 0 stone=5 iron=5 heartstone=5 coin=5 cart=5 hammer=5 rune=5
        """)
        _STATES["s"] = s
        _STATES["cmds"] = GAME.legal_commands(s, 0)
    return _STATES["s"], _STATES["cmds"]


@settings(max_examples=300, deadline=None)
@given(pick=st.integers(0, 10 ** 6), field=st.sampled_from(
    ["slot", "position", "give", "get", "cells", "anchor", "mineral", "spell", "space", "sources", "from", "to",
     "cart", "clan", "kind", "hall", "altar", "move", "pedestal", "tile", "res", "troll"]), value=JSONISH)
def test_malformed_commands_are_refused_never_crash(pick, field, value):
    from domain.core import Illegal
    s, cmds = _rich_state()
    cmd = dict(cmds[pick % len(cmds)], **{field: value})
    try:
        GAME.decide(s, 0, cmd, Drbg(b"fuzz", "x"))
    except Illegal:
        pass
