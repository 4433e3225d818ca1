"""What `delve serve` checks before it starts anything, so a failure names its real cause.

Without these checks a missing module, a taken port or a second server on the same data
surfaced as a child process dying (or, worse, as another server answering our health
check) and a guess at the reason.
"""
from __future__ import annotations

import errno
import fcntl
import os
import socket
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from errors import Busy



@contextmanager
def data_dir_lock(data_dir: Path) -> Iterator[Path]:
    """Hold an exclusive lock on ``<data_dir>/serve.lock`` (with our PID in it) while serving.

    The kernel drops the lock when the process dies, however it dies, so a crashed server
    never leaves a stale lock behind; the PID is only there to tell the next one who holds it.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "serve.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Busy(path, os.pread(fd, 32, 0).decode(errors="replace").strip()) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield path
    finally:
        os.close(fd)  # releases the lock


def port_problem(host: str, port: int) -> str | None:
    """Why the API could not listen on host:port, or None when it can (checked by binding it once)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds: TIME_WAIT is no conflict
        try:
            sock.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return (f"port {port} on {host} is already in use (another server?): choose another "
                        f"with --port (make run PORT=...)")
            return f"cannot listen on {host}:{port}: {exc.strerror}; check --host and --port"
    return None


def web_stack_problem() -> str | None:
    """Why gunicorn's gevent worker cannot load in this install, or None when it can."""
    try:
        import gunicorn.workers.ggevent  # noqa: F401  (imports gevent and what it needs; patches nothing)
    except ImportError as exc:
        return (f"the API server cannot start: gunicorn's gevent worker needs a module this installation "
                f"lacks ({exc}). Reinstall delve with its dependencies (pip install --force-reinstall <the "
                f"delve wheel or checkout>), or install the missing module")
    return None
