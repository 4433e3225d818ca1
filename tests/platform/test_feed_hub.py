"""events.hub: every stream of a process waits on one Redis read of the partition feeds."""
from __future__ import annotations

import json
import statistics
import threading
import time

import redis as redis_lib

from application.service import GameService
from events.store import RedisEventStore
from tests.platform.test_service import new

STREAMS = 200  # waiting streams of one process (threads here; greenlets under gunicorn's gevent)


def blocked_xreads(r, name: str) -> int:
    """Connections named ``name`` blocked in an XREAD right now (by name: another test's store,
    still alive in this process, may be blocked in its own read at the same moment). ``cmd`` is a
    connection's last command, so an idle pooled connection whose last was a stream's first,
    non-blocking read says ``xread`` too: only the ``b`` flag says it is blocked now."""
    return sum(1 for c in r.client_list()
               if c.get("cmd") == "xread" and c.get("name") == name and "b" in c.get("flags", ""))


def test_many_waiting_streams_share_one_redis_read_and_all_see_the_move(redis_url, prefix, r):
    # A pool as large as the streams: each stream's first (non-blocking) read takes a connection
    # for a moment, and 200 threads may read at once (redis-py's default is 100).
    name = f"hub-test-{prefix}"
    store = RedisEventStore(redis_lib.Redis.from_url(redis_url, max_connections=STREAMS * 2, client_name=name),
                            prefix=prefix)
    service = GameService(store)
    gids = [new(service)["id"] for _ in range(4)]
    versions = {gid: service.load(gid).version for gid in gids}
    got: dict[int, tuple[float, list]] = {}

    def stream(i: int) -> None:
        gid = gids[i % len(gids)]
        with store.reads.follow(gid) as follower:
            envs, news = follower.wait(versions[gid], block_ms=10_000)
        got[i] = (time.monotonic(), envs, news)

    threads = [threading.Thread(target=stream, args=(i,), daemon=True) for i in range(STREAMS)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 10
    while store.hub.waiting() < STREAMS and time.monotonic() < deadline:
        time.sleep(0.02)
    assert store.hub.waiting() == STREAMS
    time.sleep(0.2)
    assert blocked_xreads(r, name) == 1  # one connection for every waiting stream
    assert not got  # nothing moved: everyone still waits

    moved = gids[0]
    sent = time.monotonic()
    service.submit(moved, 0, versions[moved], {"type": "guess", "target": 1, "digit": 3}, "hub-move")
    for t in threads[::len(gids)]:
        t.join(10)
    woken = [i for i in range(0, STREAMS, len(gids))]
    assert all(got[i][1] and got[i][1][0]["seq"] == versions[moved] + 1 for i in woken)
    assert not [i for i in got if i % len(gids)]  # the other games' streams were not woken
    # The hub read the move once and handed the same envelope to every stream it woke (no read per
    # stream). A stream still busy with its own first read when the move lands -- the reader's start
    # wakes every stream to read once, and a starved CPU can hold one there -- reads the move itself.
    fed = [i for i in woken if got[i][2] is not None]
    assert len(fed) >= len(woken) // 2, f"only {len(fed)} of {len(woken)} streams were handed the move"
    assert len({id(got[i][1][0]) for i in fed}) == 1 and store.hub.news_reads >= 1
    lag_ms = sorted((got[i][0] - sent) * 1000 for i in woken)
    print(json.dumps({"streams": STREAMS, "woken": len(woken),
                      "move_to_stream_ms": {"p50": round(statistics.median(lag_ms), 1),
                                            "p99": round(lag_ms[int(len(lag_ms) * 0.99) - 1], 1)}}))
    for gid in gids[1:]:  # let the rest go: a move in each of the other games
        service.submit(gid, 0, versions[gid], {"type": "guess", "target": 1, "digit": 3}, f"hub-{gid}")
    for t in threads:
        t.join(10)
    assert len(got) == STREAMS
    store.purge()


def test_the_reader_stops_when_no_stream_waits(service, store):
    gid = new(service)["id"]
    version = service.load(gid).version
    assert store.reads.wait(gid, version, block_ms=200) == []
    deadline = time.monotonic() + 5
    while any(t.name == "delve-feed-hub" and t.is_alive() for t in threading.enumerate()) \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    assert store.hub.waiting() == 0 and store.hub._pid is None


def test_a_wait_returns_what_landed_before_it_started(service, store):
    gid = new(service)["id"]
    version = service.load(gid).version
    service.submit(gid, 0, version, {"type": "guess", "target": 1, "digit": 3}, "early")
    envs = store.reads.wait(gid, version, block_ms=5000)
    assert [e["seq"] for e in envs][:1] == [version + 1]


def test_a_follower_sees_what_landed_between_its_waits(service, store):
    """A stream keeps one subscription for its life: an append between two waits (while the stream
    writes a keep-alive) wakes the next wait, and the hub's reader runs for it all along."""
    gid = new(service)["id"]
    version = service.load(gid).version
    with store.reads.follow(gid) as follower:
        assert follower.wait(version, block_ms=50) == ([], None)  # a keep-alive
        service.submit(gid, 0, version, {"type": "guess", "target": 1, "digit": 3}, "between")
        envs, _news = follower.wait(version, block_ms=10_000)
        assert any(t.name == "delve-feed-hub" and t.is_alive() for t in threading.enumerate())
    assert [e["seq"] for e in envs] == [version + 1]
    assert store.hub.waiting() == 0  # closing the follower let its subscription go
