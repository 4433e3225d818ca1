"""Two shards (DELVE_SHARDS=2), each with its own real reactor and rq worker: every bot game
finishes, each bot turn is handled exactly once, and each shard's processes touch only its
games (application/shards.py)."""
from __future__ import annotations

import json
import os
import signal
import socket
from collections import Counter
from pathlib import Path

import pytest

from application.replay import verify
from application.shards import Shards
from events import liveness
from events.liveness import alive_key, timers_key
from workers.timers import Timers
import settings
from workers.play import wait_finished
from tests.workers.test_worker_crash import children, signal_all, start, stop, wait_for

ROOT = Path(__file__).resolve().parents[2]
BOTS = [{"name": n, "bot": "random"} for n in ("ann", "bob")]
PER_SHARD = 4


def games_on_both_shards(service, shards: Shards) -> list[str]:
    """Create games until each shard has PER_SHARD of them (ids are random; bounded)."""
    ids: list[str] = []
    for _ in range(200):
        per_shard = Counter(shards.of(g) for g in ids)
        if all(per_shard[s] >= PER_SHARD for s in range(shards.count)):
            return ids
        ids.append(service.create("tiny", BOTS, {"turns": 8})["id"])
    raise AssertionError("200 games did not fill both shards")


@pytest.mark.slow
def test_two_reactors_and_two_workers_on_two_shards_handle_each_turn_once(service, queue, redis_url, prefix,
                                                                          tmp_path, r):
    shards = Shards(service.store.keys.partitions, 2, (0, 1), queue.name)
    ran = f"{prefix}:ran"
    env = {**os.environ, "REDIS_URL": redis_url, "DELVE_PREFIX": prefix, "DELVE_QUEUE": queue.name,
           "DELVE_PARTITIONS": str(shards.partitions), "DELVE_SHARDS": "2",
           "DELVE_REACTOR_GROUP": f"g-{queue.name}", "DELVE_TEST_RAN": ran, "PYTHONPATH": str(ROOT)}
    env.pop("RQ_REDIS_URL", None)
    ids = games_on_both_shards(service, shards)
    logs = {(role, s): tmp_path / f"{role}-{s}.log" for role in ("worker", "reactor") for s in (0, 1)}
    procs = {key: start(key[0], {**env, "DELVE_SHARD": str(key[1])}, log) for key, log in logs.items()}
    try:
        unfinished = wait_finished(service, ids, timeout=120)
        assert not unfinished, f"games left unfinished: {sorted(unfinished)}; see {tmp_path}"
    finally:
        stop(list(procs.values()))
        r.delete(*(k for q in shards.all_queues() for k in (timers_key(q), alive_key(q))))

    runs = [json.loads(x) for x in r.lrange(ran, 0, -1)]
    r.delete(ran)
    # Each worker ran only the jobs of its own shard's games, and both shards had work.
    assert all(shards.of(run["game"]) == int(run["shard"]) for run in runs), runs
    assert {int(run["shard"]) for run in runs} == {0, 1}
    bot_runs = [(run["game"], run["version"]) for run in runs if run["kind"] == "bot"]
    twice = [turn for turn, n in Counter(bot_runs).items() if n > 1]
    assert not twice, f"bot turns handled more than once: {twice}"
    for gid in ids:
        envs = list(service.store.reads.iter_all(gid))
        assert [e["seq"] for e in envs] == list(range(1, len(envs) + 1))
        in_log = {int(e["command_id"].rsplit(":", 1)[1]) for e in envs if e["command_id"].startswith("bot:")}
        moved = {run["version"] for run in runs if run["game"] == gid and run["kind"] == "bot" and run["moved"]}
        assert in_log and moved == in_log, f"{gid}: bot turns in the log {sorted(in_log)}, run {sorted(moved)}"
        assert [run["kind"] for run in runs if run["game"] == gid].count("finalize") == 1
        verdict = verify(service.store.export(gid))
        assert verdict.ok, verdict.problems
    # Each feed was read by its shard's reactor only (consumer names carry the host and pid).
    reactor_of = {s: f"{socket.gethostname()}-{procs[('reactor', s)].pid}-" for s in (0, 1)}
    for p in range(shards.partitions):
        feed = service.store.keys.feed(p)
        if not r.xlen(feed):
            continue
        names = {c["name"].decode() for c in r.xinfo_consumers(feed, env["DELVE_REACTOR_GROUP"])}
        assert names and all(n.startswith(reactor_of[p % 2]) for n in names), (p, names)


def test_one_shard_keeps_the_queue_name_and_every_feed(store):
    one = Shards(16, 1, (0,), "delve")
    assert one.all_queues() == ["delve"] and one.queue_of("g123") == "delve"
    assert one.feeds(store) == store.feeds() and all(one.owns(f"g{i}") for i in range(50))


def test_shards_split_the_partitions_and_each_game_goes_to_its_partitions_shard(store):
    keys = store.keys
    mine = [Shards(keys.partitions, 3, (s,), "q") for s in range(3)]
    feeds = [set(s.feeds(store)) for s in mine]
    assert set().union(*feeds) == set(store.feeds()) and sum(map(len, feeds)) == keys.partitions
    for i in range(100):
        gid = f"g{i:04x}"
        owners = [s.mine[0] for s in mine if s.owns(gid)]
        assert owners == [keys.partition(gid) % 3] and keys.feed_of(gid) in feeds[owners[0]]
        assert mine[0].queue_of(gid) == f"q:{owners[0]}"


@pytest.mark.parametrize("count,mine", [(17, (0,)), (2, (2,)), (2, ())])
def test_a_shard_setting_that_cannot_work_is_refused(count, mine):
    with pytest.raises(settings.BadSetting):
        Shards(16, count, mine, "q")


def test_readiness_names_the_shard_without_a_worker(store, r, prefix):
    queues = [f"q-{prefix}:0", f"q-{prefix}:1"]
    try:
        for q in queues:
            Timers(r, q, name=f"reactor:{prefix}").fire()
        Timers(r, queues[0], name=f"worker:{prefix}").fire()
        parts = liveness.parts(store, None, queues)
        assert parts["reactor"] == {"up": True, "alive": 1}
        assert parts["workers"] == {"up": False, "alive": 1, "shards_down": [1]}
    finally:
        r.delete(*(k for q in queues for k in (timers_key(q), alive_key(q))))


@pytest.mark.slow
def test_each_shards_deadlines_fire_by_its_own_pollers(service, queue, redis_url, prefix, tmp_path, r):
    """Clocked games on both shards, nobody moving: every turn times out (autoplay), fired by the
    timers of the game's shard's queue, which only that shard's reactor and worker poll."""
    shards = Shards(service.store.keys.partitions, 2, (0, 1), queue.name)
    env = {**os.environ, "REDIS_URL": redis_url, "DELVE_PREFIX": prefix, "DELVE_QUEUE": queue.name,
           "DELVE_PARTITIONS": str(shards.partitions), "DELVE_SHARDS": "2",
           "DELVE_REACTOR_GROUP": f"g-{queue.name}", "PYTHONPATH": str(ROOT)}
    env.pop("RQ_REDIS_URL", None)
    clock = {"initial_s": 1, "increment_s": 0, "on_timeout": "autoplay"}
    ids: list[str] = []
    for _ in range(100):
        if {shards.of(g) for g in ids} == {0, 1} and len(ids) >= 4:
            break
        ids.append(service.create("tiny", [{"name": "ann"}, {"name": "bob"}], {"turns": 3}, clock=clock)["id"])
    procs = {(role, s): start(role, {**env, "DELVE_SHARD": str(s)}, tmp_path / f"{role}-{s}.log")
             for role in ("worker", "reactor") for s in (0, 1)}
    timed: dict[int, set[str]] = {0: set(), 1: set()}  # the games whose timers each shard's set held

    def sample():
        for s in (0, 1):
            timed[s] |= {m.decode().split(" ")[1] for m in r.zrange(timers_key(shards.queue_name(s)), 0, -1)}
    try:
        unfinished = set(ids)
        for _ in range(1200):  # bounded: 120 s
            sample()
            unfinished = wait_finished(service, sorted(unfinished), timeout=0.1, poll=0.1)
            if not unfinished:
                break
        assert not unfinished, f"games left unfinished: {sorted(unfinished)}; see {tmp_path}"
        polled = {s: set(liveness.pollers(r, shards.queue_name(s))) for s in (0, 1)}
    finally:
        stop(list(procs.values()))
        r.delete(*(k for q in shards.all_queues() for k in (timers_key(q), alive_key(q))))
    for gid in ids:
        envs = list(service.store.reads.iter_all(gid))
        assert [e["type"] for e in envs].count("TimeExpired") == 3 and envs[-1]["type"] == "GameFinished"
        verdict = verify(service.store.export(gid))
        assert verdict.ok, verdict.problems
    for s in (0, 1):  # each game's deadlines were in its shard's timers, polled by that shard's reactor
        assert timed[s] and all(shards.of(g) == s for g in timed[s]), (s, timed[s])
        reactors = {name for name in polled[s] if name.startswith("reactor:")}
        assert reactors and all(f"-{procs[('reactor', s)].pid}-" in name for name in reactors), (s, reactors)


@pytest.mark.slow
def test_a_shard_survives_the_kill_of_one_of_its_reactors_and_its_worker(service, queue, redis_url, prefix,
                                                                           tmp_path, r):
    """Shard 0 runs two reactors: kill -9 one of them while it holds unacknowledged entries, with
    shard 0's worker; the other reactor takes the entries over, a new worker picks up, every game
    of both shards finishes with no command appended twice, and no job ran on the other shard."""
    shards = Shards(service.store.keys.partitions, 2, (0, 1), queue.name)
    ran, group = f"{prefix}:ran", f"g-{queue.name}"
    env = {**os.environ, "REDIS_URL": redis_url, "DELVE_PREFIX": prefix, "DELVE_QUEUE": queue.name,
           "DELVE_PARTITIONS": str(shards.partitions), "DELVE_SHARDS": "2", "DELVE_REACTOR_GROUP": group,
           "DELVE_REACTOR_MIN_IDLE_MS": "500", "DELVE_REACTOR_SWEEP_SECONDS": "1", "DELVE_JOB_STALE_SECONDS": "2",
           "DELVE_TEST_SLOW": "0.05", "DELVE_TEST_RAN": ran, "PYTHONPATH": str(ROOT)}
    env.pop("RQ_REDIS_URL", None)
    ids = games_on_both_shards(service, shards)
    shard0 = {**env, "DELVE_SHARD": "0"}
    doomed = start("reactor", shard0, tmp_path / "reactor-0a.log")
    worker0 = start("worker", shard0, tmp_path / "worker-0.log")
    others = [start("reactor", shard0, tmp_path / "reactor-0b.log"),
              start("reactor", {**env, "DELVE_SHARD": "1"}, tmp_path / "reactor-1.log"),
              start("worker", {**env, "DELVE_SHARD": "1"}, tmp_path / "worker-1.log")]
    feeds = Shards(shards.partitions, 2, (0,), queue.name).feeds(service.store)
    try:
        wait_for(lambda: any(service.store.version(g) >= 10 for g in ids if shards.of(g) == 0), 60,
                 "shard 0's games to get going")

        def holding() -> int:
            """Entries the doomed reactor holds unacknowledged."""
            return sum(c["pending"] for f in feeds for c in r.xpending(f, group)["consumers"]
                       if c["name"].decode().split("-")[-2] == str(doomed.pid))

        def frozen_holding() -> bool:
            pids = [doomed.pid, worker0.pid, *children(worker0.pid)]
            signal_all(pids, signal.SIGSTOP)
            if holding():
                return True
            signal_all(pids, signal.SIGCONT)
            return False

        wait_for(frozen_holding, 30, "the doomed reactor holding an unacknowledged entry")
        signal_all([doomed.pid, worker0.pid, *children(worker0.pid)], signal.SIGKILL)
        doomed.wait()
        worker0.wait()
        others.append(start("worker", shard0, tmp_path / "worker-0-again.log"))
        unfinished = wait_finished(service, ids, timeout=120)
        assert not unfinished, f"games left unfinished: {sorted(unfinished)}; see {tmp_path}"
        assert not holding(), "the dead reactor's entries were never taken over"
    finally:
        stop(others)
        r.delete(*(k for q in shards.all_queues() for k in (timers_key(q), alive_key(q))))
    runs = [json.loads(x) for x in r.lrange(ran, 0, -1)]
    r.delete(ran)
    assert all(shards.of(run["game"]) == int(run["shard"]) for run in runs), runs
    assert "reclaimed" in (tmp_path / "reactor-0b.log").read_text()
    for gid in ids:
        envs = list(service.store.reads.iter_all(gid))
        batches = [e["command_id"] for i, e in enumerate(envs)
                   if i == 0 or envs[i - 1]["command_id"] != e["command_id"]]
        assert len(batches) == len(set(batches)), "a command was appended twice"
        verdict = verify(service.store.export(gid))
        assert verdict.ok, verdict.problems
