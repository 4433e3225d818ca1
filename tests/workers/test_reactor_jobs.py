"""The reactor schedules follow-up jobs under deterministic ids; workers run them."""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import pytest
from rq import SimpleWorker
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from errors import Stalled
from application.replay import verify
from workers.inprocess import InProcessDriver
from workers.loop import Loop
from workers.queue import RqScheduler
from workers.table import job_id
from workers.reactor import Reactor

BOTS = [{"name": "ann", "bot": "random"}, {"name": "bob", "bot": "random"}]


@pytest.fixture
def env(monkeypatch, redis_url, prefix):
    """Point the job functions (which build their service from the environment) at this test's data."""
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("DELVE_PREFIX", prefix)
    monkeypatch.setenv("DELVE_SNAPSHOT_EVERY", "5")


class BurstWorker(SimpleWorker):
    """rq's SimpleWorker without the command channel, whose thread takes 1 s to join per burst."""

    def subscribe(self):
        pass


def reactor_for(service, queue, **kw):
    kw.setdefault("group", f"g-{queue.name}")
    return Reactor(service, RqScheduler(queue), **kw)


def test_new_bot_game_schedules_the_first_bot_turn(service, queue):
    created = service.create("tiny", BOTS, {"turns": 3})
    reactor = reactor_for(service, queue)
    assert reactor.step() == 1
    assert queue.job_ids == [job_id("bot", created["id"], created["version"])]
    assert queue.job_ids[0] == f"bot-{created['id']}-{created['version']}"
    assert reactor.step() == 0
    assert len(queue) == 1


def test_a_game_waiting_for_a_human_schedules_nothing(service, queue):
    service.create("tiny", [{"name": "ann"}, {"name": "bob", "bot": "random"}], {"turns": 3})
    reactor = reactor_for(service, queue)
    assert reactor.step() == 1
    assert len(queue) == 0


def test_redelivered_entry_after_a_crash_does_not_enqueue_twice(service, queue, r):
    """Reactor A enqueued the job, then died before XACK; B reclaims the entry."""
    created = service.create("tiny", BOTS, {"turns": 3})
    a = reactor_for(service, queue, consumer="a")
    a.ensure_groups()
    delivered = r.xreadgroup(a.group, "a", {f: ">" for f in a.feeds}, count=10)
    assert sum(len(entries) for _feed, entries in delivered) == 1
    assert a.handle(created["id"]) == {"bot": "enqueued"}  # ... and then the process is killed

    b = reactor_for(service, queue, consumer="b", min_idle_ms=0)
    assert b.step() == 1
    assert len(queue) == 1
    assert b.handle(created["id"]) == {"bot": "exists"}
    assert sum(r.xpending(feed, b.group)["pending"] for feed in b.feeds) == 0


def test_consumers_left_by_restarts_are_forgotten_once_idle_and_drained(service, queue, r):
    service.create("tiny", BOTS, {"turns": 3})
    old = reactor_for(service, queue, consumer="old")
    old.step()
    feed = next(f for f in old.feeds if r.xinfo_consumers(f, old.group))
    names = lambda: {c["name"].decode() for c in r.xinfo_consumers(feed, old.group)}  # noqa: E731
    new = reactor_for(service, queue, consumer="new")
    new.forget_dead_consumers(idle_ms=10**9)
    assert names() == {"old"}
    new.forget_dead_consumers(idle_ms=-1)
    assert names() == set()


def test_run_forever_recreates_lost_consumer_groups(service, queue, r):
    import threading

    reactor = reactor_for(service, queue)
    reactor.step()
    for feed in reactor.feeds:
        r.xgroup_destroy(feed, reactor.group)  # what a Redis restarted without its data looks like
    created = service.create("tiny", BOTS, {"turns": 3})
    loop = Loop([reactor])
    thread = threading.Thread(target=loop.run_forever, kwargs={"block_ms": 50})
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not len(queue) and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        loop.stop()
        thread.join(timeout=10)
    assert queue.job_ids == [job_id("bot", created["id"], created["version"])]


def test_terminal_game_gets_one_finalize_job(service, queue):
    created = service.create("tiny", [{"name": "ann"}, {"name": "bob"}], {"turns": 1})
    service.submit(created["id"], 0, created["version"], {"type": "pass"}, "c1")
    reactor = reactor_for(service, queue)
    reactor.step()
    assert queue.job_ids == [f"finalize-{created['id']}"]
    assert reactor.handle(created["id"]) == {"finalize": "exists"}


def test_failed_or_abandoned_job_is_replaced_on_the_next_handle(service, queue, r):
    created = service.create("tiny", BOTS, {"turns": 3})
    gid, version = created["id"], created["version"]
    scheduler = RqScheduler(queue, stale_after=60)
    assert scheduler.schedule("bot", gid, version) == "enqueued"
    job = Job.fetch(job_id("bot", gid, version), connection=r, serializer=JSONSerializer)

    job.set_status(JobStatus.FAILED)
    job.ended_at = datetime.now(timezone.utc)
    job.save()
    assert scheduler.schedule("bot", gid, version) == "exists"  # just failed: not in a busy loop
    job.ended_at = datetime.now(timezone.utc) - timedelta(seconds=120)
    job.save()
    assert scheduler.schedule("bot", gid, version) == "replaced"

    job = Job.fetch(job.id, connection=r, serializer=JSONSerializer)
    job.set_status(JobStatus.STARTED)
    job.heartbeat(datetime.now(timezone.utc), 60)
    assert scheduler.schedule("bot", gid, version) == "exists"  # alive: leave it alone
    job.heartbeat(datetime.now(timezone.utc) - timedelta(seconds=120), 60)
    assert scheduler.schedule("bot", gid, version) == "replaced"  # its worker died
    assert queue.job_ids == [job.id]


def test_job_popped_by_a_worker_that_died_before_starting_it_is_replaced(service, queue, r):
    created = service.create("tiny", BOTS, {"turns": 3})
    gid, version = created["id"], created["version"]
    scheduler = RqScheduler(queue, stale_after=60)
    scheduler.schedule("bot", gid, version)
    jid = job_id("bot", gid, version)
    r.lmove(queue.key, queue.intermediate_queue_key)  # what a worker's dequeue does, then kill -9
    assert scheduler.schedule("bot", gid, version) == "exists"  # a worker may be about to start it
    job = Job.fetch(jid, connection=r, serializer=JSONSerializer)
    job.enqueued_at = datetime.now(timezone.utc) - timedelta(seconds=120)
    job.save()
    assert scheduler.schedule("bot", gid, version) == "replaced"
    assert queue.job_ids == [jid]
    assert r.llen(queue.intermediate_queue_key) == 0


def test_sweep_repairs_a_game_whose_entry_was_lost(service, queue, r):
    created = service.create("tiny", BOTS, {"turns": 3})
    reactor = reactor_for(service, queue, sweep_every=0)
    reactor.step()
    queue.empty()  # the job vanished (say, the queue Redis was flushed)
    for job_key in r.scan_iter(f"rq:job:bot-{created['id']}-*"):
        r.delete(job_key)
    reactor.sweep()  # the first sweep looks at every active game
    assert queue.job_ids == [job_id("bot", created["id"], created["version"])]


def test_bot_game_plays_to_the_end_through_reactor_and_rq_worker(service, queue, env):
    created = service.create("tiny", BOTS + [{"name": "cy", "bot": "random"}], {"turns": 12})
    reactor = reactor_for(service, queue)
    worker = BurstWorker([queue], connection=queue.connection, serializer=JSONSerializer)
    for _ in range(100):
        reactor.step()
        if not worker.work(burst=True) and service.store.meta(created["id"])["status"] == "finished":
            break
    envs = list(service.store.reads.iter_all(created["id"]))
    assert [e["type"] for e in envs].count("GameFinished") == 1
    assert [e["seq"] for e in envs] == list(range(1, len(envs) + 1))
    assert len(queue.failed_job_registry) == 0
    verdict = verify(service.export(created["id"], admin=False))
    assert verdict.ok, verdict.problems
    assert service.store.r.zscore(service.store.keys.lobby("status:finished"), created["id"]) is not None


def test_inprocess_driver_finishes_many_games(service):
    with InProcessDriver(service) as driver:
        ids = [service.create("tiny", BOTS, {"turns": 5})["id"] for _ in range(5)]
        done = []
        driver.run(ids, on_finished=done.append)
    assert sorted(done) == sorted(ids)
    assert all(service.store.meta(i)["status"] == "finished" for i in ids)
    assert driver.errors == {}


def test_inprocess_driver_reports_a_game_waiting_for_a_human(service):
    with InProcessDriver(service) as driver:
        gid = service.create("tiny", [{"name": "ann"}, {"name": "bob", "bot": "random"}], {"turns": 3})["id"]
        with pytest.raises(Stalled) as err:
            driver.run([gid])
    assert err.value.games == {gid}
