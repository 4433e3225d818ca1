"""A Delve API (or the bare Flask baseline) under gunicorn for the HTTP benchmarks: started by the
caller's ``ApiStarter`` (``delve bench`` passes one), waited for until it answers, stopped on exit,
and given a game to read. Shared by ``bench`` and ``streams``."""
from __future__ import annotations

import collections
import http.client
import json
import subprocess
import threading
import time
from typing import Callable

from domain.core import Game
from localredis.server import _free_port

ApiStarter = Callable[[str, int, dict[str, str], str], subprocess.Popen]
"""``(bind, processes, env overrides, wsgi app) -> the gunicorn process``, quiet, its stderr a pipe."""
BARE_APP = "benchmarks.bare:app"
DELVE_APP = "server.app:create_app()"


def wait_port(port: int, proc: subprocess.Popen, path: str, timeout: float = 30.0) -> None:
    """Until ``path`` answers 200 on ``port``; an error with its stderr's end if ``proc`` exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited: {proc.stderr.read().decode(errors='replace')[-2000:]}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer {path} in time")


class Served:
    """``with Served(api, app, env, path) as port:`` a gunicorn of ``app``, stopped on exit."""

    def __init__(self, api: ApiStarter, app: str, env: dict[str, str], ready_path: str, processes: int):
        self.api, self.app, self.env, self.ready_path, self.processes = api, app, env, ready_path, processes

    def __enter__(self) -> int:
        self.port = _free_port()
        self.proc = self.api(f"127.0.0.1:{self.port}", self.processes, self.env, self.app)
        try:
            wait_port(self.port, self.proc, self.ready_path)
        except Exception:
            self.__exit__()
            raise
        # From now on read its stderr as it comes (the last lines kept in ``tail``): a pipe nobody
        # reads fills, and then a worker's next log line blocks it, loop and all.
        self.tail: collections.deque[bytes] = collections.deque(maxlen=50)
        threading.Thread(target=lambda: self.tail.extend(iter(self.proc.stderr.readline, b"")), daemon=True).start()
        return self.port

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=20)


def create_game(port: int, game: Game, seats: int) -> tuple[str, dict[int, str]]:
    """A game of ``game`` created over HTTP: its id, and the tokens of seat 0 and of the seat to act."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    body = json.dumps({"game": game.id, "seats": [{"name": f"p{i}"} for i in range(seats)], "options": {}})
    conn.request("POST", "/v1/games", body=body, headers={"Content-Type": "application/json"})
    created = json.loads(conn.getresponse().read())
    conn.request("GET", f"/v1/games/{created['id']}", headers={"Authorization": f"Bearer {created['seats'][0]['token']}"})
    active = json.loads(conn.getresponse().read())["active_seats"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    return created["id"], {"seat0": tokens[0], "active": tokens[active[0]]}
