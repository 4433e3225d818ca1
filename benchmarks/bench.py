"""`delve bench`: the numbers that bound what one Delve node does.

- ``http``: clients play games of human seats through the real API (gunicorn
  subprocess, every request over a keep-alive HTTP/1.1 connection): read the
  game, fetch the legal actions, post one. ``actions_per_s`` counts accepted
  POSTs; ``post_ms`` is the latency of those POSTs alone.
- ``append``: direct ``RedisEventStore.append`` calls of one event each (the
  head read plus the Lua script: version check, XADD, meta, feed entry);
  latency percentiles in milliseconds.
- ``replay``: one bot game played to the end, then folded from its first
  event (``fold_events_per_s``: ``evolve`` only) and verified from its export
  (``verify_events_per_s``: hash chain plus re-running every ``decide``).

Everything runs against the Redis the caller gives (under a throwaway key
prefix, deleted afterwards). Progress goes to stderr. How to start the API
and how to play a bot game are passed in by the `delve` command, the
composition root: benchmarks sit beside server and workers, not above them.
"""
from __future__ import annotations

import http.client
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from datetime import datetime, timezone
from typing import Callable

import redis

from domain.core import Game, canonical_json, fold
from events.replay import PLATFORM_EVENTS, verify
from events.service import GameService
from events.store import RedisEventStore

ApiStarter = Callable[[str, int, dict[str, str]], subprocess.Popen]
"""``(bind, processes, env overrides) -> the API process``, quiet, its stderr a pipe."""
BotGame = Callable[[GameService, Game], str]
"""``(service, game) -> id`` of one bot game played to its end."""


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def percentiles(samples_s: list[float]) -> dict:
    ms = sorted(x * 1000 for x in samples_s)
    if not ms:
        return {"n": 0}
    pick = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]  # noqa: E731 - nearest-rank
    return {"n": len(ms), "p50": round(pick(0.50), 3), "p99": round(pick(0.99), 3),
            "mean": round(statistics.fmean(ms), 3), "max": round(ms[-1], 3)}


def bench_append(store: RedisEventStore, n: int) -> dict:
    gid = f"bench{uuid.uuid4().hex[:12]}"
    meta = {"game": "bench", "status": "active", "seats": "[]", "rules_version": "bench"}
    head = store.create(gid, meta, [{"type": "BenchStarted", "data": {}}], command_id="create",
                        rules_version="bench")[-1]["hash"]
    samples, version = [], 1
    log(f"append: {n} single-event appends")
    for i in range(n):
        t = time.perf_counter()
        head = store.append(gid, version, [{"type": "Ticked", "data": {"n": i}}], expected_head=head, seat=0,
                            command_id=f"c{i}", command={"type": "tick"}, rules_version="bench")[-1]["hash"]
        samples.append(time.perf_counter() - t)
        version += 1
    return {"appends": n, "appends_per_s": round(n / sum(samples), 1), "latency_ms": percentiles(samples)}


def bench_replay(service: GameService, game: Game, play: BotGame) -> dict:
    log(f"replay: playing one {game.id} bot game to the end")
    gid = play(service, game)
    envs = list(service.store.iter_all(gid))
    events = [{"type": e["type"], "data": e["data"]} for e in envs if e["type"] not in PLATFORM_EVENTS]
    lines = [canonical_json(e) for e in envs]
    rounds, started = 0, time.perf_counter()
    while rounds < 3 or time.perf_counter() - started < 1.0:
        fold(game, json.loads(json.dumps(events)))  # a fresh copy: evolve may mutate what it is given
        rounds += 1
    fold_s = (time.perf_counter() - started) / rounds
    log("replay: verifying the export")
    started = time.perf_counter()
    verdict = verify(lines)
    verify_s = time.perf_counter() - started
    return {"game": game.id, "events": len(envs), "fold_events_per_s": round(len(events) / fold_s),
            "verify_events_per_s": round(len(envs) / verify_s), "verify_ok": verdict.ok}


class _Client(threading.Thread):
    """Plays human seats of fresh games in a loop until ``deadline``."""

    def __init__(self, host: str, port: int, game: Game, deadline: float, seed: int):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection(host, port, timeout=30)
        self.game, self.deadline, self.rng = game, deadline, random.Random(seed)
        self.posts: list[float] = []
        self.requests = self.refused = self.games = 0
        self.error: str | None = None

    def call(self, method: str, path: str, token: str | None = None, body: dict | None = None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        resp = self.conn.getresponse()
        data = resp.read()
        self.requests += 1
        return resp.status, json.loads(data) if data else {}

    def new_game(self) -> tuple[str, dict[int, str]]:
        seats = [{"name": f"p{i}"} for i in range(self.game.min_players)]
        status, body = self.call("POST", "/v1/games", body={"game": self.game.id, "seats": seats, "options": {}})
        if status != 201:
            raise RuntimeError(f"create answered {status}: {body}")
        self.games += 1
        return body["id"], {s["seat"]: s["token"] for s in body["seats"]}

    def run(self) -> None:
        try:
            gid, tokens = self.new_game()
            while time.monotonic() < self.deadline:
                _, summary = self.call("GET", f"/v1/games/{gid}", tokens[0])
                active = summary.get("active_seats") or []
                legal = self.call("GET", f"/v1/games/{gid}/legal-actions", tokens[active[0]])[1] if active else {}
                if not legal.get("commands"):
                    gid, tokens = self.new_game()
                    continue
                body = {"expected_version": legal["version"], "command": self.rng.choice(legal["commands"])}
                t = time.perf_counter()
                status, _ = self.call("POST", f"/v1/games/{gid}/actions", tokens[active[0]], body)
                if status == 201:
                    self.posts.append(time.perf_counter() - t)
                else:
                    self.refused += 1
        except Exception as exc:  # reported in the result rather than lost in a thread
            self.error = repr(exc)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bench_http(redis_url: str, prefix: str, game: Game, seconds: float, clients: int, api: ApiStarter,
               processes: int = 2) -> dict:
    port = _free_port()
    log(f"http: gunicorn ({processes} processes x 8 threads) on 127.0.0.1:{port}")
    proc = api(f"127.0.0.1:{port}", processes,
               {"REDIS_URL": redis_url, "DELVE_PREFIX": prefix, "DELVE_RATE_LIMIT": "0", "DELVE_ADMIN_TOKEN": ""})
    try:
        _wait_port(port, proc)
        log(f"http: {clients} clients playing {game.id} for {seconds:.0f} s")
        deadline = time.monotonic() + seconds
        threads = [_Client("127.0.0.1", port, game, deadline, seed=i) for i in range(clients)]
        started = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - started
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    posts = [x for t in threads for x in t.posts]
    return {"game": game.id, "clients": clients, "server_processes": processes, "seconds": round(elapsed, 2),
            "actions": len(posts), "actions_per_s": round(len(posts) / elapsed, 1),
            "requests_per_s": round(sum(t.requests for t in threads) / elapsed, 1),
            "refused": sum(t.refused for t in threads), "games_started": sum(t.games for t in threads),
            "post_ms": percentiles(posts), "errors": [t.error for t in threads if t.error]}


def _wait_port(port: int, proc: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited: {proc.stderr.read().decode(errors='replace')[-2000:]}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer /healthz in time")


def run(game: Game, *, redis_url: str, embedded: bool, api: ApiStarter, play: BotGame, seconds: float = 10.0,
        clients: int = 4, appends: int = 2000) -> dict:
    """Every section against ``redis_url`` (``embedded``: a private one), under a throwaway prefix."""
    store = RedisEventStore(redis.Redis.from_url(redis_url), prefix=f"bench{uuid.uuid4().hex[:8]}")
    service = GameService(store)
    try:
        result = {
            "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "machine": {"python": platform.python_version(), "platform": platform.platform(),
                        "cpus": os.cpu_count(), "redis": store.server_version(),
                        "redis_source": "embedded" if embedded else "REDIS_URL"},
            "append": bench_append(store, appends),
            "replay": bench_replay(service, game, play),
            "http": bench_http(redis_url, store.prefix, game, seconds, clients, api),
        }
    finally:
        store.purge()
    log("done")
    return result
