"""Timers: jobs due at a time (clock deadlines, tournament starts), owned by no process.

A timer is a member ``kind id version`` of one sorted set in the queue Redis,
scored by its due time in ms of Redis's clock (the clock that stamps every
append, so a deadline is due by the same clock its stamps were taken by).
Every worker and every reactor process polls the set (``Timers.step``, a
few times a second): one Lua call takes the timers due by Redis ``TIME`` and
pushes each one's score a lease ahead (LEASE_MS), so exactly one poller runs
it; the poller runs the kind's function (workers/table.py, idempotent: a
clock's timeout is appended only if the game still rests at that version)
and then deletes the timer, unless it was scored anew meanwhile.

Nothing is held by one process. A poller killed while it runs a timer leaves
it to come due again when the lease ends; a Redis restart keeps the set (AOF)
and the first poller to reach Redis again takes every overdue timer at once;
a set lost with Redis's data is rebuilt by the reactor's sweep, which adds the
timer of every active clocked game again (adding an existing timer changes
nothing). The same call records that the poller is alive
(events/liveness.py), which ``/readyz`` reports.
"""
from __future__ import annotations

import logging
import os
import time
from datetime import datetime
from typing import Any, Callable

import redis

from errors import NotDue
from events.liveness import add_timer, alive_key, timers_key

log = logging.getLogger("delve.timers")

LEASE_MS = 1000  # a poller that dies mid-run delays its timer by this much at most (plus a poll)
FAILED_RETRY_MS = 30_000  # a timer whose job raised is tried again this much later
POLL_S = 0.25  # how often a reactor process polls (a worker polls between jobs and every second while idle)

# KEYS: timers, alive. ARGV: lease ms, count, poller name.
# Returns {now, member, due, member, due, ...}: the timers taken, with the time each was due.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[2], ARGV[3], now)
local out = {now}
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
for i = 1, #due, 2 do
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), due[i])
  out[#out + 1] = due[i]
  out[#out + 1] = due[i + 1]
end
return out
"""
# KEYS: timers. ARGV: member, the lease score it was taken with, new score ('' = delete).
_RELEASE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then return redis.call('ZREM', KEYS[1], ARGV[1]) end
redis.call('ZADD', KEYS[1], tonumber(ARGV[3]), ARGV[1])
return 1
"""

Runner = Callable[[str, str, int], Any]
"""``(kind, id, version)``: run the timer's job (``workers.table``'s kind of that name)."""


def ms(when: datetime) -> int:
    return int(when.timestamp() * 1000)


class Timers:
    """The timer set of one queue: ``add`` (the reactor) and ``step`` (every poller)."""

    def __init__(self, connection: redis.Redis, queue: str, *, name: str | None = None, run: Runner | None = None,
                 every: float = POLL_S, count: int = 50, lease_ms: int = LEASE_MS):
        self.r = connection
        self.queue, self.key, self.alive = queue, timers_key(queue), alive_key(queue)
        self.name = name or f"poller:{os.getpid()}"
        self.run = run
        self.every, self.count, self.lease_ms = every, count, lease_ms
        self._take = connection.register_script(_TAKE)
        self._release = connection.register_script(_RELEASE)
        self._last = float("-inf")

    def add(self, kind: str, key: str, version: int, at: datetime) -> str:
        """Add the timer unless it exists: "enqueued" or "exists" (the scheduler's words)."""
        return "enqueued" if add_timer(self.r, self.queue, kind, key, version, ms(at)) else "exists"

    def step(self, block_ms: int | None = None) -> int:
        """Run the timers due now (at most every ``every`` seconds); returns how many ran."""
        if time.monotonic() - self._last < self.every:
            return 0
        self._last = time.monotonic()
        return self.fire()

    def fire(self) -> int:
        """Take the due timers and run each; returns how many ran."""
        raw = self._take(keys=[self.key, self.alive], args=[self.lease_ms, self.count, self.name])
        now = int(raw[0])
        taken = [(_text(raw[i]), int(float(raw[i + 1]))) for i in range(1, len(raw), 2)]
        for name, due in taken:
            self._run_one(name, due, now)
        return len(taken)

    def _run_one(self, name: str, due: int, now: int) -> None:
        kind, key, version = name.split(" ")
        if now - due > 1000:  # due: its time, or the end of the lease of a poller that died holding it
            log.warning("timer %s ran %.1f s after it came due", name, (now - due) / 1000)
        lease = now + self.lease_ms
        try:
            self.run(kind, key, int(version))
        except NotDue as early:
            self._release(keys=[self.key], args=[name, lease, max(early.due_ms, now + 100)])
            return
        except redis.RedisError:
            raise  # its lease ends and a poller takes it again once Redis answers
        except Exception:
            log.exception("timer %s failed; tried again in %d s", name, FAILED_RETRY_MS // 1000)
            self._release(keys=[self.key], args=[name, lease, now + FAILED_RETRY_MS])
            return
        self._release(keys=[self.key], args=[name, lease, ""])


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
