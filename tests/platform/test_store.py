"""The Redis event store: atomic appends, version checks, snapshots, the chain."""
from __future__ import annotations

import json
import threading
from datetime import datetime, timezone

import pytest

from errors import GameExists, GameNotFound, VersionConflict
from events.envelope import GENESIS, first_broken_link
from application.service import GameService
from events.store import RedisEventStore

EV = {"type": "Ping", "data": {"n": 1}}


def make(store, gid="g1", n=1):
    return store.create(gid, {"game": "tiny", "status": "active"}, [EV] * n, command_id="c0", rules_version="tiny-1")


def head(store, gid):
    """The head stored now (what a process that just loaded the game would expect)."""
    return (store.r.hget(store.keys.meta(gid), "head") or GENESIS.encode()).decode()


def add(store, gid, expected, n=1, cid="c", expected_head=None):
    return store.append(gid, expected, [EV] * n, expected_head=expected_head or head(store, gid), seat=0,
                        command_id=cid, command={"type": "ping"}, rules_version="tiny-1")


def test_create_then_append_chains_hashes(store):
    first = make(store, n=2)
    more = add(store, "g1", 2, n=3)
    envs = store.read("g1")
    assert [e["seq"] for e in envs] == [1, 2, 3, 4, 5]
    assert envs[0]["prev_hash"] == GENESIS
    assert envs == first + more
    assert first_broken_link(envs) == (None, "")
    assert store.version("g1") == 5
    assert store.meta("g1")["head"] == envs[-1]["hash"]


def test_command_rides_on_first_envelope_only(store):
    make(store)
    envs = add(store, "g1", 1, n=2)
    assert envs[0]["command"] == {"type": "ping"} and envs[1]["command"] is None


def test_stale_expected_version_is_a_conflict_and_writes_nothing(store):
    make(store)
    add(store, "g1", 1)
    with pytest.raises(VersionConflict) as exc:
        add(store, "g1", 1)
    assert exc.value.current == 2
    assert len(store.read("g1")) == 2


def test_create_twice_and_unknown_game(store):
    make(store)
    with pytest.raises(GameExists):
        make(store)
    with pytest.raises(GameNotFound):
        add(store, "nope", 0)
    with pytest.raises(GameNotFound):
        store.meta("nope")


def test_feed_entry_per_batch(store):
    make(store, n=2)
    add(store, "g1", 2, n=3)
    feed = store.r.xrange(store.keys.feed_of("g1"))
    fields = [{k.decode(): v.decode() for k, v in f.items()} for _id, f in feed]
    assert [(f["from_seq"], f["to_seq"]) for f in fields] == [("1", "2"), ("3", "5")]
    assert all(f["game_id"] == "g1" and f["types"] == "Ping" for f in fields)


def test_keys_share_the_partition_hash_tag(store):
    k = store.keys
    tag = f"{{p{k.partition('g1')}}}"
    assert all(tag in key for key in (k.meta("g1"), k.events("g1"), k.snap("g1"), k.feed_of("g1")))


def test_racing_appends_exactly_one_wins(store):
    """Many writers race the same expected version: one wins, nothing lost or doubled."""
    make(store)
    results = []

    def racer(i):
        try:
            add(store, "g1", 1, cid=f"r{i}")
            results.append(i)
        except VersionConflict:
            pass

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 1
    envs = store.read("g1")
    assert [e["seq"] for e in envs] == [1, 2] and envs[1]["command_id"] == f"r{results[0]}"


def test_export_is_canonical_ndjson(store):
    make(store, n=3)
    lines = list(store.export("g1"))
    assert len(lines) == 3 and all(line.endswith("\n") for line in lines)
    assert [json.loads(line) for line in lines] == store.read("g1")


def test_the_script_hashes_like_envelope_seal(store):
    """The append script stamps `at` and hashes in Lua; Python's chain check must agree, whatever the data."""
    make(store)
    tricky = {"type": "Said", "data": {"text": "ñandú 🐉 \"q\" \\ \u0001", "nested": {"rules_version": 1, "seq": [1]},
                                       "long": "x" * 3000}}
    envs = store.append("g1", 1, [tricky, EV], expected_head=head(store, "g1"), seat=None, command_id="c",
                        command={"type": "say", "text": "é"}, rules_version="tiny-1")
    stored = store.read("g1")
    assert stored[1:] == envs and first_broken_link(stored) == (None, "")
    assert store.meta("g1")["head"] == envs[-1]["hash"]


def test_a_batch_decided_on_another_head_is_refused(store):
    """Same version, other head: the state was decided on a branch Redis lost (issue 7, item 1)."""
    make(store)
    add(store, "g1", 1)
    with pytest.raises(VersionConflict) as exc:
        add(store, "g1", 2, expected_head="f" * 64)
    assert exc.value.current == 2 and store.version("g1") == 2 and store.rollbacks == 1


def test_event_times_never_go_backwards(store):
    """`at` is Redis TIME, but never before the previous event's (issue 7, item 8)."""
    make(store)
    future = "2999-01-01T00:00:00.000Z"
    store.r.hset(store.keys.meta("g1"), "at", future)  # as if an earlier event was stamped by a clock ahead
    assert [e["at"] for e in add(store, "g1", 1, n=2)] == [future, future]
    now = store.read("g1")[0]["at"]
    assert now < future and now[:4] == str(datetime.now(timezone.utc).year)


def test_a_cached_state_redis_no_longer_holds_is_dropped(store, service):
    """Rollback: Redis lost the last batch this process cached; the load serves what Redis holds."""
    gid = service.create("tiny", [{"name": "a"}, {"name": "b"}], {"turns": 9})["id"]
    g = service.load(gid)
    service.submit(gid, 0, g.version, {"type": "pass"}, "c1")
    lost_head = service.load(gid).head
    assert store.states._cache[gid][0] == g.version + 1
    roll_back(store, gid, to=g.version)
    again = service.load(gid)
    assert (again.version, again.head) == (g.version, g.head) and store.rollbacks >= 1  # cache (+ snapshot)
    assert again.game.dump_state(again.state) == g.game.dump_state(g.state)
    # The game goes on from what Redis holds, along a new branch the stale head cannot join.
    service.submit(gid, 0, g.version, {"type": "guess", "target": 1, "digit": 3}, "c1b")
    with pytest.raises(VersionConflict):
        store.append(gid, g.version + 1, [EV], expected_head=lost_head, seat=0, command_id="x", command=None,
                     rules_version="tiny-1")


def test_a_snapshot_from_a_lost_branch_is_not_trusted(store, service):
    gid = service.create("tiny", [{"name": "a"}, {"name": "b"}], {"turns": 20})["id"]
    g = service.load(gid)
    for i in range(store.states.snapshot_every):
        service.submit(gid, i % 2, service.load(gid).version, {"type": "pass"}, f"c{i}")
    snap = json.loads(store.r.get(store.keys.snap(gid)))
    roll_back(store, gid, to=g.version)
    fresh = GameService(RedisEventStore(store.r, prefix=store.keys.prefix, snapshot_every=store.states.snapshot_every))
    assert snap["version"] > g.version and fresh.load(gid).version == g.version
    assert fresh.store.rollbacks == 1


def roll_back(store, gid, to):
    """What Redis holds after losing every write after version ``to`` (an older AOF)."""
    last = store.read(gid, after=to - 1, limit=1)[0]
    for env in store.read(gid, after=to):
        store.r.xdel(store.keys.events(gid), f"{env['seq']}-0")
    store.r.execute_command("XSETID", store.keys.events(gid), f"{to}-0")
    store.r.hset(store.keys.meta(gid), mapping={"version": to, "head": last["hash"]})
