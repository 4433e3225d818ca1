"""The load generators of `delve bench`: ``wrk`` (compiled, Debian's) where it is installed,
else a multi-process Python client. Both run the same two kinds of load and report alike:

- ``paths``: GET one of a list of paths at random, with one bearer token (or none);
- ``cycle``: the action cycle: each connection plays its own game, GET legal-actions for a
  seat then POST one of its commands at random (``benchmarks/lua/cycle.lua``).

A result is ``{generator, requests, seconds, requests_per_s, non_2xx, socket_errors,
p50_ms, p90_ms, p99_ms, max_ms, counters}``; ``counters`` of a cycle: posts, refused,
idle (legal-actions with nothing to play), games, bad.
"""
from __future__ import annotations

import http.client
import json
import multiprocessing
import random
import shutil
import subprocess
import tempfile
import time
from importlib import resources
from pathlib import Path

WRK = shutil.which("wrk")


def generator() -> str:
    return "wrk" if WRK else "python-multiprocess"


def run_paths(port: int, paths: list[str], token: str | None, *, seconds: float, connections: int,
              threads: int = 2) -> dict:
    if WRK:
        prelude = f"PATHS = {{{', '.join(_lua_str(p) for p in paths)}}}\nAUTH = {_lua_str(token or '')}\n"
        return _wrk(port, prelude + _lua("paths.lua"), seconds, connections, threads)
    return _python(port, ("paths", paths, token), seconds, connections)


def run_cycle(port: int, game: str, seats: int, *, seconds: float, connections: int) -> dict:
    """One wrk thread per connection: a thread's requests then alternate strictly, which the
    cycle's state machine needs (wrk gives no way to tell which connection answered)."""
    if WRK:
        prelude = f"GAME = {_lua_str(game)}\nSEATS = {seats}\n"
        return _wrk(port, prelude + _lua("cycle.lua"), seconds, connections, connections)
    return _python(port, ("cycle", game, seats), seconds, connections)


# -- wrk ----------------------------------------------------------------------------------


def _lua(name: str) -> str:
    return resources.files("benchmarks").joinpath("lua", name).read_text()


def _lua_str(s: str) -> str:
    return json.dumps(s)  # a JSON string is a valid Lua string literal for what we pass (ASCII paths, tokens)


def _wrk(port: int, script: str, seconds: float, connections: int, threads: int) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script + "\n" + _lua("report.lua"))
        path = f.name
    try:
        out = subprocess.run([WRK, "-t", str(threads), "-c", str(connections), "-d", f"{seconds:.0f}s",
                              "--timeout", "10s", "-s", path, f"http://127.0.0.1:{port}"],
                             capture_output=True, text=True, timeout=seconds + 60)
    finally:
        Path(path).unlink(missing_ok=True)
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("WRKJSON ")), None)
    if line is None:
        raise RuntimeError(f"wrk printed no result: {out.stdout[-1000:]} {out.stderr[-1000:]}")
    raw = json.loads(line[len("WRKJSON "):])
    secs = raw["duration_us"] / 1e6
    return {"generator": "wrk", "requests": raw["requests"], "seconds": round(secs, 2),
            "requests_per_s": round(raw["requests"] / secs, 1), "non_2xx": raw["non_2xx"],
            "socket_errors": raw["socket_errors"],
            **{f"{q}_ms": round(raw[f"{q}_us"] / 1000, 3) for q in ("p50", "p90", "p99", "max")},
            "counters": raw["counters"]}


# -- the multi-process Python client (no wrk) ------------------------------------------------


def _python(port: int, plan: tuple, seconds: float, connections: int) -> dict:
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(connections) as pool:
        started = time.perf_counter()
        parts = pool.starmap(_client, [(port, plan, seconds, i) for i in range(connections)])
        elapsed = time.perf_counter() - started
    lat = sorted(x for p in parts for x in p["latency"])
    pick = lambda q: round(lat[min(len(lat) - 1, int(q * len(lat)))] * 1000, 3) if lat else None  # noqa: E731
    counters: dict[str, int] = {}
    for p in parts:
        for k, v in p["counters"].items():
            counters[k] = counters.get(k, 0) + v
    return {"generator": "python-multiprocess", "requests": len(lat), "seconds": round(elapsed, 2),
            "requests_per_s": round(len(lat) / elapsed, 1), "non_2xx": sum(p["non_2xx"] for p in parts),
            "socket_errors": sum(p["socket_errors"] for p in parts),
            "p50_ms": pick(0.5), "p90_ms": pick(0.9), "p99_ms": pick(0.99), "max_ms": pick(1.0), "counters": counters}


def _client(port: int, plan: tuple, seconds: float, index: int) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    rng = random.Random(index)
    out = {"latency": [], "non_2xx": 0, "socket_errors": 0, "counters": {}}

    def call(method: str, path: str, token: str | None = None, body: str | None = None) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
        t = time.perf_counter()
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        data = resp.read()
        out["latency"].append(time.perf_counter() - t)
        if resp.status >= 300:
            out["non_2xx"] += 1
        return resp.status, data

    deadline = time.monotonic() + seconds
    try:
        if plan[0] == "paths":
            _, paths, token = plan
            while time.monotonic() < deadline:
                call("GET", rng.choice(paths), token)
        else:
            _cycle(call, plan[1], plan[2], deadline, rng, out["counters"])
    except OSError:
        out["socket_errors"] += 1
    return out


def _cycle(call, game: str, seats: int, deadline: float, rng: random.Random, counters: dict) -> None:
    """cycle.lua's state machine, for the Python client."""
    for k in ("posts", "refused", "idle", "games", "bad"):
        counters[k] = 0
    body = json.dumps({"game": game, "seats": [{"name": f"p{i}"} for i in range(seats)], "options": {}})
    gid, tokens, seat, tried = None, [], 0, 0
    while time.monotonic() < deadline:
        if gid is None:
            status, data = call("POST", "/v1/games", body=body)
            if status != 201:
                counters["bad"] += 1
                continue
            created = json.loads(data)
            gid, tokens, seat, tried = created["id"], [s["token"] for s in created["seats"]], 0, 0
            counters["games"] += 1
            continue
        status, data = call("GET", f"/v1/games/{gid}/legal-actions", tokens[seat])
        legal = json.loads(data) if status == 200 else {}
        if not legal.get("commands"):
            counters["idle"] += 1
            seat, tried = (seat + 1) % len(tokens), tried + 1
            if tried > len(tokens) or status != 200:
                gid = None
            continue
        post = json.dumps({"expected_version": legal["version"], "command": rng.choice(legal["commands"])})
        status, _ = call("POST", f"/v1/games/{gid}/actions", tokens[seat], post)
        counters["posts" if status == 201 else "refused"] += 1
        tried = 0
        if status == 201:
            seat = (seat + 1) % len(tokens)
