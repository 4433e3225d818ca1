"""The application service: create, submit, finalize, redaction, replay, verify."""
from __future__ import annotations

import json
import time
from datetime import datetime

import pytest
from freezegun import freeze_time

from domain.core import Illegal, canonical_json
from errors import Forbidden, NotActive, VersionConflict
from application.replay import verify
from application.access import ADMIN
from tests.support.forge import envelopes

SEATS = [{"name": "ann"}, {"name": "bob"}]


def new(service, turns=4, seats=SEATS):
    return service.create("tiny", seats, {"turns": turns})


def play_out(service, gid):
    while True:
        g = service.load(gid)
        if g.game.is_terminal(g.state):
            break
        seat = min(g.game.active_seats(g.state))
        service.submit(gid, seat, g.version, {"type": "guess", "target": 1 - seat, "digit": 3}, f"c{g.version}")
    assert service.finalize(gid)


def test_create_returns_tokens_once_and_stores_only_hashes(service, store):
    created = new(service)
    assert [s["seat"] for s in created["seats"]] == [0, 1]
    meta = store.meta(created["id"])
    for s in created["seats"]:
        assert s["token"] not in json.dumps(meta)
        assert service.authenticate(created["id"], s["token"]) == s["seat"]
    with pytest.raises(Forbidden):
        service.authenticate(created["id"], "forged")
    assert service.authenticate(created["id"], "admin-secret") == ADMIN


def test_bad_player_count_and_unknown_bot(service):
    with pytest.raises(Illegal) as e:
        service.create("tiny", [{"name": "solo"}], {})
    assert e.value.code == "bad_player_count"
    with pytest.raises(Illegal) as e:
        service.create("tiny", [{"name": "a"}, {"name": "b", "bot": "genius"}], {})
    assert e.value.code == "unknown_bot"


def test_version_check_comes_before_validation(service):
    gid = new(service)["id"]
    with pytest.raises(VersionConflict) as e:
        service.submit(gid, 0, 99, "not even a command", "x")
    assert e.value.current == service.load(gid).version


def test_illegal_command_writes_nothing(service, store):
    gid = new(service)["id"]
    v = service.load(gid).version
    with pytest.raises(Illegal) as e:
        service.submit(gid, 1, v, {"type": "pass"}, "x")
    assert (e.value.code, e.value.rule) == ("not_your_turn", "TINY-2")
    assert store.version(gid) == v


def test_secrets_are_redacted_for_other_seats_and_spectators(service):
    created = new(service)
    gid = created["id"]
    full = service.events(gid, ADMIN)["events"]
    digits = {e["data"]["seat"]: e["data"]["digit"] for e in full if e["type"] == "SecretDealt"}
    for seat in (0, 1, None):
        evs = service.events(gid, seat)["events"]
        dealt = {e["data"]["seat"]: e["data"].get("digit") for e in evs if e["type"] == "SecretDealt"}
        for owner, digit in dealt.items():
            assert digit == (digits[owner] if owner == seat else None)
        assert all("hash" not in e for e in evs)
    assert service.summary(gid, 0)["view"]["my_digit"] == digits[0]
    assert service.summary(gid, None)["view"]["my_digit"] is None


def test_finalize_reveals_seed_and_scores_then_verifies(service):
    gid = new(service)["id"]
    assert not service.finalize(gid)  # not over yet
    play_out(service, gid)
    assert not service.finalize(gid)  # idempotent
    envs = service.events(gid, None, limit=1000)["events"]
    assert [e["type"] for e in envs[-2:]] == ["SeedRevealed", "GameFinished"]
    assert service.audit(gid)["seed"] == envs[-2]["data"]["seed"]
    with pytest.raises(NotActive):
        service.submit(gid, 0, service.load(gid).version, {"type": "pass"}, "late")
    verdict = verify(service.export(gid, admin=False))
    assert verdict.ok and verdict.chain_ok and verdict.replay_ok, verdict.problems


def test_export_before_end_needs_admin(service):
    gid = new(service)["id"]
    with pytest.raises(Forbidden):
        service.export(gid, admin=False)
    lines = list(service.export(gid, admin=True))
    assert len(envelopes(lines)) == service.load(gid).version
    assert json.loads(lines[-1])["signature"]["statement"]["kind"] == "seed_commitment"  # no record yet


def test_verify_names_first_tampered_seq(service):
    gid = new(service)["id"]
    play_out(service, gid)
    lines = list(service.export(gid, admin=False))
    env = json.loads(lines[5])
    env["data"]["digit"] = 7 if env["data"].get("digit") != 7 else 8
    lines[5] = canonical_json(env) + "\n"
    verdict = verify(lines)
    assert not verdict.ok and not verdict.chain_ok
    assert verdict.problems[0]["seq"] == 6


def test_verify_detects_rewritten_chain_by_replay(service):
    """A forger who recomputes every hash still fails: the replay disagrees."""
    from events.envelope import compute_hash
    gid = new(service)["id"]
    play_out(service, gid)
    envs = envelopes(service.export(gid, admin=False))
    target = next(e for e in envs if e["type"] == "Guessed")
    target["data"]["hit"] = not target["data"]["hit"]
    prev = envs[0]["prev_hash"]
    for e in envs:
        e["prev_hash"] = prev
        e["hash"] = compute_hash(e)
        prev = e["hash"]
    verdict = verify(canonical_json(e) + "\n" for e in envs)
    assert verdict.chain_ok and not verdict.replay_ok
    assert verdict.problems[0]["seq"] == target["seq"]


def test_replay_fold_equals_state_held_at_every_version(service, store):
    gid = new(service, turns=9)["id"]
    held = {}
    while True:
        g = service.load(gid)
        held[g.version] = g.game.dump_state(g.state)
        if g.game.is_terminal(g.state):
            break
        seat = min(g.game.active_seats(g.state))
        service.submit(gid, seat, g.version, {"type": "pass"}, f"c{g.version}")
    store.r.delete(store.keys.snap(gid))  # force a full fold from the log
    for version, state in held.items():
        assert service.load(gid, upto=version).game.dump_state(service.load(gid, upto=version).state) == state


@freeze_time("2026-03-01 12:00:00")
def test_timestamps_come_from_the_redis_clock_not_the_process_clock(service, store):
    """A process whose clock is months off still stamps events with Redis TIME (issue 7, item 8)."""
    secs, _micros = store.r.time()
    gid = new(service)["id"]
    at = service.summary(gid, None)["created_at"]
    assert not at.startswith("2026-03-01")
    stamped = datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()
    assert abs(stamped - secs) < 5
    assert all(e["at"] == at for e in service.events(gid, ADMIN)["events"])


def test_bot_turn_rechecks_version(service):
    gid = service.create("tiny", [{"name": "a", "bot": "random"}, {"name": "b", "bot": "random"}], {})["id"]
    v = service.load(gid).version
    assert service.bot_turn(gid, v - 1) is None
    assert service.bot_turn(gid, v)["version"] == v + 1
    assert service.bot_turn(gid, v) is None


def test_lobby_lists_and_filters(service):
    a = new(service)["id"]
    b = new(service)["id"]
    play_out(service, b)
    assert {g["id"] for g in service.list_games(None, None, 0, 10)["games"]} == {a, b}
    assert [g["id"] for g in service.list_games("tiny", "finished", 0, 10)["games"]] == [b]
    assert [g["id"] for g in service.list_games(None, "active", 0, 10)["games"]] == [a]


def test_a_second_process_sees_appends_made_through_the_first(service, store):
    """Each process caches states; another process's appends must still show."""
    from application.service import GameService
    from events.store import RedisEventStore
    other = GameService(RedisEventStore(store.r, prefix=store.keys.prefix, snapshot_every=5))
    gid = new(service, turns=6)["id"]
    for turn in range(6):
        me, them = (service, other) if turn % 2 == 0 else (other, service)
        g = them.load(gid)  # warms that process's cache at the old version
        me.submit(gid, turn % 2, g.version, {"type": "pass"}, f"c{turn}")
        assert them.load(gid).version == g.version + 1
        assert them.load(gid).game.dump_state(them.load(gid).state) == me.load(gid).game.dump_state(me.load(gid).state)
    assert service.load(gid).game.is_terminal(service.load(gid).state)


def test_cache_off_gives_the_same_states(service, store):
    from application.service import GameService
    from events.store import RedisEventStore
    uncached = GameService(RedisEventStore(store.r, prefix=store.keys.prefix, snapshot_every=5, cache_size=0))
    gid = new(service, turns=5)["id"]
    play_out(service, gid)
    assert uncached.load(gid).game.dump_state(uncached.load(gid).state) == \
        service.load(gid).game.dump_state(service.load(gid).state)


def test_waiting_longer_than_the_socket_timeout_is_a_quiet_wait(service, store, redis_url):
    """SSE blocks on XREAD; a client socket timeout shorter than the block must not crash it."""
    import redis as redis_lib

    from application.service import GameService
    from events.store import RedisEventStore
    gid = new(service)["id"]
    impatient = GameService(RedisEventStore(redis_lib.Redis.from_url(redis_url, socket_timeout=0.3),
                                            prefix=store.keys.prefix))
    version = service.load(gid).version
    follow = impatient.follow_events(gid, 0, version, 1000, time.monotonic() + 60, store.meta(gid))
    assert next(follow) == []  # a keep-alive, not an error
    follow.close()


def test_a_command_that_changes_nothing_is_refused(service, store, monkeypatch):
    from tests.support.tinygame import GAME
    gid = new(service)["id"]
    v = service.load(gid).version
    monkeypatch.setattr(GAME, "decide", lambda *a: [])
    with pytest.raises(Illegal) as e:
        service.submit(gid, 0, v, {"type": "pass"}, "x")
    assert e.value.code == "no_effect" and store.version(gid) == v
    with pytest.raises(ValueError):
        store.append(gid, v, [], expected_head=store.meta(gid)["head"], seat=0, command_id="x", command=None,
                     rules_version="tiny-1")
