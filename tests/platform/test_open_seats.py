"""Open seats, joins and seeds no one can pick (issue 9), through the service against a real Redis."""
from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from domain import registry
from domain.core import Drbg, Illegal, Seat
from domain.kit import START_STREAM
from errors import Forbidden
from application import joining, seeding
from application.replay import verify
from application.access import ADMIN
from tests.support.forge import envelopes, rechain

E0, E1 = "aa" * 32, "0123456789abcdef"


@pytest.fixture
def ann(service):
    return service.players.register("ann", "2026-01-01T00:00:00.000Z")[0]


@pytest.fixture
def bob(service):
    return service.players.register("bob", "2026-01-01T00:00:00.000Z")[0]


def open_game(service, creator=None, visibility="public", seats=None):
    return service.create("tiny", seats or [{"open": True}, {"open": True}], {"turns": 2}, creator=creator,
                          visibility=visibility)


def play_out(service, gid):
    while not service.finalize(gid):
        g = service.load(gid)
        seat = min(g.game.active_seats(g.state))
        service.submit(gid, seat, g.version, {"type": "pass"}, f"c{g.version}")


def test_an_open_game_deals_nothing_until_the_last_seat_is_taken(service, store, ann, bob):
    created = open_game(service, creator=ann.id)
    gid = created["id"]
    assert created["status"] == "open" and created["version"] == 1
    assert all(s["open"] and s["token"] is None for s in created["seats"])
    assert [e["type"] for e in store.read(gid)] == ["GameCreated"]
    with pytest.raises(Illegal) as exc:
        service.submit(gid, 0, 1, {"type": "pass"}, "early")
    assert exc.value.code == "game_not_started"

    first = joining.join(service, gid, ann, entropy=E0)
    assert first == {"seat": 0, "version": 2, "status": "open"}
    assert [e["type"] for e in store.read(gid)] == ["GameCreated", "SeatTaken"]
    second = joining.join(service, gid, bob, entropy=E1.upper())
    assert second["seat"] == 1 and second["status"] == "active"
    types = [e["type"] for e in store.read(gid)]
    assert types[:4] == ["GameCreated", "SeatTaken", "SeatTaken", "GameStarted"] and "SecretDealt" in types
    summary = service.summary(gid, None)
    assert summary["status"] == "active" and [s["player"] for s in summary["seats"]] == [ann.id, bob.id]


def test_the_seed_is_the_hmac_of_the_server_seed_over_the_entropies(service, store, ann, bob):
    gid = open_game(service)["id"]
    joining.join(service, gid, ann, entropy=E0)
    joining.join(service, gid, bob, entropy=E1)
    audit = service.audit(gid)
    assert audit["entropy"] == [{"seat": 0, "value": E0}, {"seat": 1, "value": E1}]
    assert audit["seed"] is None and audit["server_seed"] is None
    play_out(service, gid)
    audit = service.audit(gid)
    server_seed = bytes.fromhex(audit["server_seed"])
    assert hashlib.sha256(server_seed).hexdigest() == audit["server_seed_commitment"]
    expected = hmac.new(server_seed, bytes.fromhex(E0 + E1), hashlib.sha256).hexdigest()
    assert audit["seed"] == expected
    verdict = verify(service.export(gid, admin=False))
    assert verdict.ok, verdict.problems


def played_export(service, ann, bob) -> list[dict]:
    """The envelopes of a finished game ann and bob joined with entropies E0 and E1."""
    gid = open_game(service)["id"]
    joining.join(service, gid, ann, entropy=E0)
    joining.join(service, gid, bob, entropy=E1)
    play_out(service, gid)
    return envelopes(service.export(gid, admin=False))


def _other_deal(envs: list[dict]) -> str:
    """An entropy for seat 1 whose derived seed deals other digits than the record's (the tiny
    game deals a digit a seat: one entropy in a hundred would deal the same two by chance)."""
    server_seed = bytes.fromhex(next(e for e in envs if e["type"] == "SeedRevealed")["data"]["seed"])
    first = bytes.fromhex(next(e for e in envs if e["type"] == "SeatTaken" and e["data"]["seat"] == 0)["data"]["entropy"])
    game = registry.get("tiny")
    dealt = [e["data"] for e in envs if e["type"] == "SecretDealt"]
    assert len(dealt) == 2 and all("digit" in d for d in dealt), dealt  # revealed once the game is over
    for n in range(256):  # bounded: each try is 1 % likely to deal the same
        forged = f"{n:02x}ff"
        seed = seeding.derive(server_seed, [first, bytes.fromhex(forged)])
        options = envs[0]["data"]["options"]
        deal = game.start(options, [Seat(0, "p0"), Seat(1, "p1")], Drbg(seed, START_STREAM))
        if [e["data"] for e in deal if e["type"] == "SecretDealt"] != dealt:
            return forged
    raise AssertionError("no entropy of 256 deals other digits")


def test_verify_checks_the_derivation_not_just_the_chain(service, ann, bob):
    """Entropy rewritten consistently (and every hash recomputed) no longer yields the dealt secrets."""
    envs = played_export(service, ann, bob)
    forged = _other_deal(envs)
    for e in envs:
        if e["type"] == "SeatTaken" and e["data"]["seat"] == 1:
            e["data"]["entropy"] = forged
        if e["type"] == "GameStarted":
            e["data"]["entropy"][1]["value"] = forged
        if e["type"] == "SeedRevealed":
            e["data"].pop("game_seed")
    verdict = verify(rechain(envs))
    assert verdict.chain_ok and not verdict.replay_ok
    assert "start events differ" in verdict.problems[0]["problem"]


def test_verify_refuses_a_start_that_does_not_match_the_joins(service, ann, bob):
    envs = played_export(service, ann, bob)
    started = next(e for e in envs if e["type"] == "GameStarted")
    started["data"]["entropy"][0]["value"] = "00"
    verdict = verify(rechain(envs))
    assert not verdict.ok and verdict.problems[0]["seq"] == started["seq"]


def test_full_games_keep_the_old_shape_and_verify(service, store):
    gid = service.create("tiny", [{"name": "a"}, {"name": "b"}], {"turns": 2})["id"]
    assert [e["type"] for e in store.read(gid)][:2] == ["GameCreated", "TableSet"]
    play_out(service, gid)
    revealed = next(e for e in store.read(gid) if e["type"] == "SeedRevealed")
    assert set(revealed["data"]) == {"seed"}
    assert verify(service.export(gid, admin=False)).ok


def test_join_rules(service, ann, bob):
    carl = service.players.register("carl", "2026-01-01T00:00:00.000Z")[0]
    gid = open_game(service, seats=[{"player": bob.id}, {"open": True}, {"name": "anon"}])["id"]

    def refused(code, *args, **kw):
        with pytest.raises(Illegal) as exc:
            joining.join(service, gid, *args, **kw)
        assert exc.value.code == code

    refused("seat_reserved", ann, seat=0)
    refused("bad_entropy", ann, entropy="xyz")
    refused("bad_entropy", ann, entropy="ab" * 65)
    refused("no_such_seat", ann, seat=7)
    refused("seat_taken", ann, seat=2)
    assert joining.join(service, gid, ann)["seat"] == 1
    refused("already_seated", ann)
    refused("no_open_seat", carl)
    assert joining.leave(service, gid, ann)["seat"] == 1
    with pytest.raises(Illegal) as exc:
        joining.leave(service, gid, ann)
    assert exc.value.code == "not_seated"
    assert joining.join(service, gid, bob)["seat"] == 0  # the reservation first
    assert joining.join(service, gid, carl)["status"] == "active"
    refused("game_not_open", ann)
    assert verify_after_end(service, gid)


def verify_after_end(service, gid):
    play_out(service, gid)
    verdict = verify(service.export(gid, admin=False))
    assert verdict.ok, verdict.problems
    return True


def test_a_player_token_speaks_for_its_seat(service, ann, bob):
    gid = open_game(service)["id"]
    tokens = {}
    for who in ("ann", "bob"):
        player, token = service.players.register(who, "2026-01-01T00:00:00.000Z")
        tokens[who] = token
        joining.join(service, gid, player)
    assert service.authenticate(gid, tokens["ann"]) == 0
    assert service.authenticate(gid, tokens["bob"]) == 1
    _other, stranger = service.players.register("eve", "2026-01-01T00:00:00.000Z")
    assert service.authenticate(gid, stranger) is None  # a public game: a spectator


def test_cancel_by_the_creator_or_the_admin_only(service, ann, bob):
    gid = open_game(service, creator=ann.id)["id"]
    joining.join(service, gid, bob)
    with pytest.raises(Forbidden):
        joining.cancel(service, gid, bob)
    with pytest.raises(Forbidden):
        joining.cancel(service, gid, None)
    assert joining.cancel(service, gid, ann)["status"] == "aborted"
    with pytest.raises(Illegal):
        joining.join(service, gid, ann)
    gid2 = open_game(service)["id"]
    assert joining.cancel(service, gid2, ADMIN)["status"] == "aborted"
    verdict = verify(service.store.export(gid))
    assert verdict.ok, verdict.problems


def test_nothing_follows_the_end_of_a_cancelled_game(service, ann, bob):
    """The replay stops at GameCancelled (nothing was dealt): what a forger adds after it fails all the same."""
    gid = open_game(service, creator=ann.id)["id"]
    joining.join(service, gid, bob)
    joining.cancel(service, gid, ann)
    envs = envelopes(service.store.export(gid))
    assert [e["type"] for e in envs[-2:]] == ["GameCancelled", "SeedRevealed"]
    verdict = verify(rechain(envs + [dict(envs[1], seq=len(envs) + 1)]))
    assert verdict.chain_ok and not verdict.ok
    assert verdict.problems[0]["seq"] == len(envs) + 1
    assert verdict.problems[0]["problem"].startswith(f"SeatTaken after the game's end (GameCancelled, SeedRevealed "
                                                     f"from seq {len(envs) - 1})")


def test_private_games_stay_out_of_the_lobby_and_need_a_token(service, ann, bob):
    created = open_game(service, creator=ann.id, visibility="private")
    gid, invite = created["id"], created["invite_token"]
    public = open_game(service)["id"]
    listed = [g["id"] for g in service.list_games(None, "open", 0, 50)["games"]]
    assert public in listed and gid not in listed
    assert gid not in [g["id"] for g in service.list_games("tiny", None, 0, 50)["games"]]
    with pytest.raises(Forbidden) as exc:
        service.authenticate(gid, None)
    assert exc.value.code == "private_game"
    assert service.authenticate(gid, invite) is None
    _eve, eve_token = service.players.register("eve", "2026-01-01T00:00:00.000Z")
    with pytest.raises(Forbidden):
        service.authenticate(gid, eve_token)
    joining.join(service, gid, ann)
    assert service.authenticate(gid, invite) is None
    from application.players import profile
    assert gid not in [g["id"] for g in profile(service.players, service.store, ann.id, {}, [])["games"]]


def test_lobby_lists_open_games_with_their_open_seats(service, ann):
    gid = open_game(service)["id"]
    joining.join(service, gid, ann)
    item = next(g for g in service.list_games("tiny", "open", 0, 50)["games"] if g["id"] == gid)
    assert item["open_seats"] == 1 and item["status"] == "open"
    assert gid not in [g["id"] for g in service.list_games(None, "active", 0, 50)["games"]]


def test_a_join_decided_on_a_meta_read_before_another_process_dealt_the_game_is_refused(
        service, store, r, prefix, signer, ann, bob):
    """Two processes race to seat a game's players (a tournament table ensured twice): the one
    that reads the meta while the game is open and its events after the other dealt it must
    not append a SeatTaken after the deal (found by a tournament export that failed to verify)."""
    from application.service import GameService
    from events.store import RedisEventStore
    gid = open_game(service, seats=[{"open": True, "reserved": ann.id}, {"open": True, "reserved": bob.id}])["id"]
    joining.join(service, gid, ann, entropy=E0)
    other = GameService(RedisEventStore(r, prefix=prefix), admin_token="admin-secret", signer=signer)
    states, load = other.store.states, other.store.states.load

    def load_after_the_deal(*args, **kwargs):  # the first process fills the table between the two reads
        states.load = load
        joining.join(service, gid, bob, entropy=E1)
        return load(*args, **kwargs)

    states.load = load_after_the_deal
    with pytest.raises(Illegal) as exc:
        joining.join(other, gid, other.players.get(bob.id), seat=1)
    assert exc.value.code == "game_not_open"
    assert [e["type"] for e in store.read(gid)].count("SeatTaken") == 2
