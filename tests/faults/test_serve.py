"""Issue 7, item 2: `delve serve`'s supervisor stopped everything, the API included, when
a worker died (a 3-second Redis restart was enough). Now it starts the dead child again."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from delve.supervise import Supervisor, child_env
from localredis.server import _free_port
from tests.faults.support import ROOT, Client, Redis, stop_group
from tests.workers.test_worker_crash import wait_for

pytestmark = pytest.mark.slow


def test_the_supervisor_restarts_a_dying_child_with_growing_pauses():
    sup = Supervisor(child_env())
    sup.spawn("crashes", [sys.executable, "-c", "raise SystemExit(3)"])
    sup.spawn("lives", [sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        restarts = []
        deadline = time.monotonic() + 4
        while time.monotonic() < deadline:
            restarts += [(time.monotonic(), name, code) for name, code in sup.revive()]
            time.sleep(0.05)
        assert {name for _, name, _ in restarts} == {"crashes"} and all(code == 3 for *_, code in restarts)
        gaps = [b[0] - a[0] for a, b in zip(restarts, restarts[1:])]
        assert 2 <= len(restarts) <= 4 and gaps == sorted(gaps), gaps  # 0.5, 1, 2 s ...
        assert sup.children[1].proc.poll() is None
    finally:
        sup.stop()


def test_serve_keeps_the_api_up_through_a_redis_restart_and_a_dead_worker(tmp_path):
    redis = Redis(tmp_path / "redis")
    port = _free_port()
    env = child_env(REDIS_URL=redis.url, DELVE_ADMIN_TOKEN="fault-admin")
    serve = subprocess.Popen([sys.executable, "-m", "delve.cli", "serve", "--port", str(port), "--workers", "1",
                              "--web-workers", "1", "--data-dir", str(tmp_path / "data")], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    api = Client(port)
    try:
        api.wait_healthy(serve, timeout=60)

        def worker_pids() -> list[int]:
            rows = subprocess.run(["ps", "-o", "pid=,args=", "--ppid", str(serve.pid)], capture_output=True,
                                  text=True).stdout.splitlines()
            return [int(row.split()[0]) for row in rows if row.rstrip().endswith(" worker")]

        first = worker_pids()
        assert len(first) == 1
        redis.kill()
        time.sleep(3)
        redis.start()
        os.kill(first[0], signal.SIGKILL)
        wait_for(lambda: worker_pids() and worker_pids() != first, 20, "a new worker")
        assert serve.poll() is None and api.call("GET", "/healthz")[0] == 200
        wait_for(lambda: api.call("GET", "/readyz")[0] == 200, 20, "the API to reach Redis again")
    finally:
        stop_group(serve)
        redis.stop()
