"""Child processes of `delve serve` and `delve play`: start them, notice one dying, stop them all.

Children run in their own session, so a Ctrl-C in the terminal reaches only
the parent, which then stops them in reverse start order (the web server
before the reactor before the workers) and stops Redis last.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from events.embedded import EmbeddedRedis


class Supervisor:
    def __init__(self, env: dict[str, str]):
        self.env = env
        self.children: list[tuple[str, subprocess.Popen]] = []

    def spawn(self, name: str, argv: list[str]) -> subprocess.Popen:
        proc = subprocess.Popen(argv, env=self.env, start_new_session=True)
        self.children.append((name, proc))
        return proc

    def spawn_cli(self, name: str, *args: str) -> subprocess.Popen:
        """Another ``delve`` command, run by this interpreter."""
        return self.spawn(name, [sys.executable, "-m", "delve.cli", *args])

    def exited(self) -> tuple[str, int] | None:
        """The first child that has exited, with its exit code."""
        for name, proc in self.children:
            if proc.poll() is not None:
                return name, proc.returncode
        return None

    def stop(self, timeout: float = 20.0) -> None:
        for _name, proc in reversed(self.children):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        self.children.clear()


@contextmanager
def embedded_redis(data_dir: Path | None, persist: bool) -> Iterator[str]:
    """A private redis-server, stopped last (it runs in its own session, so the
    terminal's Ctrl-C reaches the workers and the API, not the store)."""
    server = EmbeddedRedis(data_dir, persist=persist)
    url = server.start()
    try:
        yield url
    finally:
        server.stop()


def child_env(**extra: str) -> dict[str, str]:
    env = {**os.environ, **extra}
    root = str(Path(__file__).resolve().parents[1])  # a source checkout works without `pip install`
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env
