"""The reactor process's loop: the one place it runs, stops and rides out Redis outages.

A :class:`Loop` steps its steppers (the reactor, the followers) until
SIGTERM/SIGINT or ``stop()``. Only the first stepper may block waiting for
feed entries, and only when no stepper had anything to do, so a quiet
platform costs one blocking read per ``block_ms`` and a busy one no wait.
"""
from __future__ import annotations

import logging
import signal
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Protocol

import redis

log = logging.getLogger("delve.loop")


class Stepper(Protocol):
    def step(self, block_ms: int | None = None) -> int:
        """Handle what is available now (waiting up to ``block_ms`` for it); returns how much."""


def heartbeat_path(name: str = "reactor") -> Path:
    """A file whose modification time says when a loop of this host last stepped
    (`delve healthcheck reactor` reads it: a loop stuck or dead stops touching it)."""
    return Path(tempfile.gettempdir()) / f"delve-{name}-{socket.gethostname()}.alive"


class Loop:
    def __init__(self, steppers: list[Stepper], name: str = "reactor"):
        if not steppers:
            raise ValueError("a loop needs at least one stepper")
        self.steppers = steppers
        self.name = name
        self._stop = threading.Event()
        self._beat = heartbeat_path(name)
        self._beaten = float("-inf")

    def beat(self) -> None:
        """Touch the heartbeat file, at most once a second."""
        now = time.monotonic()
        if now - self._beaten >= 1.0:
            self._beat.touch()
            self._beaten = now

    def step(self, block_ms: int | None = None) -> int:
        done = sum(s.step() for s in self.steppers[1:])
        return done + self.steppers[0].step(None if done else block_ms)

    def run_forever(self, block_ms: int = 1000, max_backoff: float = 1.0) -> None:
        """Step until stopped; a Redis that cannot be reached is retried with a pause growing to
        ``max_backoff`` (a refused connection costs nothing, and play resumes that soon after Redis)."""
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGINT):
                signal.signal(sig, lambda *_: self.stop())
        log.info("%s loop started (%d steppers)", self.name, len(self.steppers))
        backoff = 0.5
        while not self._stop.is_set():
            try:
                self.step(block_ms)
                self.beat()
                backoff = 0.5
            except (redis.ConnectionError, redis.TimeoutError) as exc:
                log.warning("Redis unreachable (%s); retrying in %.1fs", exc, backoff)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, max_backoff)
        log.info("%s loop stopped", self.name)

    def stop(self) -> None:
        self._stop.set()
