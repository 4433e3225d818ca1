"""Clocks and recovery under faults: clocked games whose every turn runs out (``per_move_s: 1``,
autoplay) while workers and the reactor are killed with -9, while Redis is killed and
restarted, and while `delve serve`'s own embedded Redis is killed.

Each deadline's lateness is judged from the log: a TimeExpired batch's stamp minus the
previous batch's stamp plus the second allowed (both stamped by Redis). A deadline that
falls while Redis is down can only fire once it is back: those count how long after Redis
answered again they fired. Asserted: no deadline missed, every game finished, every export
verifies, no acknowledged move lost, none twice. Times are tallied, not asserted.
"""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from datetime import datetime

import pytest
import redis as redis_lib

from application import clocks, runtime
from events import liveness
from application.service import GameService
from events.store import RedisEventStore
from localredis.server import _free_port
from tests.faults import tally
from tests.faults.support import ROOT, Client, Redis, stop_group
from tests.workers.test_worker_crash import children, signal_all, start, stop, wait_for

pytestmark = pytest.mark.slow

HUMANS = [{"name": "ann"}, {"name": "bob"}]
BOTS = [{"name": "cy", "bot": "random"}, {"name": "dee", "bot": "random"}]
CLOCK = {"per_move_s": 1, "on_timeout": "autoplay"}


def env_for(redis: Redis) -> dict[str, str]:
    env = {**os.environ, "REDIS_URL": redis.url, "DELVE_QUEUE": "faults", "DELVE_PREFIX": "delve",
           "PYTHONPATH": str(ROOT)}
    for tuned in ("RQ_REDIS_URL", "DELVE_JOB_STALE_SECONDS", "DELVE_REACTOR_MIN_IDLE_MS", "DELVE_TEST_SLOW"):
        env.pop(tuned, None)  # the defaults are what is measured
    return env


def wait_started(redis: Redis, n: int, log) -> None:
    """Until ``n`` workers and reactors poll the timers (they take seconds to import everything)."""
    r = redis_lib.Redis.from_url(redis.url)
    wait_for(lambda: sum(idle < 2000 for idle in liveness.pollers(r, "faults").values()) >= n, 60,
             f"{n} processes to start; see {log}")


def ms(stamp: str) -> int:
    return int(datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() * 1000)


def judged(svc: GameService, gid: str) -> list[tuple[int, int]]:
    """(due, fired) in ms of each deadline that fired in the game, from its log."""
    envs = list(svc.store.reads.iter_all(gid))
    return [(ms(envs[i - 1]["at"]) + 1000 * CLOCK["per_move_s"], ms(e["at"]))
            for i, e in enumerate(envs) if e["type"] == "TimeExpired"]


def tally_deadlines(svc: GameService, ids: list[str], outages: list[tuple[int, int]], fault: str) -> None:
    """Lateness of each deadline outside an outage; for those inside, how long after Redis was back."""
    late, after_back = [], []
    for gid in ids:
        for due, fired in judged(svc, gid):
            window = next(((down, up) for down, up in outages if down - 200 <= due <= up), None)
            if window is None:
                late.append((fired - due) / 1000)
            else:
                after_back.append((fired - window[1]) / 1000)
    tally.deadlines(late)
    measured = {"deadline_late_p99_s": sorted(late)[int(0.99 * (len(late) - 1))], "deadline_late_max_s": max(late)}
    if after_back:
        measured["overdue_fired_after_redis_back_max_s"] = max(after_back)
    tally.cost(fault, deadlines=len(late) + len(after_back), **measured)


def finish_and_check(svc: GameService, ids: list[str], acknowledged: list[str], timeout: float, log) -> None:
    bound = time.monotonic() + timeout
    while not all(svc.store.meta(g)["status"] == "finished" for g in ids) and time.monotonic() < bound:
        time.sleep(0.1)
    now = svc.store.now_ms()
    missed = sum(1 for g in ids if (clocks.deadline_ms(svc.store.meta(g)) or now) < now - 5000)
    tally.deadlines([], missed)
    assert missed == 0 and all(svc.store.meta(g)["status"] == "finished" for g in ids), \
        f"{missed} deadlines missed, games unfinished; see {log}"
    for gid in ids:
        envs = list(svc.store.reads.iter_all(gid))
        batches = [e["command_id"] for i, e in enumerate(envs) if i == 0 or envs[i - 1]["command_id"] != e["command_id"]]
        mine = [c for c in acknowledged if c.startswith(f"human:{gid}:")]
        seen = tally.check_export(list(svc.store.export(gid)), mine)
        tally.count(games_finished=1, duplicates=len(batches) - len(set(batches)))
        assert seen["verdict"]["ok"], seen["verdict"]["problems"]
        assert not seen["lost"] and len(batches) == len(set(batches))
        expired = [c for c in batches if c.startswith("clock:")]
        assert len(expired) == len(set(expired)), "a deadline fired twice"


class Humans:
    """Players of some clocked games who move now and then, in time or not: what the store
    acknowledges must all be in the logs. Their service adds the timer of each deadline it sets,
    as the API's does."""

    def __init__(self, svc: GameService, ids: list[str], redis: Redis):
        self.svc, self.ids, self.acknowledged = svc, ids, []
        svc.store.appends.after_append = runtime.clock_timers(redis.url, "faults")
        self.rng = random.Random(7)

    def play(self) -> None:
        gid = self.rng.choice(self.ids)
        try:
            g = self.svc.load(gid)
            if g.meta["status"] != "active" or not g.game.active_seats(g.state):
                return
            seat = min(g.game.active_seats(g.state))
            cid = f"human:{gid}:{g.version}"
            self.svc.submit(gid, seat, g.version, {"type": "pass"}, cid)
            self.acknowledged.append(cid)
        except Exception:  # too late, a conflict, Redis down: not acknowledged
            pass


def test_clocked_games_keep_time_while_workers_and_the_reactor_are_killed(tmp_path):
    redis = Redis(tmp_path / "redis")
    log = tmp_path / "procs.log"
    env = env_for(redis)
    svc = GameService(RedisEventStore(redis_lib.Redis.from_url(redis.url)))
    roles = ["worker", "reactor", "worker"]
    procs = [start(role, env, log) for role in roles]
    try:
        wait_started(redis, 3, log)
        ids = [svc.create("tiny", HUMANS, {"turns": 24}, clock=CLOCK)["id"] for _ in range(6)]
        humans = Humans(svc, ids[:2], redis)
        r = redis_lib.Redis.from_url(redis.url)
        kills, victim, next_kill, restarting = 0, 0, time.monotonic() + 2, None
        deadline = time.monotonic() + 120
        while not all(svc.store.meta(g)["status"] == "finished" for g in ids) and time.monotonic() < deadline:
            if restarting is not None:  # one process down at a time: the next kill waits for it to poll again
                if any(idle < 1000 for name, idle in liveness.pollers(r, "faults").items() if name not in restarting):
                    restarting, next_kill = None, time.monotonic() + 1
            elif time.monotonic() >= next_kill:
                proc = procs[victim]
                restarting = set(liveness.pollers(r, "faults"))
                signal_all([proc.pid, *children(proc.pid)], signal.SIGKILL)
                proc.wait()
                time.sleep(0.5)  # `delve serve`'s first restart pause
                procs[victim] = start(roles[victim], env, log)
                kills, victim = kills + 1, (victim + 1) % len(procs)
            humans.play()
            time.sleep(0.3)
        finish_and_check(svc, ids, humans.acknowledged, 30, log)
        assert kills >= 3 and all(p.poll() is None for p in procs), f"a restarted process died; see {log}"
        tally_deadlines(svc, ids, [], "worker or reactor kill -9 (one at a time, each 1 s after the last is back)")
    finally:
        stop(procs)
        redis.stop()


def test_clocked_and_bot_games_resume_within_seconds_of_a_redis_restart(tmp_path):
    redis = Redis(tmp_path / "redis")
    log = tmp_path / "procs.log"
    env = env_for(redis)
    svc = GameService(RedisEventStore(redis_lib.Redis.from_url(redis.url)))
    procs = [start(role, env, log) for role in ("worker", "reactor", "worker")]
    outages: list[tuple[int, int]] = []
    resumed: list[float] = []
    try:
        wait_started(redis, 3, log)
        ids = [svc.create("tiny", HUMANS, {"turns": 16}, clock=CLOCK)["id"] for _ in range(6)]
        humans = Humans(svc, ids[:2], redis)
        bot_games: list[str] = []
        for _ in range(2):
            for _ in range(6):
                humans.play()
                time.sleep(0.3)
            fresh = [svc.create("tiny", BOTS, {"turns": 50})["id"] for _ in range(3)]
            bot_games += fresh
            wait_for(lambda: all(svc.store.version(g) >= 6 for g in fresh), 30, "the bot games to get going")
            before = {g: svc.store.version(g) for g in fresh if svc.store.meta(g)["status"] == "active"}
            down = int(time.time() * 1000)
            redis.kill()
            time.sleep(3)
            redis.start()
            up = time.time()
            outages.append((down, int(up * 1000)))
            waiting = dict(before)
            bound = time.monotonic() + 30
            while waiting and time.monotonic() < bound:
                for g, v in list(waiting.items()):
                    if svc.store.version(g) > v or svc.store.meta(g)["status"] != "active":
                        resumed.append(time.time() - up)
                        del waiting[g]
                time.sleep(0.02)
            assert not waiting, f"bot games did not move again after Redis came back; see {log}"
        finish_and_check(svc, ids + bot_games, humans.acknowledged, 90, log)
        assert [p.poll() for p in procs] == [None] * 3, f"a process quit on a Redis restart; see {log}"
        tally.stall(max(resumed))
        tally_deadlines(svc, ids, outages, "Redis kill -9, back after 3 s")
        tally.cost("Redis kill -9, back after 3 s", bot_turns_resumed_after_redis_back_max_s=max(resumed))
    finally:
        stop(procs)
        redis.stop()


def test_serve_restarts_its_embedded_redis_and_the_clocked_game_goes_on(tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL")}
    env.update(PYTHONPATH=str(ROOT), DELVE_ADMIN_TOKEN="fault-admin", DELVE_RATE_LIMIT="0")
    out = (tmp_path / "serve.log").open("wb")
    serve = subprocess.Popen([sys.executable, "-m", "delve.cli", "serve", "--port", str(port), "--workers", "1",
                              "--web-workers", "1", "--data-dir", str(tmp_path / "data")], cwd=ROOT, env=env,
                             stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    api = Client(port)
    try:
        api.wait_healthy(serve, timeout=60)
        status, body, _ = api.call("POST", "/v1/games", {"game": "dwarf", "seats": [{"name": "ann"}, {"name": "bob"}],
                                                         "clock": CLOCK})
        assert status == 201, body
        gid = body["id"]
        version = lambda: api.call("GET", f"/v1/games/{gid}")[1].get("version", -1)  # noqa: E731
        wait_for(lambda: version() >= body["version"] + 2, 30, "the clock to play the game")
        wait_for(lambda: api.call("GET", "/readyz")[1].get("status") == "ready", 30, "every part to be up")

        def redis_pid() -> int:
            rows = subprocess.run(["ps", "-ww", "-o", "pid=,args=", "--ppid", str(serve.pid)], capture_output=True,
                                  text=True).stdout.splitlines()
            found = [int(r.split()[0]) for r in rows if "redis-server" in r]
            assert found, rows
            return found[0]

        first = redis_pid()
        os.kill(first, signal.SIGKILL)
        killed = time.monotonic()
        wait_for(lambda: api.call("GET", "/readyz")[0] == 503, 10, "/readyz to see the store down")
        problem = api.call("GET", "/readyz")[1]
        assert problem["code"] == "store_unavailable" and problem["parts"]["store"]["up"] is False
        wait_for(lambda: api.call("GET", "/readyz")[0] == 200, 30, "the embedded Redis to be started again")
        back = time.monotonic()
        moved_at = version()
        wait_for(lambda: version() > moved_at, 30, "the clocked game to move again")
        tally.cost("delve serve: embedded redis-server kill -9", readyz_back_after_s=back - killed,
                   clocked_game_moved_after_s=time.monotonic() - killed)
        assert redis_pid() != first and serve.poll() is None
        assert b"redis-server exited with code -9" in (tmp_path / "serve.log").read_bytes()
        wait_for(lambda: api.call("GET", "/readyz")[1].get("status") == "ready", 30, "every part up again")
    finally:
        stop_group(serve)
        out.close()
