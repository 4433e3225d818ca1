"""Issue 7, item 8: event times come from Redis TIME in the append script.

Before, each process stamped events with its own clock: under skew, times went
backwards by minutes within one game. Here two "processes" (services) whose
clocks are frozen six minutes apart take turns in one game.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from freezegun import freeze_time

from application.access import ADMIN

from application.service import GameService
from events.store import RedisEventStore

pytestmark = pytest.mark.slow


def test_event_times_follow_redis_and_never_go_backwards_under_skew(service, store):
    other = GameService(RedisEventStore(store.r, prefix=store.keys.prefix))
    now = datetime.now(timezone.utc)
    clocks = [(service, now + timedelta(seconds=180)), (other, now - timedelta(seconds=180))]
    with freeze_time(clocks[0][1]):
        gid = service.create("tiny", [{"name": "a"}, {"name": "b"}], {"turns": 10})["id"]
    for turn in range(10):
        svc, clock = clocks[turn % 2]
        with freeze_time(clock):
            g = svc.load(gid)
            svc.submit(gid, turn % 2, g.version, {"type": "pass"}, f"c{turn}")
    stamps = [e["at"] for e in service.events(gid, ADMIN)["events"]]
    assert stamps == sorted(stamps), "event times went backwards"
    redis_now, _ = store.r.time()
    for at in (stamps[0], stamps[-1]):
        assert abs(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() - redis_now) < 30
