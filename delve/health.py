"""`delve healthcheck`: is this container's process doing its job? For container health checks.

Each answer is None (healthy) or the reason it is not, so the check's output says what is wrong:
- api: the API answers /healthz on its port;
- worker: an rq worker of this host is registered (its registration expires unless the worker
  keeps beating: a hung or dead worker drops out);
- reactor: the reactor loop of this host has stepped within the last ``stale_s`` seconds (it
  touches a heartbeat file each step, and a quiet step takes at most a second or two).

Named no process, the check asks the container which one it runs (``own_process``: PID 1's
command line), so the image's one HEALTHCHECK fits the API, a worker and the reactor alike.
"""
from __future__ import annotations

import socket
import time
import urllib.error
import urllib.request
from pathlib import Path


def api(port: int) -> str | None:
    url = f"http://127.0.0.1:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=3) as resp:
            return None if resp.status == 200 else f"{url} answered {resp.status}"
    except (urllib.error.URLError, OSError) as exc:
        return f"{url} did not answer: {exc}"


def worker() -> str | None:
    from rq import Worker

    from application.runtime import rq_redis_url, redis_client

    host = socket.gethostname()
    workers = Worker.all(connection=redis_client(rq_redis_url(), socket_timeout=3))
    if any(w.hostname == host for w in workers):
        return None
    return f"no rq worker of host {host} is registered ({len(workers)} of other hosts are)"


def reactor(stale_s: float = 30.0) -> str | None:
    from workers.loop import heartbeat_path

    beat = heartbeat_path("reactor")
    try:
        age = time.time() - beat.stat().st_mtime
    except FileNotFoundError:
        return f"no reactor of this host has stepped yet ({beat} is missing)"
    if age > stale_s:
        return f"the reactor of this host last stepped {age:.0f} s ago ({beat}): stuck or dead"
    return None


def own_process(argv: list[str] | None = None) -> tuple[str, int] | None:
    """``(process, API port)`` of the command this container runs (PID 1's ``argv``): gunicorn is
    the API (its ``--bind``/``-b`` port, else 8000), ``delve worker`` and ``delve reactor`` the
    others; None when it is none of them."""
    if argv is None:
        raw = Path("/proc/1/cmdline").read_bytes()
        argv = [a.decode(errors="replace") for a in raw.split(b"\0") if a]
    names = [Path(a).name for a in argv]
    if any(n.startswith("gunicorn") for n in names):
        port = 8000
        for flag, value in zip(argv, argv[1:]):
            if flag in ("--bind", "-b") and value.rpartition(":")[2].isdigit():
                port = int(value.rpartition(":")[2])
        return "api", port
    for process in ("worker", "reactor"):
        if process in argv and any(n.startswith("delve") for n in names):
            return process, 8000
    return None
