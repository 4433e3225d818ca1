"""Followers handle each feed entry exactly once: the effect and the tracked
position commit together, and a redelivered entry is skipped."""
from __future__ import annotations

import pytest

from workers import table
from workers.follower import Follow, Follower
from workers.loop import Loop

BOTS = [{"name": "ann", "bot": "random"}, {"name": "bob", "bot": "random"}]
LOBBY = next(f for f in table.FOLLOWERS if f.name == "lobby")


def lobby_ids(service, status="active"):
    return [g["id"] for g in service.list_games(None, status, 0, 100)["games"]]


def unindex(service, gid):
    """What a crash between the append and the service's own projection leaves behind."""
    service.store.indexes.put(gid, 0, [], ["all", "game:tiny", "status:active", "status:finished"])


def recorder(name, seen):
    return Follower(name, lambda service, entry, tx: seen.append((entry.game_id, entry.from_seq, entry.to_seq,
                                                                 entry.types)))


def test_each_entry_is_applied_once_and_carries_the_append(service):
    created = service.create("tiny", [{"name": "ann"}, {"name": "bob"}], {"turns": 1})
    gid, v = created["id"], created["version"]
    service.submit(gid, 0, v, {"type": "pass"}, "c1")
    seen = []
    follow = Follow(service, recorder("rec", seen))
    assert follow.step() == 2
    assert seen[0][:2] == (gid, 1) and "GameCreated" in seen[0][3]
    assert seen[0][2] == v and seen[1][:2] == (gid, v + 1)
    assert follow.step() == 0
    assert len(seen) == 2


def test_a_redelivered_entry_is_not_applied_twice(service):
    """A restarted process (a new Follow) reads the feeds again from its tracked position."""
    seen = []
    gid = service.create("tiny", BOTS, {"turns": 1})["id"]
    Follow(service, recorder("rec", seen)).step()
    assert Follow(service, recorder("rec", seen)).step() == 0
    feed = service.store.feed_of(gid)
    (entry_id, _fields), = service.store.tracking.read({feed: "0-0"}, 10)[0][1]
    assert not service.store.tracking.apply("rec", feed, entry_id, lambda tx: seen.append("again"))
    assert len(seen) == 1
    other = []
    assert Follow(service, recorder("another", other)).step() == 1  # positions are per follower


def test_a_failing_policy_writes_nothing_and_is_retried(service):
    gid = service.create("tiny", BOTS, {"turns": 1})["id"]
    unindex(service, gid)
    calls = []

    def flaky(svc, entry, tx):
        svc.store.indexes.put(entry.game_id, 1.0, ["all", "status:active"], [], tx)
        calls.append(entry.game_id)
        if len(calls) == 1:
            raise RuntimeError("crash after queuing the write")

    follow = Follow(service, Follower("flaky", flaky))
    assert follow.step() == 0
    assert gid not in lobby_ids(service)  # the queued write died with the transaction
    assert follow.step() == 1
    assert gid in lobby_ids(service)
    assert follow.step() == 0 and len(calls) == 2


def test_lobby_follower_repairs_a_missing_projection_once(service):
    lobby = Follow(service, LOBBY)
    gid = service.create("tiny", BOTS, {"turns": 1})["id"]
    unindex(service, gid)
    assert lobby.step() == 1
    assert gid in lobby_ids(service)
    unindex(service, gid)  # the entry comes round again: it must not be re-applied
    assert Follow(service, LOBBY).step() == 0
    assert gid not in lobby_ids(service)


def test_the_lobby_follower_skips_a_game_that_is_gone(service):
    gid = service.create("tiny", BOTS, {"turns": 1})["id"]
    service.store.r.delete(service.store.keys.meta(gid))  # deleted by hand
    assert Follow(service, LOBBY).step() == 1


def test_a_loop_steps_the_reactor_and_the_followers(service):
    seen = []
    gid = service.create("tiny", BOTS, {"turns": 1})["id"]
    first, second = Follow(service, recorder("a", seen)), Follow(service, recorder("b", seen))
    assert Loop([first, second]).step(block_ms=10) == 2
    assert [s[0] for s in seen] == [gid, gid]


def test_a_loop_needs_a_stepper():
    with pytest.raises(ValueError):
        Loop([])


def test_the_inprocess_driver_runs_the_followers_too(service):
    from workers.inprocess import InProcessDriver

    with InProcessDriver(service) as driver:
        gid = service.create("tiny", BOTS, {"turns": 2})["id"]
        driver.run([gid])
    feed = service.store.feed_of(gid)
    last_entry = service.store.tracking.read({feed: "0-0"}, 1000)[0][1][-1][0]
    assert service.store.tracking.positions("lobby", [feed]) == {feed: last_entry}


def test_the_table_follows_ratings_notifications_and_tournaments_by_position():
    """No lock and no job: each is a follower with its own tracked position (workers/table.py)."""
    assert {f.name for f in table.FOLLOWERS} == {"lobby", "ratings", "notifications", "tournament-games",
                                                  "tournaments"}
    assert not {"rate", "notify", "tournament", "tadvance"} & set(table.KINDS)
