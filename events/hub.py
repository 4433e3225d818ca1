"""One blocking read per process for every stream of game events it serves.

An SSE or NDJSON stream of a game waits for the game's next events. Blocking on
the game's own Redis stream costs each open stream a Redis connection for as
long as it waits; with thousands of idle spectators that is thousands of
connections. Every append also writes one entry to its partition's feed
(``events/append.lua``), so one reader blocking on all partition feeds learns
of every new event in this store: :class:`FeedHub` runs that reader in one
thread (a greenlet under gevent), and wakes the streams waiting on the games it
saw move. Before waking them it reads the moved games' new events and meta in
one pipelined round trip and hands them to every subscriber: a move watched by
10,000 streams costs the process one read, not 10,000 (each of which would also
take a pooled connection at the same moment). A subscriber the news does not fit
(it is behind) reads for itself.

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
from events.replies import as_text, parse_entry

log = logging.getLogger("delve.hub")

BLOCK_MS = 1000  # one XREAD's block, at most (half the client's socket timeout when it has one)
BATCH = 1000  # feed entries read per call
NEWS = 200  # envelopes of one game handed to its subscribers per batch (a longer run is read by each)


class News:
    """What the hub read of a game that moved: envelopes ``first``..``last``, the game's meta after them,
    and ``memo``: what its readers derive from it once for all of them (a seat's redacted events)."""

    __slots__ = ("first", "last", "envs", "meta", "memo")

    def __init__(self, envs: list[dict], meta: dict[str, str] | None):
        self.envs, self.meta, self.memo = envs, meta, {}
        self.first, self.last = envs[0]["seq"], envs[-1]["seq"]


class Subscription:
    """One waiting stream: ``event`` is set when its game moves (or the reader failed: read again);
    ``news`` holds what the hub read for it since it last looked."""

    __slots__ = ("event", "news")

    def __init__(self) -> None:
        self.event = threading.Event()
        self.news: News | None = None

    def take(self) -> News | None:
        news, self.news = self.news, None
        return news


class FeedHub:
    """Wakes whoever :meth:`wait`\\ s on a game when the game's partition feed says it moved."""

    def __init__(self, r: redis.Redis, keys: Keys):
        self.r, self.keys = r, keys
        self._waiters: dict[str, set[Subscription]] = defaultdict(set)
        self._lock = threading.Lock()
        self._pid: int | None = None  # the process the reader runs in (gunicorn forks after import)
        self.wakeups = 0  # streams woken (tests, /metrics)
        self.news_reads = 0  # round trips spent reading moved games for their subscribers
        timeout = r.connection_pool.connection_kwargs.get("socket_timeout")
        self.block_ms = min(BLOCK_MS, int(timeout * 500)) if timeout else BLOCK_MS

    def subscribe(self, game_id: str) -> Subscription:
        """Woken at each of the game's appends until :meth:`unsubscribe` (a stream keeps one for its life,
        so no append between two waits goes unseen)."""
        sub = Subscription()
        with self._lock:
            self._waiters[game_id].add(sub)
        self._ensure_reader()  # after: a reader that finds no one waiting stops, and this one would never wake
        return sub

    def unsubscribe(self, game_id: str, sub: Subscription) -> None:
        with self._lock:
            waiting = self._waiters.get(game_id)
            if waiting is not None:
                waiting.discard(sub)
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
                self._handle(self.r.xread(last, count=BATCH, block=self.block_ms), last)
                pause = 0.1
            except Exception as exc:  # Redis gone, or anything else: no stream may wait on a dead reader
                log.warning("feed hub: %r; waking every stream and retrying in %.1f s", exc, pause)
                self._wake_all()
                last = None  # Redis may have restarted: read from the feeds' ends again
                time.sleep(pause)
                pause = min(pause * 2, 2.0)

    def _handle(self, got: list | None, last: dict[str, str]) -> None:
        """Move ``last`` past the feed entries read and wake (with their news) whoever waits on those games."""
        moved: dict[str, tuple[int, int]] = {}  # game -> the seqs its appends in this batch wrote
        for feed, entries in got or ():
            feed = as_text(feed)
            for entry_id, fields in entries:
                last[feed] = as_text(entry_id)
                gid, lo, hi = (as_text(fields.get(k.encode(), fields.get(k)) or b"")
                               for k in ("game_id", "from_seq", "to_seq"))
                span = (int(lo), int(hi)) if lo.isdigit() and hi.isdigit() else (0, 0)
                seen = moved.get(gid)
                moved[gid] = span if seen is None else (min(seen[0], span[0]), max(seen[1], span[1]))
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

    def _wake(self, moved: dict[str, tuple[int, int]]) -> None:
        with self._lock:
            subs = {gid: list(self._waiters.get(gid, ())) for gid in moved}
        news = self._read_news({gid: moved[gid] for gid, s in subs.items() if s})
        woken = 0
        for gid, waiting in subs.items():
            got = news.get(gid)
            for sub in waiting:
                if got is not None:
                    sub.news = got
                sub.event.set()
            woken += len(waiting)
        self.wakeups += woken

    def _read_news(self, spans: dict[str, tuple[int, int]]) -> dict[str, News]:
        """The new envelopes and meta of each watched game that moved, in one round trip (none on an
        error: the woken streams read for themselves)."""
        spans = {gid: (lo, hi) for gid, (lo, hi) in spans.items() if 0 < lo <= hi}
        if not spans:
            return {}
        pipe = self.r.pipeline(transaction=False)
        for gid, (lo, hi) in spans.items():
            pipe.xrange(self.keys.events(gid), min=f"{lo}-0", max=f"{min(hi, lo + NEWS - 1)}-0")
            pipe.hgetall(self.keys.meta(gid))
        try:
            replies = pipe.execute()
        except (redis.ConnectionError, redis.TimeoutError, OSError):
            return {}
        self.news_reads += 1
        out = {}
        for i, gid in enumerate(spans):
            entries, raw = replies[2 * i], replies[2 * i + 1]
            envs = [parse_entry(fields) for _id, fields in entries]
            if envs and envs[0]["seq"] == spans[gid][0]:  # else compacted meanwhile: each reads for itself
                out[gid] = News(envs, {as_text(k): as_text(v) for k, v in raw.items()} if raw else None)
        return out

    def _wake_all(self) -> None:
        with self._lock:
            subs = [s for w in self._waiters.values() for s in w]
        for sub in subs:
            sub.event.set()
