"""The Redis event store: atomic appends, version checks, snapshots, the chain."""
from __future__ import annotations

import json
import threading

import pytest

from events.envelope import GENESIS, first_broken_link
from events.store import GameExists, GameNotFound, VersionConflict

EV = {"type": "Ping", "data": {"n": 1}}


def make(store, gid="g1", n=1):
    return store.create(gid, {"game": "tiny", "status": "active"}, [EV] * n, command_id="c0",
                        at="2026-01-01T00:00:00.000Z", rules_version="tiny-1")


def add(store, gid, expected, n=1, cid="c"):
    return store.append(gid, expected, [EV] * n, seat=0, command_id=cid, command={"type": "ping"},
                        at="2026-01-01T00:00:00.000Z", rules_version="tiny-1")


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
