"""Replays read past states from per-process checkpoints (events/checkpoints.py), which must
equal a fold from the start at every version and never outlive a branch Redis lost."""
from __future__ import annotations

from domain.core import fold
from events.checkpoints import Checkpoints
from events.envelope import domain_events
from tests.platform.test_store import roll_back

GUESS = {"type": "guess", "target": 1, "digit": 3}


def test_every_version_equals_a_fold_from_the_start(service, store):
    gid = service.create("tiny", [{"name": "a"}, {"name": "b"}], {"turns": 9})["id"]
    for n in range(6):
        g = service.load(gid)
        service.submit(gid, min(g.game.active_seats(g.state)), g.version, {"type": "pass"}, f"c{n}")
    g = service.load(gid)
    envs = store.read(gid)
    held = Checkpoints(g.game, every=2)
    held.extend(envs)
    for v in range(len(envs) + 1):
        expected = g.game.dump_state(fold(g.game, domain_events(envs[:v])))
        assert g.game.dump_state(held.at(v)) == expected
        if v:
            assert g.game.dump_state(store.load(g.game, gid, upto=v).state) == expected


def test_checkpoints_of_a_lost_branch_are_rebuilt(service, store):
    gid = service.create("tiny", [{"name": "a"}, {"name": "b"}], {"turns": 9})["id"]
    g = service.load(gid)
    service.submit(gid, 0, g.version, {"type": "pass"}, "c1")
    lost = store.load(g.game, gid, upto=g.version + 1)  # the checkpoints now hold the pass
    roll_back(store, gid, to=g.version)
    store.states._cache.clear()
    service.submit(gid, 0, g.version, GUESS, "c1b")  # another branch at the same version
    now = store.load(g.game, gid, upto=g.version + 1)
    assert now.head != lost.head and now.head == store.read(gid)[-1]["hash"] and store.rollbacks >= 1
    assert g.game.dump_state(now.state) == g.game.dump_state(fold(g.game, domain_events(store.read(gid))))


def test_held_states_are_right_sized():
    """What a process keeps (checkpoints, its state cache, snapshots) is copied out of orjson's
    working buffer (``kept_bytes``): a 5 KB state would otherwise hold 16 KiB, a larger one far more."""
    import tracemalloc
    from events.checkpoints import dumps
    state = {"cells": [[r, c, "stone"] for r in range(20) for c in range(20)]}
    size = len(dumps(state))
    tracemalloc.start()
    try:
        kept = [dumps(state) for _ in range(20)]
        used = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(kept) == 20 and used < 20 * (size + 256)
