"""Keep long requests from starving the API: stream caps, body deadlines, CPU work off the loop.

The API runs under gunicorn's gevent workers, so an idle event stream or a
client trickling its body costs a greenlet, not one of a few threads. What
each stream still holds (a Redis connection, a file descriptor) is capped per
process and per game, and per identity and client address across processes; a
stream beyond a cap is refused with 503
and ``Retry-After``, and every stream ends after ``SSE_MAX_SECONDS`` (the
client resumes with ``Last-Event-ID``), so no one holds a slot for ever. A
request body must arrive within ``BODY_TIMEOUT`` seconds (408 otherwise).
CPU-heavy work (verifying an upload) runs in a thread, so the event loop
keeps answering while it runs.
"""
from __future__ import annotations

import socket
import threading
from collections import Counter
from typing import Any, Callable

from flask import current_app
from werkzeug.exceptions import RequestTimeout

from errors import ApiError, Full
from application.quotas import Leases
from application.service import GameService
from server import identity


RETRY_AFTER = 5
"""Seconds a refused stream (503 ``too_many_streams``) is told to wait. A slot frees the moment a
stream that holds it ends (its lease is released then: a closed tab, a stream reaching
``SSE_MAX_SECONDS``), which no one can foresee, so the client asks again after a few seconds,
which costs one refused request. The lease's expiry (the stream's longest life and 30 s) is only
when a slot frees for sure, should the process holding it die: minutes, not a wait to tell."""


class StreamSlots:
    """Counts this process's open streams; ``take`` refuses one past a cap with a 503."""

    def __init__(self, total: int, per_game: int, retry_after: int = RETRY_AFTER):
        self.caps = {"process": total, "game": per_game}
        self.retry_after = retry_after
        self.open: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()

    def take(self, game: str) -> Callable[[], None]:
        """Hold a slot for a stream of ``game`` (or tournament); returns its release."""
        keys = (("process", ""), ("game", game))
        with self._lock:
            full = next((kind for kind, name in keys if self.open[(kind, name)] >= self.caps[kind]), None)
            if full is None:
                self.open.update(keys)
        if full is not None:
            raise ApiError(503, "too_many_streams", f"the {full} stream limit ({self.caps[full]}) is reached on this "
                           f"server process; retry in {self.retry_after} s", retry_after=self.retry_after)
        released = []

        def release() -> None:
            with self._lock:
                if not released:
                    released.append(True)
                    self.open.subtract(keys)
        return release


def hold(svc: GameService, who: str, subject: str) -> Callable[[], None]:
    """A slot for one stream of ``subject`` (a game, a tournament, a player's feed) opened by ``who``
    (server/identity.py); returns its release, to call when the stream ends.

    Besides this process's caps, every identity and every client address (the admin's token aside:
    the operator's) holds at most so many
    streams of any kind across all API processes (leases in Redis that expire with the stream's
    longest life, so a process that dies frees its leases): 503 ``too_many_streams`` past a cap.
    """
    config = current_app.config
    releases = [current_app.extensions["delve.streams"].take(subject)]
    leases = Leases(svc.store.counters)
    seconds = config["SSE_MAX_SECONDS"] + 30  # the stream ends by itself before its lease does
    caps = [] if who == identity.ADMIN else [(identity.address(), config["SSE_MAX_PER_ADDRESS"], "client address")]
    if who not in (identity.address(), identity.ADMIN):
        caps.insert(0, (who, config["SSE_MAX_PER_CLIENT"], "token"))
    try:
        for key, cap, what in caps:
            if cap > 0:
                holder = leases.take(key, cap, seconds)
                releases.append(lambda key=key, holder=holder: leases.release(key, holder))
    except Full as full:
        _release_all(releases)
        wait = min(RETRY_AFTER, full.retry_after)  # full.retry_after: when the oldest lease runs out at the latest
        raise ApiError(503, "too_many_streams", f"this {what} holds {full.cap} open streams already, the most it "
                       f"may; close one, or retry in {wait} s", retry_after=wait) from None
    done = []

    def release() -> None:
        if not done:
            done.append(True)
            _release_all(releases)
    return release


def _release_all(releases: list[Callable[[], None]]) -> None:
    for release in reversed(releases):
        release()


class BodyDeadline:
    """WSGI middleware: the whole request body must arrive within ``seconds``, or 408.

    gunicorn puts the client socket in the environ. A timer shuts its read
    side at the deadline, which ends a read however the server loops over
    ``recv`` (a client sending a byte every second never trips a per-recv
    timeout); the read then answers 408 and the connection is let go.
    """

    def __init__(self, app: Callable, seconds: float):
        self.app, self.seconds = app, seconds

    def __call__(self, environ: dict, start_response: Callable) -> Any:
        sock = environ.get("gunicorn.socket")
        has_body = environ.get("CONTENT_LENGTH") not in (None, "", "0") or "HTTP_TRANSFER_ENCODING" in environ
        if sock is None or self.seconds <= 0 or not has_body:
            return self.app(environ, start_response)
        expired = threading.Event()
        timer = threading.Timer(self.seconds, _cut, (sock, expired))
        timer.daemon = True
        timer.start()
        environ["wsgi.input"] = _DeadlineInput(environ["wsgi.input"], expired)
        try:
            return self.app(environ, start_response)
        finally:
            timer.cancel()


def _cut(sock: socket.socket, expired: threading.Event) -> None:
    expired.set()
    try:
        sock.shutdown(socket.SHUT_RD)
    except OSError:
        pass  # the client is gone already


class _DeadlineInput:
    def __init__(self, raw: Any, expired: threading.Event):
        self.raw, self.expired = raw, expired

    def _call(self, name: str, *args: Any) -> Any:
        try:
            got = getattr(self.raw, name)(*args)
        except Exception as exc:
            if self.expired.is_set():
                raise RequestTimeout("the request body did not arrive in time") from exc
            raise
        if self.expired.is_set():
            raise RequestTimeout("the request body did not arrive in time")
        return got

    def read(self, *args: Any) -> bytes:
        return self._call("read", *args)

    def readline(self, *args: Any) -> bytes:
        return self._call("readline", *args)

    def readlines(self, *args: Any) -> list[bytes]:
        return self._call("readlines", *args)

    def __iter__(self):
        return iter(self.readline, b"")


def off_the_loop(fn: Callable, *args: Any) -> Any:
    """Run CPU-bound ``fn`` in a real thread when gevent runs this process, so other requests go on."""
    try:
        from gevent import get_hub
        from gevent.monkey import is_module_patched
    except ImportError:
        return fn(*args)
    if not is_module_patched("socket"):
        return fn(*args)
    return get_hub().threadpool.apply(fn, args)
