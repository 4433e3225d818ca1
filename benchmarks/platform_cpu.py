"""CPU per move of bot games through the whole platform against the same games played by the kit's driver.

The platform is what `delve serve` runs: one API process (gunicorn, gevent), the reactor and
rq workers, on the bench's Redis; once with workers that fork a work horse per job (as
`delve serve` runs them), once with ``delve worker --simple``. The games are created over HTTP
with a bot in every seat; the reactor queues each bot turn, a worker plays it. When every game
has finished, each one is played again in this process by ``domain.kit.driver.play`` with the
game's own seed, seats and options: the same DRBG streams, so the same moves (checked: the
kit's events are the platform's, which then adds its own SeedRevealed and GameFinished).

CPU is read from ``/proc`` (``utime + stime`` of each platform process and of its children
that ended, the forked work horses of rq among them) and from Redis's own ``INFO cpu``, over
the run from the first create to the last game finished; the kit's from ``time.process_time``.
A move is an accepted command (a seat's, a game actor's step or a platform command) in the
platform's logs, a step of the kit's driver in its run. Idle polling (each worker checks the
timers every second) counts on the platform's side: it is part of what the platform costs.
"""
from __future__ import annotations

import collections
import http.client
import json
import os
import subprocess
import threading
import time
import uuid
from pathlib import Path
from typing import Callable

import redis

from domain.core import Game, Seat
from domain.kit.driver import play as kit_play
from application.status import GameStatus
from events.store import RedisEventStore
from localredis.server import _free_port
import settings

PlatformStarter = Callable[[str, dict[str, str], int, bool], dict[str, subprocess.Popen]]
"""``(bind, env overrides, workers, simple) -> {name: process}``: the API, the reactor and the workers
(``simple``: jobs run in the worker's own process, no work horse forked per job)."""
TARGET_RATIO = 2.0
TICK = os.sysconf("SC_CLK_TCK")


def proc_cpu(pid: int) -> float:
    """utime + stime of ``pid`` and of its children it waited for (cutime + cstime), then of its live
    children (a gunicorn master's worker, an rq worker's running work horse), in seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    own = sum(int(f) for f in fields[11:15]) / TICK
    try:
        kids = [int(k) for k in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        kids = []
    return own + sum(proc_cpu(k) for k in kids)


def redis_cpu(r: redis.Redis) -> float:
    info = r.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def _post(port: int, path: str, body: dict) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        out = json.loads(resp.read())
        if resp.status != 201:
            raise RuntimeError(f"POST {path}: {resp.status} {out}")
        return out
    finally:
        conn.close()


def _healthy(port: int, procs: dict[str, subprocess.Popen], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        dead = [name for name, p in procs.items() if p.poll() is not None]
        if dead:
            raise RuntimeError(f"platform process exited: {dead}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("the platform's API did not answer /healthz in time")


def run(start: PlatformStarter, redis_url: str, game: Game, seats: int, bot: str, games: int, workers: int = 1,
        timeout: float = 1800.0, log: Callable[[str], None] = print) -> dict:
    """``games`` bot games on the platform as `delve serve` runs it (forking workers), as many with workers
    that do not fork (``delve worker --simple``), and each set again by the kit's driver; CPU per move."""
    out = {"game": game.id, "seats": seats, "bot": bot, "games": games, "workers": workers}
    for label, simple in (("forking_workers", False), ("simple_workers", True)):
        out[label] = _platform(start, redis_url, game, seats, bot, games, workers, simple, timeout, log)
    ratio = out["forking_workers"]["ratio"]
    return {**out, "ratio": ratio, "target_ratio": TARGET_RATIO,
            "target_met": ratio is not None and ratio <= TARGET_RATIO}


def _platform(start: PlatformStarter, redis_url: str, game: Game, seats: int, bot: str, games: int, workers: int,
              simple: bool, timeout: float, log: Callable[[str], None]) -> dict:
    prefix = f"cpu{uuid.uuid4().hex[:8]}"
    r = redis.Redis.from_url(redis_url)
    store = RedisEventStore(r, prefix=prefix)
    env = {"REDIS_URL": redis_url, "DELVE_PREFIX": prefix, **settings.UNLIMITED, "DELVE_ADMIN_TOKEN": "",
           "DELVE_QUEUE": f"{prefix}-jobs"}
    port = _free_port()
    procs = start(f"127.0.0.1:{port}", env, workers, simple)
    for p in procs.values():  # a log pipe nobody reads would fill and block its writer
        if p.stderr is not None:
            threading.Thread(target=lambda p=p: collections.deque(iter(p.stderr.readline, b""), maxlen=0),
                             daemon=True).start()
    try:
        _healthy(port, procs)
        time.sleep(1.0)  # the workers' and the reactor's start-up (imports, preloading) is not a move's cost
        log(f"platform: {games} {game.id} games, {seats} {bot} bots each, {workers} "
            f"{'simple' if simple else 'forking'} worker(s)")
        cpu0 = {name: proc_cpu(p.pid) for name, p in procs.items()}
        redis0, began = redis_cpu(r), time.monotonic()
        table = [{"name": f"{bot}-{i}", "bot": bot} for i in range(seats)]
        ids = [_post(port, "/v1/games", {"game": game.id, "seats": table, "options": {}})["id"] for _ in range(games)]
        left = set(ids)
        deadline = time.monotonic() + timeout
        while left and time.monotonic() < deadline:
            statuses = store.reads.meta_field(sorted(left), "status")
            left -= {gid for gid, status in statuses.items() if status == GameStatus.FINISHED}
            if left:
                time.sleep(0.2)
        wall = time.monotonic() - began
        cpu1 = {name: proc_cpu(p.pid) for name, p in procs.items()}
        redis1 = redis_cpu(r)
    finally:
        for p in procs.values():
            p.terminate()
        for p in procs.values():
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
    try:
        if left:
            raise RuntimeError(f"{len(left)} of {games} platform games did not finish in {timeout:.0f} s")
        parts: dict[str, float] = {"redis": redis1 - redis0}
        for name in procs:
            kind = name.split(" ")[0]
            parts[kind] = parts.get(kind, 0.0) + cpu1[name] - cpu0[name]
        logs = {gid: store.read(gid) for gid in ids}
        moves = sum(1 for envs in logs.values() for env_ in envs if env_.get("command") is not None)
        kit_cpu, kit_moves, same = _kit(game, store, logs, log)
    finally:
        store.purge()
    total = sum(parts.values())
    ms = lambda secs, n: round(secs * 1000 / n, 3) if n else None  # noqa: E731
    platform_ms, kit_ms = ms(total, moves), ms(kit_cpu, kit_moves)
    return {"platform": {"moves": moves, "wall_seconds": round(wall, 2), "cpu_seconds": round(total, 3),
                         "cpu_ms_per_move": platform_ms,
                         "cpu_ms_per_move_by_part": {k: ms(v, moves) for k, v in sorted(parts.items())}},
            "kit": {"moves": kit_moves, "cpu_seconds": round(kit_cpu, 3), "cpu_ms_per_move": kit_ms,
                    "same_games": same},
            "ratio": round(platform_ms / kit_ms, 2) if platform_ms and kit_ms else None}


def _kit(game: Game, store: RedisEventStore, logs: dict[str, list[dict]],
         log: Callable[[str], None]) -> tuple[float, int, bool]:
    """The platform's games played again by ``domain.kit.driver.play`` from their seeds: CPU seconds, steps,
    and whether every one produced the platform's events (the platform adds its own: SeedRevealed, GameFinished)."""
    cpu, steps, same = 0.0, 0, True
    for gid, envs in logs.items():
        meta = store.meta(gid)
        roster = [Seat.from_dict(s) for s in json.loads(meta["seats"])]
        t = time.process_time()
        played = kit_play(game, roster, envs[0]["data"]["options"], bytes.fromhex(meta["seed"]))
        cpu += time.process_time() - t
        steps += len(played.steps) - 1
        kit_events = [(e["type"], e["data"]) for step in played.steps for e in step.events]
        platform_events = [(e["type"], e["data"]) for e in envs[1:1 + len(kit_events)]]
        if kit_events != platform_events:
            log(f"kit: game {gid} played differently by the kit's driver")
            same = False
    return cpu, steps, same
