"""`delve serve` end to end: embedded Redis, gunicorn, a worker and the reactor; Ctrl-C stops them all."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from domain import registry

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base: str, method: str, path: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body else None,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


def wait_for(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def children_of(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split()[2] == "Z")


@pytest.mark.slow
@pytest.mark.skipif("saboteur" not in registry.available(), reason="needs a real game for the serve processes")
def test_serve_runs_everything_and_ctrl_c_stops_everything(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL", "DELVE_ADMIN_TOKEN")}
    env["PYTHONPATH"] = str(ROOT)
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "delve.cli", "--log-level", "WARNING", "serve", "--port",
                                 str(port), "--data-dir", str(tmp_path), "--workers", "1", "--web-workers", "1"],
                                env=env, cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    kids = []
    try:
        def up():
            assert proc.poll() is None, "serve exited early:\n" + log.read_text()
            return "Ctrl-C stops everything" in log.read_text() and log.read_text()

        text = wait_for(up, 60, "serve to come up")
        assert f"data in {tmp_path / 'redis'}" in text
        assert f"Admin token: in {tmp_path / 'admin-token'}" in text
        kids = children_of(proc.pid)
        assert len(kids) == 4  # redis, worker, reactor, gunicorn

        seats = [{"name": n, "bot": "random"} for n in ("a", "b", "c")]
        created = call(base, "POST", "/v1/games", {"game": "saboteur", "seats": seats, "options": {}})
        wait_for(lambda: call(base, "GET", f"/v1/games/{created['id']}")["version"] > created["version"] + 3, 30,
                 "the worker to play bot turns")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    rest = log.read_text()
    assert proc.returncode == 0, rest
    assert rest.rstrip().endswith("stopped")
    assert not [pid for pid in kids if alive(pid)]
    assert list((tmp_path / "redis").glob("appendonly*")), "AOF persistence was off"
