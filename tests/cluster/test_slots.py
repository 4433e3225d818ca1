"""events/slots.py on a real cluster: feeds in different slots read in one call, and a
follower's position that only moves forward when its effect lies in other slots."""
from __future__ import annotations

import pytest

from events import slots
from events.keys import Keys
from application.runtime import redis_client

pytestmark = pytest.mark.slow


@pytest.fixture
def rc(cluster):
    client = redis_client(cluster.url)
    yield client
    client.close()


def test_read_each_reads_feeds_of_every_slot_in_one_call(rc, cluster):
    keys = Keys("slots-read")
    feeds = keys.all_feeds()
    assert len({cluster.master_of(f) for f in feeds}) == 3  # the feeds really are spread over the masters
    for p, feed in enumerate(feeds):
        rc.xadd(feed, {"n": str(p)})
    got = slots.read_each(rc, feeds, 10, lambda pipe, feed: pipe.xread({feed: "0-0"}, count=10))
    assert sorted(int(entries[0][1][b"n"]) for _feed, entries in got) == list(range(len(feeds)))
    assert slots.read_each(rc, feeds, 10, lambda pipe, feed: pipe.xread({feed: "$"}, count=10)) == []


def test_apply_then_track_applies_each_entry_once_and_never_moves_back(rc):
    position = "slots-track:{p0}:feed:track:lobby"
    effect_key = "slots-track:games:all"  # another slot than the position's, like the lobby's

    def effect(entry: str):
        return lambda pipe: pipe.rpush(effect_key, entry)

    assert slots.apply_then_track(rc, position, "5-0", effect("5-0"))
    assert not slots.apply_then_track(rc, position, "5-0", effect("5-0 again"))
    assert not slots.apply_then_track(rc, position, "4-9", effect("4-9"))
    assert slots.apply_then_track(rc, position, "12-0", effect("12-0"))
    assert rc.get(position) == b"12-0"
    assert rc.lrange(effect_key, 0, -1) == [b"5-0", b"12-0"]
    # A process that applied an older entry late never moves the position back.
    rc.eval(slots._ADVANCE, 1, position, "7-0")
    assert rc.get(position) == b"12-0"
