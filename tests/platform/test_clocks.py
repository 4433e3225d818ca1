"""Clocks (issue 9): Fischer and per-move time controls, kept from the events' stamps; deadlines
applied by ``events.clocks.expire`` with the forfeit or autoplay policy. Time moves with freezegun."""
from __future__ import annotations

import json

import pytest
from freezegun import freeze_time

from domain.core import Illegal
from events import clocks, joining
from events.replay import verify
from tests.support.forge import rechain

T0 = "2026-03-01T12:00:00Z"
SEATS = [{"name": "ann"}, {"name": "bob"}]


def at(seconds: float) -> str:
    whole, frac = divmod(seconds, 1)
    return f"2026-03-01T12:{int(whole) // 60:02d}:{int(whole) % 60:02d}.{int(round(frac * 1000)):03d}Z"


def clock_of(service, gid):
    return {c["seat"]: c["remaining_ms"] for c in service.summary(gid, None)["clocks"]}


def move(service, gid, seat):
    g = service.load(gid)
    return service.submit(gid, seat, g.version, {"type": "pass"}, f"c{g.version}")


def test_fischer_charges_the_seat_to_act_and_adds_the_increment(service):
    with freeze_time(T0) as clock:
        gid = service.create("tiny", SEATS, {"turns": 6}, clock={"initial_s": 60, "increment_s": 5,
                                                                  "on_timeout": "autoplay"})["id"]
        summary = service.summary(gid, None)
        assert clock_of(service, gid) == {0: 60_000, 1: 60_000}
        assert summary["deadline"] == at(60)
        clock.tick(10)
        move(service, gid, 0)
        assert clock_of(service, gid) == {0: 55_000, 1: 60_000}
        clock.tick(2)
        assert clock_of(service, gid) == {0: 55_000, 1: 58_000}
        assert service.summary(gid, None)["deadline"] == at(70)


def test_the_deadline_autoplays_the_seat_once_and_it_keeps_playing(service):
    with freeze_time(T0) as clock:
        gid = service.create("tiny", SEATS, {"turns": 4}, clock={"initial_s": 60, "increment_s": 5,
                                                                  "on_timeout": "autoplay"})["id"]
        clock.tick(10)
        version = move(service, gid, 0)["version"]
        assert clocks.expire(service, gid, version, at(69.999)) is None  # not yet
        done = clocks.expire(service, gid, version, at(70))
        assert done["seat"] == 1 and done["policy"] == "autoplay"
        assert clocks.expire(service, gid, version, at(71)) is None  # a redelivered job: the version moved
        log = service.store.read(gid, after=version)
        assert log[0]["type"] == "TimeExpired" and log[0]["data"] == {"seat": 1, "policy": "autoplay"}
        assert log[0]["seat"] == 1 and log[0]["command"]["type"] in ("pass", "guess")
        assert clock_of(service, gid)[1] == 5_000  # out of time, then the increment: it plays on
        while not service.finalize(gid):
            g = service.load(gid)
            move(service, gid, min(g.game.active_seats(g.state)))
    verdict = verify(service.export(gid, admin=False))
    assert verdict.ok, verdict.problems


def test_a_move_that_lands_first_cancels_the_deadline(service):
    with freeze_time(T0) as clock:
        gid = service.create("tiny", SEATS, {"turns": 4}, clock={"per_move_s": 30, "on_timeout": "autoplay"})["id"]
        clock.tick(29.5)
        before = service.load(gid).version
        move(service, gid, 0)
        clock.tick(5)
        assert clocks.expire(service, gid, before, at(34.5)) is None
        assert clock_of(service, gid) == {0: 30_000, 1: 25_000}  # per move: a fresh allowance each move


def forfeited(service) -> str:
    """A house game whose seat 0 ran out of its 30 s per move under the forfeit policy, finished."""
    with freeze_time(T0) as clock:
        gid = service.create("house", SEATS, {"rounds": 1}, clock={"per_move_s": 30, "on_timeout": "forfeit"})["id"]
        version = service.load(gid).version
        clock.tick(30)
        assert clocks.expire(service, gid, version, at(29.999)) is None
        done = clocks.expire(service, gid, version, at(30))
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
    from events.envelope import compute_hash
    from domain.core import canonical_json
    with freeze_time(T0) as clock:
        gid = service.create("house", SEATS, {"rounds": 1}, clock={"per_move_s": 30, "on_timeout": "forfeit"})["id"]
        clock.tick(31)
        clocks.expire(service, gid, service.load(gid).version, at(31))
        service.finalize(gid)
    envs = [json.loads(line) for line in service.export(gid, admin=False)]
    conceded = next(e for e in envs if e["type"] == "SeatConceded")
    conceded["data"]["seat"] = 1
    prev = envs[0]["prev_hash"]
    for e in envs:
        e["prev_hash"], e["hash"] = prev, None
        e["hash"] = prev = compute_hash(e)
    verdict = verify(canonical_json(e) + "\n" for e in envs)
    assert verdict.chain_ok and not verdict.replay_ok


def test_the_clock_starts_when_the_last_seat_is_taken(service):
    ann = service.players.register("ann", T0)[0]
    bob = service.players.register("bob", T0)[0]
    with freeze_time(T0) as clock:
        gid = service.create("tiny", [{"open": True}, {"open": True}], {},
                             clock={"initial_s": 100, "on_timeout": "autoplay"})["id"]
        assert service.summary(gid, None)["clocks"] == [] and service.summary(gid, None)["deadline"] is None
        clock.tick(50)
        joining.join(service, gid, ann)
        joining.join(service, gid, bob)
        assert service.summary(gid, None)["deadline"] == at(150)


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
