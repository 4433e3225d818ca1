"""Child processes of `delve serve` and `delve play`: start them, notice one dying, stop them all.

Children run in their own session, so a Ctrl-C in the terminal reaches only
the parent, which then stops them in reverse start order (the web server
before the reactor before the workers) and stops Redis last. A child that
dies is started again (``revive``), after a pause that grows while it keeps
dying: a worker lost to a Redis restart never takes the API down with it.
The embedded Redis is supervised the same way (``watch_redis``): started
again on the same port from its own data directory, so its AOF is kept.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from localredis.server import EmbeddedRedis


MIN_PAUSE, MAX_PAUSE, STEADY = 0.5, 30.0, 60.0  # restart pauses; a child up this long is healthy again


@dataclass
class Child:
    name: str
    argv: list[str]
    proc: subprocess.Popen
    started: float
    pause: float = MIN_PAUSE
    due: float | None = None  # when a dead child is started again


@dataclass
class RedisChild:
    """The embedded redis-server, watched like a child (``EmbeddedRedis.start`` restarts it in place)."""
    server: EmbeddedRedis
    started: float
    pause: float | None = None  # none yet: its first restart waits MIN_PAUSE
    due: float | None = None


class Supervisor:
    def __init__(self, env: dict[str, str]):
        self.env = env
        self.children: list[Child] = []
        self.redis: RedisChild | None = None

    def watch_redis(self, server: EmbeddedRedis) -> None:
        self.redis = RedisChild(server, time.monotonic())

    def revive_redis(self) -> str | None:
        """Start the embedded Redis again if it died, after its pause; returns what happened, for the log."""
        c = self.redis
        if c is None or c.server.proc is None or c.server.proc.poll() is None:
            return None
        now = time.monotonic()
        if c.due is None:
            c.pause = MIN_PAUSE if c.pause is None or now - c.started > STEADY else min(c.pause * 2, MAX_PAUSE)
            c.due = now + c.pause
            return (f"redis-server exited with code {c.server.proc.returncode}; starting it again in {c.pause:.1f}s "
                    f"(port {c.server.port}, AOF in {c.server.data_dir})")
        if now < c.due:
            return None
        c.started, c.due = now, None
        try:
            c.server.start()
        except RuntimeError as exc:
            return f"redis-server did not start again ({exc}); trying again"
        return f"redis-server started again on port {c.server.port}"

    def spawn(self, name: str, argv: list[str]) -> subprocess.Popen:
        proc = subprocess.Popen(argv, env=self.env, start_new_session=True)
        self.children.append(Child(name, argv, proc, time.monotonic()))
        return proc

    def revive(self) -> list[tuple[str, int]]:
        """Start again the children that died, each after its pause; returns (name, exit code) of those started."""
        now, started = time.monotonic(), []
        for c in self.children:
            if c.proc.poll() is None:
                continue
            if c.due is None:
                c.pause = MIN_PAUSE if c.pause is None or now - c.started > STEADY else min(c.pause * 2, MAX_PAUSE)
                c.due = now + c.pause
            if now >= c.due:
                started.append((c.name, c.proc.returncode))
                c.proc = subprocess.Popen(c.argv, env=self.env, start_new_session=True)
                c.started, c.due = now, None
        return started

    def spawn_cli(self, name: str, *args: str) -> subprocess.Popen:
        """Another ``delve`` command, run by this interpreter."""
        return self.spawn(name, [sys.executable, "-m", "delve.cli", *args])

    def exited(self) -> tuple[str, int] | None:
        """The first child that has exited, with its exit code."""
        for c in self.children:
            if c.proc.poll() is not None:
                return c.name, c.proc.returncode
        return None

    def stop(self, timeout: float = 20.0) -> None:
        for proc in reversed([c.proc for c in self.children]):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        self.children.clear()


@contextmanager
def embedded_redis(data_dir: Path | None, persist: bool) -> Iterator[EmbeddedRedis]:
    """A private redis-server, stopped last (it runs in its own session, so the
    terminal's Ctrl-C reaches the workers and the API, not the store)."""
    server = EmbeddedRedis(data_dir, persist=persist)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def child_env(**extra: str) -> dict[str, str]:
    env = {**os.environ, **extra}
    root = str(Path(__file__).resolve().parents[1])  # a source checkout works without `pip install`
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env
