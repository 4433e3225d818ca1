"""`delve healthcheck`: is this container's process doing its job? For container health checks.

Each answer is None (healthy) or the reason it is not, so the check's output says what is wrong:
- api: the API answers /healthz on its port;
- worker: an rq worker of this host is registered (its registration expires unless the worker
  keeps beating: a hung or dead worker drops out);
- reactor: the reactor loop of this host has stepped within the last ``stale_s`` seconds (it
  touches a heartbeat file each step, and a quiet step takes at most a second or two).
"""
from __future__ import annotations

import socket
import time
import urllib.error
import urllib.request


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
