"""Throughput of 1, 2 and 4 API processes on one store (docs/scaling.md).

``delve scaling [--stores plain,cluster] [--processes 1,2,4] [--seconds 8] [--out FILE]``

For each store (a private redis-server, and a 3-master Redis Cluster from
``localredis.cluster``) and each count of gunicorn processes (started as
`delve serve` starts them), the same loads as `delve bench` (``benchmarks.load``:
wrk if installed): a seat's ``GET /v1/games/{id}``, ``legal-actions``, and the
action cycle (legal-actions + POST, one game per connection). Beside each
result, the CPU seconds each part used during the run (Redis, the API
processes, the load generator), read from ``/proc``: the part that used its
share of the machine is the ceiling, and CPU milliseconds per request (which
do not depend on how busy the machine was) feed the arithmetic for many hosts.
Nothing is asserted; the JSON is the result.

``delve scaling --shards 1,2,4 --bot-games N`` measures the other half of the
platform instead: for each count n, n reactors and n rq workers (forking a work
horse per job, as `delve serve` runs them), one per shard of DELVE_SHARDS=n, on
a private redis-server, play N bot games to their end; the result is games and
bot moves per second, and the CPU the reactors, the workers (their work horses
included) and Redis used for them.
"""
from __future__ import annotations

import http.client
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import redis

from application.service import GameService
from application.status import GameStatus
from benchmarks import load
from benchmarks.served import DELVE_APP, ApiStarter
from events import liveness
from events.store import RedisEventStore
from localredis.server import EmbeddedRedis, _free_port
from localredis.cluster import LocalCluster
import settings

GAME, SEATS = "saboteur", 3
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int], reaped: bool = False) -> float:
    """utime + stime of ``pids`` and their children (gunicorn's workers are its children); with
    ``reaped``, also of the children that exited and were waited for (rq's work horses)."""
    total = 0.0
    for pid in _with_children(pids):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(f) for f in fields[11:15 if reaped else 13]) / TICK
    return total


def _with_children(pids: list[int]) -> list[int]:
    out = list(pids)
    for pid in pids:
        try:
            kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            continue
        out += _with_children([int(k) for k in kids])
    return out


def _loader_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # wrk, once waited for
    return usage.ru_utime + usage.ru_stime


def _api(api: ApiStarter, redis_url: str, processes: int, prefix: str) -> tuple[subprocess.Popen, int]:
    port = _free_port()
    proc = api(f"127.0.0.1:{port}", processes, {"REDIS_URL": redis_url, "DELVE_PREFIX": prefix,
                                                **settings.UNLIMITED, "DELVE_ADMIN_TOKEN": ""}, DELVE_APP)
    deadline = time.monotonic() + 60
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return proc, port
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("gunicorn did not come up")
        time.sleep(0.2)


def _seat_game(port: int) -> tuple[str, str, str]:
    """A fresh game: (id, seat 0's token, the active seat's token)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", "/v1/games", body=json.dumps({"game": GAME, "seats": [{"name": f"p{i}"} for i in
                                                                           range(SEATS)]}),
                 headers={"Content-Type": "application/json"})
    created = json.loads(conn.getresponse().read())
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    conn.request("GET", f"/v1/games/{created['id']}")
    active = json.loads(conn.getresponse().read())["active_seats"][0]
    return created["id"], tokens[0], tokens[active]


def measure(api: ApiStarter, redis_url: str, redis_pids: list[int], processes: int, seconds: float,
            connections: int) -> dict:
    proc, port = _api(api, redis_url, processes, f"scale{processes}")
    try:
        gid, seat0, active = _seat_game(port)
        loads = {"game_seat": lambda: load.run_paths(port, [f"/v1/games/{gid}"], seat0, seconds=seconds,
                                                     connections=connections),
                 "legal_actions": lambda: load.run_paths(port, [f"/v1/games/{gid}/legal-actions"], active,
                                                         seconds=seconds, connections=connections),
                 "action_cycle": lambda: load.run_cycle(port, GAME, SEATS, seconds=seconds, connections=connections)}
        out = {}
        for name, run in loads.items():
            before = (cpu_seconds(redis_pids), cpu_seconds([proc.pid]), _loader_cpu(), time.monotonic())
            result = run()
            after = (cpu_seconds(redis_pids), cpu_seconds([proc.pid]), _loader_cpu(), time.monotonic())
            wall = after[3] - before[3]
            result["cpu_share"] = {part: round((after[i] - before[i]) / wall, 2)
                                   for i, part in enumerate(("redis", "api", "load_generator"))}
            # CPU per request does not depend on how busy the machine was: the arithmetic of docs/scaling.md
            result["cpu_ms_per_request"] = {part: round(share * 1000 / result["requests_per_s"], 3)
                                            for part, share in result["cpu_share"].items()}
            if name == "action_cycle":
                result["cycles_per_s"] = round(result["counters"]["posts"] / result["seconds"], 1)
            out[name] = result
            print(f"  {processes} process(es) {name}: {result['requests_per_s']} req/s, p50 {result['p50_ms']} ms, "
                  f"p99 {result['p99_ms']} ms, cpu {result['cpu_share']}", file=sys.stderr, flush=True)
        return out
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def run(api: ApiStarter, *, stores: list[str], processes: list[int], seconds: float, connections: int) -> dict:
    """Every store x every process count; the report `docs/scaling.md` is written from."""
    report = {"generator": load.generator(), "connections": connections, "seconds": seconds,
              "cpus": os.cpu_count(), "load_average_before": os.getloadavg(), "stores": {}}
    for store in stores:
        with ExitStack() as stack:
            if store == "cluster":
                cluster = stack.enter_context(LocalCluster(masters=3, replicas=0))
                url, pids = cluster.url, [p.pid for p in cluster.procs.values()]
            else:
                server = EmbeddedRedis()
                url = stack.enter_context(server)
                pids = [server.proc.pid]
            print(f"{store}: {url}", file=sys.stderr, flush=True)
            report["stores"][store] = {str(n): measure(api, url, pids, n, seconds, connections) for n in processes}
    report["load_average_after"] = os.getloadavg()
    return report


ProcessStarter = Callable[[list[str], dict[str, str]], subprocess.Popen]
"""``(delve's arguments, env overrides) -> the process``: a `delve reactor` or `delve worker`."""


def shards(start: ProcessStarter, *, counts: list[int], games: int, seats: int = SEATS,
           timeout: float = 900) -> dict:
    """For each n of ``counts``: n reactors and n workers on n shards play ``games`` bot games of GAME."""
    report = {"game": GAME, "seats": seats, "games": games, "cpus": os.cpu_count(),
              "load_average_before": os.getloadavg(), "shards": {}}
    with EmbeddedRedis() as url:
        r = redis.Redis.from_url(url)
        redis_pid = [int(r.info("server")["process_id"])]
        for n in counts:
            report["shards"][str(n)] = _play_sharded(start, url, r, redis_pid, n, games, seats, timeout)
    report["load_average_after"] = os.getloadavg()
    return report


def _play_sharded(start: ProcessStarter, url: str, r: redis.Redis, redis_pid: list[int], n: int, games: int,
                  seats: int, timeout: float) -> dict:
    queue = f"bench-shards{n}"
    env = {"REDIS_URL": url, "DELVE_PREFIX": f"shards{n}", "DELVE_QUEUE": queue, "DELVE_SHARDS": str(n),
           "DELVE_ADMIN_TOKEN": "", "DELVE_LOG_LEVEL": "WARNING"}
    reactors = [start(["reactor", "--shard", str(k)], env) for k in range(n)]
    workers = [start(["worker", "--shard", str(k)], env) for k in range(n)]
    try:
        _until_polling(r, [queue if n == 1 else f"{queue}:{k}" for k in range(n)])
        service = GameService(RedisEventStore(r, prefix=env["DELVE_PREFIX"],
                                              partitions=settings.get("DELVE_PARTITIONS")))
        table = [{"name": f"bot{i}", "bot": "random"} for i in range(seats)]
        before = (cpu_seconds([p.pid for p in reactors]), cpu_seconds([p.pid for p in workers], reaped=True),
                  cpu_seconds(redis_pid), time.monotonic())
        ids = [service.create(GAME, table, {})["id"] for _ in range(games)]
        left = set(ids)
        while left and time.monotonic() - before[3] < timeout:
            done = service.store.reads.meta_field(sorted(left), "status")
            left -= {gid for gid, status in done.items() if status == GameStatus.FINISHED}
            time.sleep(0.1)
        after = (cpu_seconds([p.pid for p in reactors]), cpu_seconds([p.pid for p in workers], reaped=True),
                 cpu_seconds(redis_pid), time.monotonic())
    finally:
        for p in reactors + workers:
            p.terminate()
        for p in reactors + workers:
            p.wait(timeout=30)
    wall = after[3] - before[3]
    moves = sum(len({e["command_id"] for e in service.store.read(gid) if e["command_id"].startswith("bot:")})
                for gid in ids)
    cpu = {part: round(after[i] - before[i], 2) for i, part in enumerate(("reactors", "workers", "redis"))}
    result = {"seconds": round(wall, 1), "finished": games - len(left), "bot_moves": moves,
              "games_per_s": round((games - len(left)) / wall, 3), "moves_per_s": round(moves / wall, 1),
              "cpu_seconds": cpu, "cpu_share": {k: round(v / wall, 2) for k, v in cpu.items()},
              "cpu_ms_per_move": {k: round(v * 1000 / max(moves, 1), 2) for k, v in cpu.items()}}
    print(f"  {n} shard(s): {result['games_per_s']} games/s, {result['moves_per_s']} moves/s, cpu {cpu}",
          file=sys.stderr, flush=True)
    return result


def _until_polling(r: redis.Redis, queues: list[str], timeout: float = 120) -> None:
    """Wait until every shard's queue has a worker and a reactor polling its timers (both started)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = [liveness.pollers(r, q) for q in queues]
        if all(any(name.startswith(role) for name in names) for names in alive for role in ("worker:", "reactor:")):
            return
        time.sleep(0.2)
    raise RuntimeError("the reactors and workers did not start polling")
