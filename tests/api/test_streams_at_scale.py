"""Many open streams on one API process (gunicorn, gevent, as `delve serve` runs it): every stream
gets a move, and the process's Redis connections do not grow with its streams.

The same run as `delve bench`'s streams section (benchmarks/streams.py), small; it times things,
but this test asserts none of the times.
"""
from __future__ import annotations

import uuid

import pytest

from benchmarks import streams
from delve.cli import _quiet_api
from domain import registry

STREAMS = 300
POOL = 8  # Redis connections the API process may open (DELVE_REDIS_MAX_CONNECTIONS), far fewer than its streams


@pytest.mark.skipif("mountain-king" not in registry.available(), reason="needs a real game for the API process")
def test_every_stream_gets_the_move_and_redis_connections_do_not_grow_with_streams(redis_url, r):
    game = registry.get("mountain-king")
    prefix = f"t{uuid.uuid4().hex[:10]}"
    out = streams.run(_quiet_api, redis_url, prefix, game, game.min_players, STREAMS, probes=20,
                      log=lambda _msg: None, env={"DELVE_REDIS_MAX_CONNECTIONS": str(POOL)})
    assert out["open"] == STREAMS and out["open_errors"] == 0
    assert out["fanout"]["move_status"] == 201
    assert out["fanout"]["received"] == STREAMS and out["fanout"]["missed"] == 0  # half SSE, half NDJSON
    redis_ = out["redis"]
    assert 1 <= redis_["api_connections_idle"] <= POOL  # the feed hub's read among them: one for every stream
    assert redis_["api_connections_after_move"] <= POOL  # the move's fan-out opened none
    for probe in out["reads_while_open"].values():
        assert probe["n"] == 20 and probe["non_200"] == 0
    assert out["memory"]["rss_kb_open"] > 0
    for key in r.scan_iter(f"{prefix}*"):
        r.delete(key)
