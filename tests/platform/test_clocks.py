"""Clocks (issue 9): Fischer and per-move time controls, charged between the Redis-stamped ``at`` of
successive batches; deadlines applied by ``application.clocks.expire`` with the forfeit or autoplay policy.
The appends are stamped by Redis, so the tests move the *reader's* time (freezegun, or the ``now``
handed to a job) relative to those stamps instead of sleeping."""
from __future__ import annotations

import json
import time
from datetime import datetime, timezone

import pytest
from freezegun import freeze_time

from domain.core import Illegal
from errors import VersionConflict
from application import clocks, joining
from application.replay import verify
from tests.support.forge import envelopes, rechain

SEATS = [{"name": "ann"}, {"name": "bob"}]


def stamp(service, gid) -> int:
    """The ``at`` of the game's last batch, in ms."""
    return int(datetime.fromisoformat(service.store.meta(gid)["at"].replace("Z", "+00:00")).timestamp() * 1000)


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def clocks_at(service, gid, ms):
    return {c["seat"]: c["remaining_ms"] for c in clocks.summary(service.store.meta(gid), ms)["clocks"]}


def move(service, gid, seat):
    g = service.load(gid)
    return service.submit(gid, seat, g.version, {"type": "pass"}, f"c{g.version}")


def test_fischer_charges_the_seat_to_act_and_adds_the_increment(service):
    gid = service.create("tiny", SEATS, {"turns": 6}, clock={"initial_s": 60, "increment_s": 5,
                                                              "on_timeout": "autoplay"})["id"]
    t0 = stamp(service, gid)
    assert clocks_at(service, gid, t0) == {0: 60_000, 1: 60_000}
    assert clocks.deadline_iso(service.store.meta(gid)) == iso(t0 + 60_000)
    move(service, gid, 0)
    t1 = stamp(service, gid)
    assert clocks_at(service, gid, t1) == {0: 60_000 - (t1 - t0) + 5_000, 1: 60_000}
    with freeze_time(iso(t1 + 2_000)):  # the reader two seconds later: bob's clock has run
        summary = service.summary(gid, None)
    assert {c["seat"]: c["remaining_ms"] for c in summary["clocks"]} == {0: 65_000 - (t1 - t0), 1: 58_000}
    assert summary["deadline"] == iso(t1 + 60_000)


def test_the_deadline_autoplays_the_seat_once_and_it_keeps_playing(service):
    gid = service.create("tiny", SEATS, {"turns": 4}, clock={"initial_s": 60, "increment_s": 5,
                                                              "on_timeout": "autoplay"})["id"]
    version = move(service, gid, 0)["version"]
    t1 = stamp(service, gid)
    assert clocks.expire(service, gid, version, iso(t1 + 59_999)) is None  # not yet
    done = clocks.expire(service, gid, version, iso(t1 + 60_000))
    assert done["seat"] == 1 and done["policy"] == "autoplay"
    assert clocks.expire(service, gid, version, iso(t1 + 61_000)) is None  # a redelivered job: the version moved
    log = service.store.read(gid, after=version)
    assert log[0]["type"] == "TimeExpired" and log[0]["data"] == {"seat": 1, "policy": "autoplay"}
    assert log[0]["seat"] == 1 and log[0]["command"]["type"] in ("pass", "guess")
    t2 = stamp(service, gid)  # the charge follows the stamps: bob pays t2 - t1, then gains his increment
    assert clocks_at(service, gid, t2)[1] == 60_000 - (t2 - t1) + 5_000
    while not service.finalize(gid):
        g = service.load(gid)
        move(service, gid, min(g.game.active_seats(g.state)))
    verdict = verify(service.export(gid, admin=False))
    assert verdict.ok, verdict.problems


def test_a_move_that_lands_first_cancels_the_deadline(service):
    gid = service.create("tiny", SEATS, {"turns": 4}, clock={"per_move_s": 30, "on_timeout": "autoplay"})["id"]
    before = service.load(gid).version
    move(service, gid, 0)
    t1 = stamp(service, gid)
    assert clocks.expire(service, gid, before, iso(t1 + 31_000)) is None
    assert clocks_at(service, gid, t1) == {0: 30_000, 1: 30_000}  # per move: a fresh allowance each move


def forfeited(service) -> str:
    """A house game whose seat 0 ran out of its 30 s per move under the forfeit policy, finished."""
    gid = service.create("house", SEATS, {"rounds": 1}, clock={"per_move_s": 30, "on_timeout": "forfeit"})["id"]
    version, t0 = service.load(gid).version, stamp(service, gid)
    assert clocks.expire(service, gid, version, iso(t0 + 29_999)) is None
    done = clocks.expire(service, gid, version, iso(t0 + 30_000))
    assert done == {"seat": 0, "policy": "forfeit", "version": version + 2}
    assert service.summary(gid, None)["deadline"] is None
    assert service.finalize(gid)
    return gid


def test_forfeit_issues_the_timeout_platform_command_and_verifies(service):
    gid = forfeited(service)
    expired, conceded = service.store.read(gid, after=1)[-4:-2]
    assert expired["type"] == "TimeExpired" and expired["data"] == {"seat": 0, "policy": "forfeit"}
    assert expired["command"] == {"type": "timeout"} and conceded["type"] == "SeatConceded"
    verdict = verify(service.export(gid, admin=False))
    assert verdict.ok, verdict.problems


def test_a_forged_timeout_fails_verification(service):
    """A TimeExpired whose recorded command the replay does not reproduce is named."""
    gid = forfeited(service)
    envs = envelopes(service.export(gid, admin=False))
    conceded = next(e for e in envs if e["type"] == "SeatConceded")
    conceded["data"]["seat"] = 1
    verdict = verify(rechain(envs))
    assert verdict.chain_ok and not verdict.replay_ok and verdict.problems[0]["seq"] == conceded["seq"]


def test_the_clock_starts_when_the_last_seat_is_taken(service):
    ann = service.players.register("ann", "2026-01-01T00:00:00.000Z")[0]
    bob = service.players.register("bob", "2026-01-01T00:00:00.000Z")[0]
    gid = service.create("tiny", [{"open": True}, {"open": True}], {},
                         clock={"initial_s": 100, "on_timeout": "autoplay"})["id"]
    assert service.summary(gid, None)["clocks"] == [] and service.summary(gid, None)["deadline"] is None
    joining.join(service, gid, ann)
    joining.join(service, gid, bob)
    assert service.summary(gid, None)["deadline"] == iso(stamp(service, gid) + 100_000)


@pytest.mark.parametrize("spec, game", [
    ({"initial_s": 0}, "tiny"), ({"per_move_s": "5"}, "tiny"), ({"initial_s": 5, "per_move_s": 5}, "tiny"),
    ({"per_move_s": 5, "on_timeout": "later"}, "tiny"), ({}, "tiny"),
])
def test_bad_clocks_are_refused(service, spec, game):
    with pytest.raises(Illegal) as exc:
        service.create(game, SEATS, {}, clock=spec)
    assert exc.value.code == "bad_clock"


def test_clock_over_http(client):
    resp = client.post("/v1/games", json={"game": "tiny", "seats": SEATS,
                                          "clock": {"initial_s": 300, "increment_s": 2, "on_timeout": "autoplay"}})
    assert resp.status_code == 201
    summary = client.get(f"/v1/games/{resp.json['id']}").json
    assert [c["seat"] for c in summary["clocks"]] == [0, 1] and summary["deadline"]
    bad = client.post("/v1/games", json={"game": "tiny", "seats": SEATS, "clock": {"per_move_s": -1}})
    assert bad.status_code == 422 and bad.json["code"] == "bad_clock"


def test_a_timeout_run_late_charges_the_seats_to_act_up_to_the_deadline_only():
    """Two seats to act at once (a drafting phase); seat 0 falls at D, but the timeout is only
    recorded an hour later (an outage). Seat 1 is charged up to D, not the hour: the recorded
    times decide, not when the platform came back."""
    ctl = {"initial_s": 60, "increment_s": 5, "on_timeout": "autoplay"}
    since = stamp_ms = 1_800_000_000_000
    record = {"base": [10_000, 25_000], "since": None, "ran": [], "mover": None, "active": [0, 1], "version": 5}
    meta = {"status": "active", "clock_control": json.dumps(ctl), "clock": json.dumps(record), "at": iso(since)}
    due = clocks.deadline_ms(meta)
    assert due == stamp_ms + 10_000
    assert clocks.expired_seat(meta, due - 1) is None and clocks.expired_seat(meta, due) == 0
    back = due + 3_600_000  # when the timeout is appended, stamped by Redis
    late = {**meta, **clocks.after_batch(meta, 0, {0, 1}, 7, until=due), "at": iso(back)}
    assert clocks.summary(late, back)["clocks"] == [{"seat": 0, "remaining_ms": 5_000},  # 0 + its increment
                                                   {"seat": 1, "remaining_ms": 15_000}]  # 25 s - the 10 s to D
    assert clocks.deadline_ms(late) == back + 5_000
    unbounded = {**meta, **clocks.after_batch(meta, 0, {0, 1}, 7), "at": iso(back)}
    assert clocks.summary(unbounded, back)["clocks"][1]["remaining_ms"] == 0  # what charging the outage would do


def test_a_move_after_the_deadline_is_refused_and_the_timeout_applied_by_redis_clock(service):
    """Whether a move is late is judged by Redis's clock, which stamped the moves, never by the
    clock of the process that got it (frozen an hour off either way here)."""
    gid = service.create("tiny", SEATS, {"turns": 4}, clock={"per_move_s": 1, "on_timeout": "autoplay"})["id"]
    t0 = stamp(service, gid)
    with freeze_time(iso(t0 + 3_600_000)):  # this process thinks the clock fell long ago: it did not
        move(service, gid, 0)
    version, due = service.load(gid).version, clocks.deadline_ms(service.store.meta(gid))
    waited = time.monotonic() + 5
    while service.store.now_ms() < due:  # seat 1 lets its second run out; nothing enforces it meanwhile
        assert time.monotonic() < waited
        time.sleep(0.05)
    with freeze_time(iso(t0 - 3_600_000)), pytest.raises(VersionConflict) as late:  # thinks it is early
        move(service, gid, 1)
    log = service.store.read(gid, after=version)
    assert late.value.current == log[-1]["seq"] and log[0]["type"] == "TimeExpired"
    assert log[0]["data"] == {"seat": 1, "policy": "autoplay"} and log[0]["command_id"] == f"clock:{gid}:{version}"
    assert json.loads(service.store.meta(gid)["clock"])["until"] == due
