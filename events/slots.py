"""What the store does differently on a Redis Cluster, where one command or
transaction may only touch keys of one hash slot.

Each partition's feed is in its own slot (``{p<k>}``), so one ``XREAD`` or
``XREADGROUP`` cannot read every feed: :func:`read_each` reads them in one
pipelined round trip per node, without blocking (a blocking read of one feed
would hold up the others), and sleeps a short poll interval when all were
empty. The lobby follower writes lobby keys outside its feed's slot, so
:func:`apply_then_track` applies a follower's effect first and then advances
its position, which is safe for an idempotent effect.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from redis.client import Pipeline
from redis.cluster import RedisCluster

POLL_MS = 50  # how long a reader of the feeds sleeps when none had anything (a bound on the added latency)

# Set the tracking position to ARGV[1] unless it already is at or past it (stream ids ``<ms>-<seq>``).
_ADVANCE = """
local cur = redis.call('GET', KEYS[1])
if cur then
  local cm, cs = string.match(cur, '(%d+)-(%d+)')
  local nm, ns = string.match(ARGV[1], '(%d+)-(%d+)')
  cm, cs, nm, ns = tonumber(cm), tonumber(cs), tonumber(nm), tonumber(ns)
  if cm > nm or (cm == nm and cs >= ns) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1])
return 1
"""


def read_each(r: RedisCluster, feeds: list[str], block_ms: int | None,
              read: Callable[[Pipeline, str], None]) -> list:
    """``read(pipe, feed)`` queues one single-feed read per feed; the replies merged like one XREAD's.

    With nothing to return and ``block_ms`` set, sleeps ``min(block_ms, POLL_MS)``
    first, so a caller's loop polls instead of spinning.
    """
    pipe = r.pipeline(transaction=False)
    for feed in feeds:
        read(pipe, feed)
    merged = [stream for reply in pipe.execute() for stream in (reply or [])]
    if not merged and block_ms:
        time.sleep(min(block_ms, POLL_MS) / 1000)
    return merged


def apply_then_track(r: RedisCluster, key: str, entry_id: str, effect: Callable[[Pipeline], None]) -> bool:
    """Queue ``effect``'s writes on a pipeline, run them, then move the position ``key`` to ``entry_id``.

    False (nothing applied) when the position is already there. The position
    only moves forward (a script on its one key), so two processes racing
    apply the effect twice at worst, never move the position back.
    """
    done = r.get(key)
    if done is not None and stream_id(done) >= stream_id(entry_id):
        return False
    pipe = r.pipeline(transaction=False)
    effect(pipe)
    pipe.execute()
    r.eval(_ADVANCE, 1, key, entry_id)
    return True


def stream_id(entry_id: str | bytes) -> tuple[int, int]:
    """A stream entry id ``<ms>-<seq>`` as a tuple that orders like the stream."""
    text = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)
