"""Real processes for the fault suite: a private Redis (AOF, fsync always), the API under
gunicorn, an HTTP client, and a player that plays the tiny game to the end over HTTP.

Nothing here touches a shared Redis: every fault test starts its own.
"""
from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from localredis.server import EmbeddedRedis, _free_port
from delve.cli import gunicorn_argv
from delve.supervise import child_env
import settings

ROOT = Path(__file__).resolve().parents[2]


class Redis:
    """A private redis-server that a test may kill, restart, or restart from an older AOF."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.port = _free_port()
        self.server = EmbeddedRedis(data_dir, persist=True, port=self.port, args=["--appendfsync", "always"])
        self.url = self.server.start()

    @property
    def aof(self) -> Path:
        return self.data_dir / "appendonly.aof"

    def kill(self) -> None:
        """A power loss: SIGKILL, no shutdown save."""
        self.server.proc.kill()
        self.server.proc.wait()

    def start(self) -> None:
        self.server = EmbeddedRedis(self.data_dir, persist=True, port=self.port, args=["--appendfsync", "always"])
        self.server.start()

    def restore(self, aof_copy: Path) -> None:
        """Kill Redis and restart it from an older copy of its AOF (what `everysec` or a lagging replica gives)."""
        self.kill()
        shutil.copy(aof_copy, self.aof)
        self.start()

    def stop(self) -> None:
        self.server.stop()


@contextmanager
def api(redis_url: str, *, workers: int = 1, env: dict[str, str] | None = None) -> Iterator["Client"]:
    """The API under gunicorn (as `delve serve` runs it), its output in a log file next to nothing shared."""
    port = _free_port()
    argv = gunicorn_argv(f"127.0.0.1:{port}", workers, access_log=False)
    argv[-1] = "tests.faults.app:create_app()"
    proc = subprocess.Popen(argv, env=child_env(**{"REDIS_URL": redis_url, **settings.UNLIMITED,
                                                   "DELVE_ADMIN_TOKEN": "fault-admin", **(env or {})}),
                            cwd=ROOT, start_new_session=True)
    client = Client(port)
    try:
        client.wait_healthy(proc)
        yield client
    finally:
        stop_group(proc)


def stop_group(proc: subprocess.Popen, timeout: float = 30.0) -> None:
    """SIGTERM a process started in its own session (and its group), SIGKILL if it lingers."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


class Client:
    def __init__(self, port: int):
        self.port = port

    def call(self, method: str, path: str, body: object = None, token: str | None = None,
             headers: dict[str, str] | None = None, timeout: float = 10.0) -> tuple[int, dict, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        hdrs = {"Content-Type": "application/json", **(headers or {})}
        if token:
            hdrs["Authorization"] = f"Bearer {token}"
        try:
            conn.request(method, path, body=None if body is None else json.dumps(body), headers=hdrs)
            resp = conn.getresponse()
            raw = resp.read()
            return resp.status, json.loads(raw) if raw[:1] in (b"{", b"[") else {"raw": raw.decode()}, \
                dict(resp.getheaders())
        finally:
            conn.close()

    def wait_healthy(self, proc: subprocess.Popen, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"the API exited with {proc.returncode} while starting")
            try:
                if self.call("GET", "/healthz", timeout=2)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the API did not answer /healthz")

    def create_tiny(self, turns: int, seats: int = 2) -> tuple[str, list[str]]:
        status, body, _ = self.call("POST", "/v1/games", {"game": "tiny", "seats": [{"name": f"p{i}"} for i in
                                                                                  range(seats)],
                                                          "options": {"turns": turns}})
        assert status == 201, body
        return body["id"], [s["token"] for s in body["seats"]]

    def create(self, game: str, seats: int) -> tuple[str, list[str]]:
        status, body, _ = self.call("POST", "/v1/games", {"game": game, "seats": [{"name": f"p{i}"} for i in
                                                                                  range(seats)]})
        assert status == 201, body
        return body["id"], [s["token"] for s in body["seats"]]

    def move(self, gid: str, tokens: list[str], key: str | None = None) -> tuple[int, dict]:
        """The active seat plays its last legal command at the version it was listed at."""
        game = self.call("GET", f"/v1/games/{gid}")[1]
        seat = game["active_seats"][0]
        legal = self.call("GET", f"/v1/games/{gid}/legal-actions", token=tokens[seat])[1]
        status, body, _ = self.call("POST", f"/v1/games/{gid}/actions",
                                    {"expected_version": legal["version"], "command": legal["commands"][-1]},
                                    token=tokens[seat], headers={"Idempotency-Key": key} if key else None)
        return status, body

    def play_to_end(self, gid: str, tokens: list[str], max_moves: int = 200) -> int:
        """Moves played until the rules say the game is over; every one must be accepted."""
        for n in range(max_moves):
            if not self.call("GET", f"/v1/games/{gid}")[1]["active_seats"]:
                return n
            status, body = self.move(gid, tokens)
            assert status == 201, body
        raise AssertionError(f"game {gid} still active after {max_moves} moves")

    def export(self, gid: str) -> list[str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.request("GET", f"/v1/games/{gid}/export", headers={"Authorization": "Bearer fault-admin"})
        lines = conn.getresponse().read().decode().splitlines()
        conn.close()
        return lines
