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

from benchmarks import load
from localredis.server import EmbeddedRedis, _free_port
from localredis.cluster import LocalCluster
import settings

GAME, SEATS = "saboteur", 3
DELVE_APP = "server.app:create_app()"
ApiStarter = Callable[[str, int, dict[str, str], str], subprocess.Popen]
"""``(bind, processes, env overrides, wsgi app) -> the gunicorn process`` (`delve` passes the one
`delve serve` uses, without its access log)."""
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    """utime + stime of ``pids`` and their children (gunicorn's workers are its children)."""
    total = 0.0
    for pid in _with_children(pids):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICK
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
