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
        redis_url = text.split("REDIS_URL=", 1)[1].split()[0]
        for process in ("api", "worker", "reactor"):  # what the containers' health checks run
            def healthy():
                check = subprocess.run([sys.executable, "-m", "delve.cli", "healthcheck", process, "--port", str(port)],
                                       env={**env, "REDIS_URL": redis_url}, capture_output=True, text=True, timeout=60)
                return check.returncode == 0 and f"{process}: healthy" in check.stdout

            wait_for(healthy, 30, f"the {process} health check to pass")

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


def _serve_once(tmp_path: Path, port: int, data_dir: Path, **settings: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL", "DELVE_ADMIN_TOKEN")}
    env["PYTHONPATH"] = str(ROOT)
    env.update(settings)
    return subprocess.run([sys.executable, "-m", "delve.cli", "serve", "--port", str(port), "--data-dir",
                           str(data_dir)], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60)


def test_a_second_server_on_the_same_data_names_the_holder_and_starts_nothing(tmp_path):
    """The data dir's lock is a real flock held here, as a running `delve serve` holds it."""
    from delve.preflight import data_dir_lock

    data = tmp_path / "data"
    with data_dir_lock(data):
        done = _serve_once(tmp_path, free_port(), data)
    assert done.returncode == 1
    assert f"another `delve serve` (PID {os.getpid()}) is using the data dir {data}" in done.stderr
    assert not (data / "redis").exists(), "the second server started an embedded Redis on the same data"
    assert "Delve is up" not in done.stdout


def test_a_taken_port_is_named_before_anything_starts(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _serve_once(tmp_path, port, tmp_path / "data")
    assert done.returncode == 1
    assert f"port {port} on 127.0.0.1 is already in use" in done.stderr and "--port" in done.stderr
    assert not (tmp_path / "data" / "redis").exists()


def test_a_bad_setting_is_named_before_anything_starts(tmp_path):
    """A value a setting cannot take stopped a gunicorn worker (a traceback) only after Redis, the
    workers and the reactor had started; a negative rate limit was taken as none at all."""
    done = _serve_once(tmp_path, free_port(), tmp_path / "data", DELVE_RATE_LIMIT="-5", DELVE_SNAPSHOT_EVERY="0")
    assert done.returncode == 1
    assert "DELVE_RATE_LIMIT='-5' is not valid (expected a whole number from 0)" in done.stderr
    assert "DELVE_SNAPSHOT_EVERY='0' is not valid (expected a whole number from 1)" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "data").exists() and "Redis:" not in done.stdout


def test_a_bad_setting_read_on_the_way_is_an_error_not_a_traceback(tmp_path):
    done = subprocess.run([sys.executable, "-m", "delve.cli", "verify", str(tmp_path / "none.ndjson")], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "DELVE_LOG_LEVEL": "loud"})
    assert done.returncode == 1
    assert done.stderr.startswith("Error: DELVE_LOG_LEVEL='loud' is not valid (expected one of DEBUG, INFO")
    assert "Traceback" not in done.stderr


def test_waiting_for_replicas_the_embedded_redis_cannot_have_is_refused(tmp_path):
    """With the embedded Redis (no replicas) every create and move answered 503 replication_unconfirmed
    while /readyz said ready."""
    done = _serve_once(tmp_path, free_port(), tmp_path / "data", DELVE_WAIT_REPLICAS="1")
    assert done.returncode == 1
    assert "DELVE_WAIT_REPLICAS=1 makes every write wait for Redis replicas, but the embedded Redis has none" \
        in done.stderr
    assert not (tmp_path / "data" / "redis").exists()


def test_a_redis_short_of_the_replicas_asked_for_is_named(redis_url, monkeypatch):
    from delve.cli import _replicas_short

    monkeypatch.delenv("DELVE_WAIT_REPLICAS_MIN", raising=False)
    assert "has 0 connected replica(s)" in _replicas_short(redis_url, 1)
    monkeypatch.setenv("DELVE_WAIT_REPLICAS_MIN", "0")
    assert _replicas_short(redis_url, 1) is None


def test_the_lock_is_released_when_its_holder_ends(tmp_path):
    from delve.preflight import data_dir_lock
    from errors import Busy

    with data_dir_lock(tmp_path) as path:
        assert path.read_text().strip() == str(os.getpid())
        with pytest.raises(Busy):
            with data_dir_lock(tmp_path):
                pass
    with data_dir_lock(tmp_path):
        pass


def test_a_missing_module_of_the_web_stack_is_named_not_guessed():
    """gunicorn's gevent worker imports `packaging` without declaring it; an install that lacks it
    is told so before anything starts (here the import is blocked the way a missing module fails)."""
    code = ("import sys; sys.modules['packaging'] = None; sys.modules['packaging.version'] = None\n"
            "from delve.preflight import web_stack_problem; print(web_stack_problem())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout
    assert "gunicorn's gevent worker needs a module this installation lacks" in out and "packaging" in out
    assert "Reinstall delve" in out


def test_healthchecks_say_what_is_missing(tmp_path, redis_url):
    """Against a store no worker or reactor serves, and a port nothing listens on: exit 1, and why."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REDIS_URL": redis_url, "TMPDIR": str(tmp_path)}
    for process, reason in (("api", "did not answer"), ("reactor", "no reactor of this host has stepped")):
        check = subprocess.run([sys.executable, "-m", "delve.cli", "healthcheck", process, "--port", str(free_port())],
                               env=env, capture_output=True, text=True, timeout=60)
        assert check.returncode == 1 and reason in check.stderr, (process, check.stderr)


def test_an_unnamed_healthcheck_finds_its_containers_process():
    """The image's one HEALTHCHECK names no process: PID 1's command says which to check."""
    from delve.health import own_process

    assert own_process(["/usr/local/bin/python3.11", "/usr/local/bin/gunicorn", "--bind", "0.0.0.0:8123",
                        "--workers", "2", "server.app:create_app()"]) == ("api", 8123)
    assert own_process(["/usr/local/bin/gunicorn", "server.app:create_app()"]) == ("api", 8000)
    assert own_process(["/usr/local/bin/python3.11", "/usr/local/bin/delve", "worker"]) == ("worker", 8000)
    assert own_process(["/usr/local/bin/delve", "reactor"]) == ("reactor", 8000)
    assert own_process(["/bin/sh", "-c", "sleep infinity"]) is None
    assert own_process(["/usr/bin/python3", "worker.py"]) is None  # "worker", but not delve's
