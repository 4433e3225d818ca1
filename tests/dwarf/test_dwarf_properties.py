"""Random legal games for 1..5 seats (hypothesis picks every command): invariants after
every step, and the secrecy canary.

- cards conserved: each Mine's stacks, Mountain and piles (and a Special Action card
  in hand when Andvettr's instant win cut DW-SPEC-5 short) hold its 54 + 9 cards (DW-CARD-4);
- nothing negative: no holding below 0, threats never make debt (DW-AMB-16, DW-COMP-2);
- workers: at most 2 normal + 2 extra per participant, one per location (DW-CARD-7, DW-AMB-12);
- Objects created never fewer than held (DW-AMB-23); the state survives a JSON round trip;
- folding the events again gives the same state (evolve is deterministic);
- hidden information (the Mountains' order, the piles' cards) is in no view or redacted event.
"""
from __future__ import annotations

import json

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from domain.core import Drbg, fold
from domain.dwarf import content
from domain.dwarf.rules import GAME
from domain.dwarf.state import HOLDINGS
from domain.kit import Batch
from tests.dwarf.dwarf_support import start
from tests.dwarf.test_dwarf_secrecy import _hidden, _known

NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]
OPTION_CHOICES = st.fixed_dictionaries({}, optional={
    "alternative_mountain": st.booleans(),
    "special_action_cost_resource": st.sampled_from(["medal", "iron", "gold"]),
    "orc_raiders_forbids": st.sampled_from(["forge", "mine"]),
    "orc_raiders_timing": st.sampled_from(["this_round", "next_round"]),
    "first_player_pass_types": st.sampled_from([[], ["receive_help", "forge"], ["defend"]]),
    "empty_mountain_end": st.sampled_from(["immediate", "finish_round"]),
})


def check(s: dict) -> None:
    per_area = len(content.cards())
    for a, area in enumerate(s["areas"]):
        held = sum(len(v) for v in area["stacks"].values()) + len(area["mountain"]) + \
            sum(len(p) for p in area["piles"]) + ((s["in_hand"] or {}).get("area") == a)
        assert held == per_area
    for i, p in enumerate(s["players"]):
        assert all(p[r] >= 0 for r in HOLDINGS), p
        assert p["created"] >= p["object"]
        mine = [w for w in s["workers"].values() if w["player"] == i]
        assert sum(not w["extra"] for w in mine) + s["pile_workers"][i] <= 2
        assert sum(w["extra"] for w in mine) <= 2
    assert json.loads(json.dumps(s)) == s


@settings(max_examples=10, deadline=None, phases=NO_SHRINK, suppress_health_check=list(HealthCheck))
@given(data=st.data(), n=st.integers(1, 5), seed=st.binary(min_size=4, max_size=8), options=OPTION_CHOICES)
def test_random_legal_games_keep_the_invariants(data, n, seed, options):
    """DW-CARD-4, DW-CARD-7, DW-AMB-12, DW-AMB-16, DW-AMB-23, DW-COMP-2: see the module docstring."""
    if n == 1:
        options["solo_level"] = data.draw(st.sampled_from(["eldhusfifl", "andvettr", "andvettr-fadir"]))
    s = start(n, seed=seed, **options)
    log: list = []
    check(s)
    for step in range(3000):
        turn = GAME.turn(s)
        if turn.terminal:
            break
        if turn.actor:
            batch = GAME.decide_actor(s, turn.actor, Drbg(seed, f"v{step}"))
            seat = None
        else:
            seat = next(iter(turn.seats))
            legal = GAME.legal_commands(s, seat)
            batch = GAME.decide(s, seat, data.draw(st.sampled_from(legal)), Drbg(seed, f"v{step}"))
        before = s
        s = fold(GAME, batch, GAME.load_state(s))
        log.append((before, batch))
        check(s)
        secret = _hidden(s) - _known(s)
        for viewer in (None, step % n):
            shown = json.dumps([GAME.view(s, viewer), [GAME.redact(e, viewer) for e in batch]])
            assert not [c for c in secret if f'"{c}"' in shown]
    assert GAME.is_terminal(s)
    replay = Batch(log[0][0], GAME.evolve)
    for _, batch in log:
        for ev in batch:
            replay.add(ev)
    assert replay.state == s
