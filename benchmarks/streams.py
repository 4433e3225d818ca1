"""Many idle event streams on one API process: memory, Redis connections, reads beside them, fan-out.

One gunicorn process (gevent, as `delve serve` runs it) serves ``n`` open streams of one
game, half SSE and half NDJSON, held by a few client processes on raw non-blocking
sockets (``selectors``: a stream costs the client a socket and a buffer, not a thread).
Then, while they are open:

- ``memory``: the API process's resident memory before and after, per stream;
- ``redis``: the API process's connections to Redis (its sockets to Redis's port, read
  from ``/proc``) before the streams, while they idle and after the move, beside the
  count Redis itself gives (``CLIENT LIST``) and how many of those block in an XREAD;
- ``reads_while_open``: ``GET /healthz`` and a seat's ``GET /v1/games/{id}``, one
  connection, one request after another: the latency a client sees beside the streams;
- ``fanout``: one move (POST an action); each client process notes when each of its
  streams received the move's event (``time.monotonic``, one clock for every process on
  the machine): the latency from the POST to each stream, p50 and p99. It includes the
  client processes' own time to read ``n`` sockets, on the same machine.

Nothing here asserts a time; ``tests/api/test_streams_at_scale.py`` runs it small and checks
only what must hold at any size (every stream gets the move, the Redis connections do not grow).
"""
from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import resource
import selectors
import socket
import time
from pathlib import Path
from typing import Callable

import redis

from benchmarks.scaling import _with_children
from benchmarks.served import DELVE_APP, ApiStarter, Served, create_game
from domain.core import Game
import settings

TARGETS = {"streams": 10_000, "fanout_p99_ms": 100.0}
HOLDERS = 2  # client processes holding the streams
MARKS = 10  # a move's events a spectator may not see all of: the first one it sees counts
WINDOW = 200  # streams a client process has asked for and not yet seen answered
SSE, NDJSON = "text/event-stream", "application/x-ndjson"


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def redis_sockets(pid: int, redis_port: int) -> int:
    """TCP connections of process ``pid`` to ``redis_port`` (its fds' socket inodes in ``/proc/net/tcp*``)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    count = 0
    for table in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            remote_port, state, inode = int(cols[2].rsplit(":", 1)[1], 16), cols[3], cols[9]
            if inode in inodes and remote_port == redis_port and state == "01":  # 01: ESTABLISHED
                count += 1
    return count


def _percentiles(ms: list[float]) -> dict:
    ms = sorted(ms)
    if not ms:
        return {"n": 0}
    pick = lambda q: round(ms[min(len(ms) - 1, int(q * len(ms)))], 2)  # noqa: E731 - nearest-rank
    return {"n": len(ms), "p50": pick(0.50), "p99": pick(0.99), "max": round(ms[-1], 2)}


# -- the client processes --------------------------------------------------------------------


def _hold(port: int, path: str, accepts: list[str], conn) -> None:
    """Open one stream per entry of ``accepts``, report when all have answered, then note when each
    receives the event whose marker the parent sends, and report those times."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sel = selectors.DefaultSelector()
    buffers: dict[int, bytearray] = {}
    socks, pending, errors = [], set(), 0

    def answered(key) -> None:
        """Read what came on one stream; it is open once its headers and first frame arrived."""
        nonlocal errors
        fd = key.fd
        data = _recv(key.fileobj)
        if data is None:
            sel.unregister(key.fileobj)
            errors += fd in pending
            pending.discard(fd)
            return
        buf = buffers[fd]
        buf += data
        if fd in pending and b"\r\n\r\n" in buf and (b"retry:" in buf or b"gameFull" in buf):
            pending.discard(fd)
            errors += not buf.startswith(b"HTTP/1.1 200")
        del buf[:-256]

    deadline = time.monotonic() + 120 + len(accepts) / 20
    for accept in accepts:  # at most WINDOW streams not yet answered: opened as fast as the server takes them
        while len(pending) >= WINDOW and time.monotonic() < deadline:
            for key, _ in sel.select(1.0):
                answered(key)
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=60)
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: {accept}\r\n\r\n".encode())
        except OSError:
            errors += 1
            continue
        s.setblocking(False)
        socks.append(s)
        buffers[s.fileno()] = bytearray()
        pending.add(s.fileno())
        sel.register(s, selectors.EVENT_READ)
    while pending and time.monotonic() < deadline:
        for key, _ in sel.select(1.0):
            answered(key)
    conn.send({"open": len(socks) - errors - len(pending), "errors": errors + len(pending)})
    markers = conn.recv()  # the move's seq as each kind of stream shows it
    got: dict[int, float] = {}
    open_fds = {key.fd for key in sel.get_map().values()}
    deadline = time.monotonic() + 120
    while len(got) < len(open_fds) and time.monotonic() < deadline:
        for key, _ in sel.select(1.0):
            data = _recv(key.fileobj)
            if not data:
                sel.unregister(key.fileobj)
                continue
            buf = buffers[key.fd]
            buf += data
            if key.fd not in got and any(m.encode() in buf for m in markers):
                got[key.fd] = time.monotonic()
            del buf[:-256]
    conn.send({"received": sorted(got.values()), "missed": len(open_fds) - len(got)})
    conn.recv()  # hold the streams open until the parent has counted what it needs
    for s in socks:
        s.close()


def _recv(sock: socket.socket) -> bytes | None:
    try:
        return sock.recv(65536) or None
    except BlockingIOError:
        return b""
    except OSError:
        return None


# -- the run ------------------------------------------------------------------------------------


def _call(port: int, method: str, path: str, token: str | None = None, body: dict | None = None) -> tuple[int, dict]:
    """One request on a new connection (gunicorn closes one idle past its keep-alive)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        return _request(conn, method, path, token, body)
    finally:
        conn.close()


def _request(conn: http.client.HTTPConnection, method: str, path: str, token: str | None = None,
             body: dict | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    resp = conn.getresponse()
    return resp.status, json.loads(resp.read() or b"{}")


def _latencies(port: int, path: str, token: str | None, n: int) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    ms, bad = [], 0
    for _ in range(n):
        t = time.perf_counter()
        status, _body = _request(conn, "GET", path, token)
        ms.append((time.perf_counter() - t) * 1000)
        bad += status != 200
    conn.close()
    return {**_percentiles(ms), "non_200": bad}


def run(api: ApiStarter, redis_url: str, prefix: str, game: Game, seats: int, streams: int,
        probes: int = 200, holders: int = HOLDERS, log: Callable[[str], None] = print,
        env: dict[str, str] | None = None) -> dict:
    """``streams`` open streams of one game on one API process (``env``: more settings for it); see the
    module's docstring."""
    env = {"REDIS_URL": redis_url, "DELVE_PREFIX": prefix, **settings.UNLIMITED, "DELVE_ADMIN_TOKEN": "",
           "DELVE_SSE_MAX_STREAMS": str(streams + 100), "DELVE_SSE_MAX_PER_GAME": str(streams + 100),
           "DELVE_SSE_MAX_SECONDS": "3600", **(env or {})}
    r = redis.Redis.from_url(redis_url)
    redis_port = r.connection_pool.connection_kwargs.get("port", 6379)
    ctx = multiprocessing.get_context("spawn")
    served = Served(api, DELVE_APP, env, "/healthz", 1)
    with served as port:
        master = served.proc.pid
        worker = next((p for p in _with_children([master]) if p != master), master)  # gunicorn's one worker
        gid, tokens = create_game(port, game, seats)
        _status, summary = _call(port, "GET", f"/v1/games/{gid}", tokens["seat0"])
        version = summary["version"]
        before = {"rss_kb": rss_kb(worker), "api_redis_connections": redis_sockets(worker, redis_port)}
        path = f"/v1/games/{gid}/events/stream?after={version}"
        kinds = [SSE if i % 2 == 0 else NDJSON for i in range(streams)]
        log(f"streams: opening {streams} streams of one game ({holders} client processes)")
        opened = time.monotonic()
        pipes, procs = [], []
        for h in range(holders):
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=_hold, args=(port, path, kinds[h::holders], theirs), daemon=True)
            proc.start()
            pipes.append(mine)
            procs.append(proc)
        try:
            ready = [p.recv() for p in pipes]
            open_seconds = time.monotonic() - opened
            time.sleep(2.0)  # let the worker settle (greenlets parked, buffers sized)
            idle = {"rss_kb": rss_kb(worker), "api_redis_connections": redis_sockets(worker, redis_port)}
            clients = r.client_list()
            idle["redis_clients_total"] = len(clients)
            idle["redis_blocked_xread"] = sum(1 for c in clients if c.get("cmd") == "xread")
            log(f"streams: {sum(x['open'] for x in ready)} open in {open_seconds:.1f} s; "
                f"probing /healthz and GET /v1/games/{{id}} ({probes} each)")
            probes_out = {"healthz": _latencies(port, "/healthz", None, probes),
                          "game_seat": _latencies(port, f"/v1/games/{gid}", tokens["seat0"], probes)}
            _s, legal = _call(port, "GET", f"/v1/games/{gid}/legal-actions", tokens["active"])
            seq = legal["version"] + 1
            marks = [m for k in range(seq, seq + MARKS) for m in (f"id: {k}\n", f'"seq": {k},', f'"seq": {k}}}')]
            for p in pipes:  # the move's first event a spectator sees (SSE's id, NDJSON's seq)
                p.send(marks)
            log("streams: one move, timing its arrival on every stream")
            sent = time.monotonic()
            status, _body = _call(port, "POST", f"/v1/games/{gid}/actions", tokens["active"],
                                     {"expected_version": legal["version"], "command": legal["commands"][0]})
            got = [p.recv() for p in pipes]
            after = {"rss_kb": rss_kb(worker), "api_redis_connections": redis_sockets(worker, redis_port)}
            for p in pipes:
                p.send("close")
        finally:
            for proc in procs:
                proc.join(30)
                if proc.is_alive():
                    proc.terminate()
    lags = [(t - sent) * 1000 for g in got for t in g["received"]]
    n_open = sum(x["open"] for x in ready)
    fanout = _percentiles(lags)
    per_stream = round((idle["rss_kb"] - before["rss_kb"]) * 1024 / n_open) if n_open else None
    return {
        "streams": streams, "open": n_open, "open_errors": sum(x["errors"] for x in ready),
        "open_seconds": round(open_seconds, 1), "client_processes": holders,
        "memory": {"rss_kb_before": before["rss_kb"], "rss_kb_open": idle["rss_kb"], "rss_kb_after_move":
                   after["rss_kb"], "bytes_per_stream": per_stream},
        "redis": {"api_connections_before": before["api_redis_connections"],
                  "api_connections_idle": idle["api_redis_connections"],
                  "api_connections_after_move": after["api_redis_connections"],
                  "redis_clients_total_idle": idle["redis_clients_total"],
                  "redis_blocked_xread_idle": idle["redis_blocked_xread"]},
        "reads_while_open": probes_out,
        "fanout": {"move_status": status, "received": len(lags), "missed": sum(g["missed"] for g in got),
                   "latency_ms": fanout, "target_p99_ms": TARGETS["fanout_p99_ms"],
                   "target_met": bool(lags) and fanout["p99"] < TARGETS["fanout_p99_ms"] and len(lags) == n_open},
        "target_streams": TARGETS["streams"],
    }
