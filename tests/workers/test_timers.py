"""Timers (workers/timers.py): due by Redis's clock, taken by one poller under a lease, run once,
taken again when a poller dies holding one; a reactor taking over a dead one's feed entries and
its own after an outage. The clock's deadline as a timer is in tests/platform/test_clocks.py."""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import pytest

from errors import NotDue
from application import clocks, runtime
from events import liveness
from workers.queue import RqScheduler, timer_poller
from workers.reactor import Reactor
from workers.timers import Timers

SEATS = [{"name": "ann"}, {"name": "bob"}]


def redis_now(r) -> datetime:
    secs, micros = r.time()
    return datetime.fromtimestamp(secs + micros / 1e6, timezone.utc)


def recorder(ran: list, outcome=None):
    def run(kind, key, version):
        ran.append((kind, key, version))
        if isinstance(outcome, Exception):
            raise outcome
        return outcome
    return run


def test_a_due_timer_runs_once_whoever_polls(queue, r):
    ran: list = []
    pollers = [Timers(r, queue.name, name=f"p{i}", run=recorder(ran)) for i in range(3)]
    assert pollers[0].add("clock", "g1", 7, redis_now(r) - timedelta(seconds=1)) == "enqueued"
    assert pollers[1].add("clock", "g1", 7, redis_now(r) - timedelta(seconds=1)) == "exists"
    pollers[0].add("clock", "g2", 3, redis_now(r) + timedelta(hours=1))
    assert sum(p.fire() for p in pollers) == 1
    assert ran == [("clock", "g1", 7)]
    assert r.zrange(pollers[0].key, 0, -1) == [b"clock g2 3"]  # the run one is gone, the later one waits
    assert set(liveness.pollers(r, queue.name)) == {"p0", "p1", "p2"}  # each poll says its poller is alive


def test_a_poller_that_dies_holding_a_timer_leaves_it_to_the_next_after_the_lease(queue, r):
    ran: list = []
    dying = Timers(r, queue.name, name="dies", run=recorder(ran), lease_ms=300)
    dying.add("clock", "g1", 7, redis_now(r))
    dying._take(keys=[dying.key, dying.alive], args=[300, 10, "dies"])  # taken, then killed before it ran
    survivor = Timers(r, queue.name, name="lives", run=recorder(ran))
    assert survivor.fire() == 0  # leased
    deadline = time.monotonic() + 5
    while not survivor.fire():
        assert time.monotonic() < deadline, "the timer never came due again"
        time.sleep(0.05)
    assert ran == [("clock", "g1", 7)] and not r.exists(survivor.key)


def test_a_timer_early_by_another_clock_is_put_back_and_a_failing_one_retried_later(queue, r):
    early = Timers(r, queue.name, run=recorder([], NotDue(int(time.time() * 1000) + 60_000)))
    early.add("clock", "g1", 7, redis_now(r))
    early.fire()
    assert r.zscore(early.key, "clock g1 7") >= time.time() * 1000 + 50_000  # back at its real time
    r.delete(early.key)
    failing = Timers(r, queue.name, run=recorder([], ValueError("a bot broke")))
    failing.add("clock", "g2", 1, redis_now(r))
    failing.fire()
    assert r.zscore(failing.key, "clock g2 1") >= time.time() * 1000 + 25_000


def test_the_scheduler_makes_a_timed_job_a_timer(service, queue, r):
    gid = service.create("tiny", SEATS, {"turns": 4}, clock={"per_move_s": 30, "on_timeout": "autoplay"})["id"]
    g = service.load(gid)
    reactor = Reactor(service, RqScheduler(queue), group=f"g-{queue.name}")
    assert reactor.handle(gid) == {"clock": "enqueued"}
    assert reactor.handle(gid) == {"clock": "exists"}
    timers = timer_poller(queue, lambda: service, "t")
    (member, due), = r.zrange(timers.key, 0, -1, withscores=True)
    assert member == f"clock {gid} {g.version}".encode() and len(queue) == 0
    assert int(due) == int(datetime.fromisoformat(service.summary(gid, None)["deadline"].replace("Z", "+00:00"))
                           .timestamp() * 1000)


def test_a_reactor_takes_over_a_dead_ones_entries_at_start_and_rereads_its_own_after_an_outage(service, queue, r):
    bots = [{"name": "ann", "bot": "random"}, {"name": "bob", "bot": "random"}]
    dead = Reactor(service, RqScheduler(queue), group=f"g-{queue.name}", consumer="dead")
    dead.ensure_groups()
    first = service.create("tiny", bots, {"turns": 3})["id"]
    r.xreadgroup(dead.group, "dead", {f: ">" for f in dead.feeds}, count=10)  # read, then killed
    time.sleep(1.1)  # the new process takes this long to start
    fresh = Reactor(service, RqScheduler(queue), group=dead.group, consumer="fresh")  # default min idle: 5 s
    assert fresh.step() == 1 and len(queue) == 1  # taken over at once, not after min_idle_ms
    second = service.create("tiny", bots, {"turns": 3})["id"]
    r.xreadgroup(fresh.group, "fresh", {f: ">" for f in fresh.feeds}, count=10)  # read; then Redis went away
    fresh._own_pending = True
    assert fresh.step() == 1
    assert sorted(queue.job_ids) == sorted(f"bot-{gid}-{service.load(gid).version}" for gid in (first, second))
    assert sum(r.xpending(feed, fresh.group)["pending"] for feed in fresh.feeds) == 0


@pytest.fixture(autouse=True)
def _no_leftover_group(service, queue, r):
    yield
    for feed in service.store.feeds():
        r.xgroup_destroy(feed, f"g-{queue.name}") if r.exists(feed) else None


def test_the_append_that_sets_a_deadline_adds_its_timer_without_the_reactor(service, queue, r, redis_url,
                                                                           monkeypatch):
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("DELVE_QUEUE", queue.name)
    service.store.appends.after_append = runtime.clock_timers()
    gid = service.create("tiny", SEATS, {"turns": 4}, clock={"per_move_s": 30, "on_timeout": "autoplay"})["id"]
    g = service.load(gid)
    service.submit(gid, 0, g.version, {"type": "pass"}, "c1")
    due = {m.decode(): int(s) for m, s in r.zrange(liveness.timers_key(queue.name), 0, -1, withscores=True)}
    assert due == {f"clock {gid} {g.version}": due[f"clock {gid} {g.version}"],
                   f"clock {gid} {g.version + 1}": clocks.deadline_ms(service.store.meta(gid))}
