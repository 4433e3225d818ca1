"""One blocking read per process for every stream of game events it serves.

An SSE or NDJSON stream of a game waits for the game's next events. Blocking on
the game's own Redis stream costs each open stream a Redis connection for as
long as it waits; with thousands of idle spectators that is thousands of
connections. Every append also writes one entry to its partition's feed
(``events/append.lua``), so one reader blocking on all partition feeds learns
of every new event in this store: :class:`FeedHub` runs that reader in one
thread (a greenlet under gevent), and wakes the streams waiting on the games it
saw move. A stream then reads its game's new events with one ordinary,
non-blocking read.

A Redis Cluster spreads the feeds over nodes, and one XREAD cannot name keys of
several slots: there each stream keeps its own blocking read (``Reads.wait``).
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections import defaultdict

import redis

from events.keys import Keys

log = logging.getLogger("delve.hub")

BLOCK_MS = 1000  # one XREAD's block, at most (half the client's socket timeout when it has one)
BATCH = 1000  # feed entries read per call


class FeedHub:
    """Wakes whoever :meth:`wait`\\ s on a game when the game's partition feed says it moved."""

    def __init__(self, r: redis.Redis, keys: Keys):
        self.r, self.keys = r, keys
        self._waiters: dict[str, set[threading.Event]] = defaultdict(set)
        self._lock = threading.Lock()
        self._pid: int | None = None  # the process the reader runs in (gunicorn forks after import)
        self.wakeups = 0  # streams woken (tests, /metrics)
        timeout = r.connection_pool.connection_kwargs.get("socket_timeout")
        self.block_ms = min(BLOCK_MS, int(timeout * 500)) if timeout else BLOCK_MS

    def subscribe(self, game_id: str) -> threading.Event:
        """An event set at the game's next append (or when the reader fails: the caller reads again)."""
        self._ensure_reader()
        event = threading.Event()
        with self._lock:
            self._waiters[game_id].add(event)
        return event

    def unsubscribe(self, game_id: str, event: threading.Event) -> None:
        with self._lock:
            waiting = self._waiters.get(game_id)
            if waiting is not None:
                waiting.discard(event)
                if not waiting:
                    del self._waiters[game_id]

    def waiting(self) -> int:
        """Streams waiting now (all of them share this hub's one Redis read)."""
        with self._lock:
            return sum(len(w) for w in self._waiters.values())

    def _ensure_reader(self) -> None:
        """Start the reader unless it runs in this process (it stops when no stream waits)."""
        with self._lock:
            if self._pid == os.getpid():
                return
            self._pid = os.getpid()
        threading.Thread(target=self._run, name="delve-feed-hub", daemon=True).start()

    def _run(self) -> None:
        """Read every partition feed from its end on while anyone waits; after an error, wake everyone
        (they read again) and retry with a growing pause."""
        last: dict[str, str] | None = None
        pause = 0.1
        while True:
            with self._lock:
                if not self._waiters:
                    self._pid = None
                    return
            try:
                if last is None:
                    last = self._ends()
                    self._wake_all()  # whatever landed before the ends were read: each stream reads again
                got = self.r.xread(last, count=BATCH, block=self.block_ms)
                pause = 0.1
            except (redis.ConnectionError, redis.TimeoutError, OSError) as exc:
                log.warning("feed hub: %s; waking every stream and retrying in %.1f s", exc, pause)
                self._wake_all()
                last = None  # Redis may have restarted: read from the feeds' ends again
                time.sleep(pause)
                pause = min(pause * 2, 2.0)
                continue
            moved = set()
            for feed, entries in got or ():
                feed = feed.decode() if isinstance(feed, bytes) else feed
                for entry_id, fields in entries:
                    last[feed] = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
                    gid = fields.get(b"game_id", fields.get("game_id"))
                    moved.add(gid.decode() if isinstance(gid, bytes) else gid)
            if moved:
                self._wake(moved)

    def _ends(self) -> dict[str, str]:
        """The last entry id of every partition feed (``0-0`` for an empty one), read in one round trip."""
        feeds = self.keys.all_feeds()
        pipe = self.r.pipeline(transaction=False)
        for feed in feeds:
            pipe.xrevrange(feed, count=1)
        ends = {}
        for feed, entries in zip(feeds, pipe.execute()):
            top = entries[0][0] if entries else b"0-0"
            ends[feed] = top.decode() if isinstance(top, bytes) else top
        return ends

    def _wake(self, game_ids: set[str]) -> None:
        with self._lock:
            events = [e for gid in game_ids for e in self._waiters.get(gid, ())]
        for event in events:
            event.set()
        self.wakeups += len(events)

    def _wake_all(self) -> None:
        with self._lock:
            events = [e for w in self._waiters.values() for e in w]
        for event in events:
            event.set()
