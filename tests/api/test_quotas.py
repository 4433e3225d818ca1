"""Limits per identity: who the client is (a valid token's owner, else its address, seen
through trusted proxies only) and what one identity may hold or do."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from server import ratelimit
from server.app import create_app
from tests.api.helpers import ADMIN, auth


@pytest.fixture(autouse=True)
def still_clock(monkeypatch):
    """Every limit's window stays the same one for the whole test (mid-window: 10 s into an hour)."""
    monkeypatch.setattr(ratelimit, "clock", lambda: 1_800_000_010.0)


def _players_from(client, addresses: list[str], forwarded: list[str]) -> list[int]:
    return [client.post("/v1/players", json={"name": "x"}, environ_base={"REMOTE_ADDR": addr},
                        headers={"X-Forwarded-For": fwd}).status_code for addr, fwd in zip(addresses, forwarded)]


def test_without_trusted_proxies_x_forwarded_for_is_ignored(service):
    client = create_app(service, RATE_LIMIT=1, TRUSTED_PROXIES=0).test_client()
    # One peer, a new made-up X-Forwarded-For each time: still one client.
    assert _players_from(client, ["10.0.0.9"] * 2, ["1.1.1.1", "2.2.2.2"]) == [201, 429]


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit(service):
    client = create_app(service, RATE_LIMIT=1, TRUSTED_PROXIES=1).test_client()
    # The proxy (10.0.0.9) speaks for two clients: each gets its own budget.
    assert _players_from(client, ["10.0.0.9"] * 2, ["1.1.1.1", "2.2.2.2"]) == [201, 201]
    # Only the hop the trusted proxy added counts: a client prepending a fake address gains nothing.
    assert _players_from(client, ["10.0.0.9"], ["9.9.9.9, 1.1.1.1"]) == [429]


def _close(streams: list) -> None:
    """Last opened, first closed: each stream holds a Flask context of this thread until it ends."""
    for r in reversed(streams):
        r.close()


def _open(client, path: str, headers: dict | None = None):
    """Start a stream (its slot is held from here until close); returns the response."""
    return client.get(path, headers=headers or {}, buffered=False)


def test_a_player_token_holds_a_bounded_number_of_feeds_across_processes(service):
    """Finding: one free token opened 2,000 player feeds and the API stopped answering."""
    first, second = (create_app(service, SSE_MAX_PER_CLIENT=3, SSE_MAX_PER_ADDRESS=100, SSE_BLOCK_MS=50).test_client()
                     for _ in range(2))  # two API processes on one Redis
    token = first.post("/v1/players", json={"name": "mallory"}).json["token"]
    held = [_open(c, "/v1/players/me/stream", auth(token)) for c in (first, second, first)]
    assert [r.status_code for r in held] == [200, 200, 200]
    for c in (first, second):
        refused = _open(c, "/v1/players/me/stream", auth(token))
        assert refused.status_code == 503 and refused.json["code"] == "too_many_streams"
        assert int(refused.headers["Retry-After"]) > 0
        assert c.get("/healthz").status_code == 200
    held.pop().close()  # one closed: one more may open
    again = _open(second, "/v1/players/me/stream", auth(token))
    assert again.status_code == 200
    _close(held + [again])


@pytest.mark.parametrize("caps", [{"SSE_MAX_PER_CLIENT": 1, "SSE_MAX_PER_ADDRESS": 100},
                                  {"SSE_MAX_PER_CLIENT": 100, "SSE_MAX_PER_ADDRESS": 1}])
def test_a_refused_stream_is_told_to_retry_in_seconds_not_the_streams_longest_life(service, caps):
    """Finding: Retry-After was 330 (the oldest lease's expiry: SSE_MAX_SECONDS + 30), though a slot
    frees the moment a stream holding it ends; a client told to wait that long stops following."""
    c = create_app(service, SSE_BLOCK_MS=50, **caps).test_client()
    token = c.post("/v1/players", json={"name": "p"}).json["token"]
    held = _open(c, "/v1/players/me/stream", auth(token))
    assert held.status_code == 200
    refused = _open(c, "/v1/players/me/stream", auth(token))
    assert refused.status_code == 503 and refused.json["code"] == "too_many_streams"
    assert refused.headers["Retry-After"] == "5" and refused.json["retry_after"] == 5
    assert refused.json["detail"].endswith("close one, or retry in 5 s")
    _close([held])
    again = _open(c, "/v1/players/me/stream", auth(token))  # the slot was free as soon as the stream ended
    assert again.status_code == 200
    _close([again])


def test_streams_of_every_kind_count_together_per_token(client, service):
    app = create_app(service, SSE_MAX_PER_CLIENT=2, SSE_MAX_PER_ADDRESS=100, SSE_BLOCK_MS=50)
    c = app.test_client()
    player = c.post("/v1/players", json={"name": "p"}).json
    game = c.post("/v1/games", json={"game": "tiny", "seats": [{"name": "a"}, {"name": "b"}]}).json
    t = c.post("/v1/tournaments", headers=ADMIN, json={"game": "tiny", "format": "swiss", "table_size": 2,
                                                      "start_at": "2099-01-01T00:00:00Z"}).json
    held = [_open(c, "/v1/players/me/stream", auth(player["token"])),
            _open(c, f"/v1/games/{game['id']}/events/stream", auth(player["token"]))]
    assert [r.status_code for r in held] == [200, 200]
    third = _open(c, f"/v1/tournaments/{t['id']}/events/stream", auth(player["token"]))
    assert third.status_code == 503 and third.json["code"] == "too_many_streams"
    _close(held)


def test_made_up_authorization_headers_share_the_address_limit(service):
    """Finding: limits were keyed on the Authorization header as sent, which those routes never check."""
    c = create_app(service, VERIFY_PER_MINUTE=3, SSE_MAX_PER_ADDRESS=2, SSE_BLOCK_MS=50).test_client()
    answers = [c.post("/v1/audit/verify", data=b"{}\n", content_type="application/x-ndjson",
                      headers=auth(f"made-up-{i}")).status_code for i in range(5)]
    assert answers[:3] == [200, 200, 200] and answers[3:] == [429, 429]
    t = c.post("/v1/tournaments", headers=ADMIN, json={"game": "tiny", "format": "swiss", "table_size": 2,
                                                      "start_at": "2099-01-01T00:00:00Z"}).json
    held = [_open(c, f"/v1/tournaments/{t['id']}/events/stream", auth(f"fake-{i}")) for i in range(3)]
    assert [r.status_code for r in held] == [200, 200, 503]
    _close(held)


def test_creations_per_hour_are_limited_per_identity(service):
    c = create_app(service, GAMES_PER_HOUR=2, TOURNAMENTS_PER_HOUR=1, PLAYERS_PER_HOUR=3).test_client()
    tokens = [c.post("/v1/players", json={"name": f"p{i}"}).json.get("token") for i in range(4)]
    assert tokens[3] is None  # the fourth player from this address in the hour was refused
    limited = c.post("/v1/players", json={"name": "again"})
    assert limited.status_code == 429 and 0 < int(limited.headers["Retry-After"]) <= 3600
    body = {"game": "tiny", "seats": [{"name": "a"}, {"name": "b"}]}
    mine = [c.post("/v1/games", json=body, headers=auth(tokens[0])).status_code for _ in range(3)]
    assert mine == [201, 201, 429]
    assert c.post("/v1/games", json=body, headers=auth(tokens[1])).status_code == 201  # another player's own quota
    assert c.post("/v1/games", json=body, headers=ADMIN).status_code == 201  # the admin is not limited
    tourney = {"game": "tiny", "format": "swiss", "table_size": 2, "start_at": "2099-01-01T00:00:00Z"}
    made = [c.post("/v1/tournaments", json=tourney, headers=auth(tokens[0])) for _ in range(2)]
    assert [r.status_code for r in made] == [201, 429] and made[1].json["code"] == "rate_limited"


def test_a_player_sits_in_a_bounded_number_of_unfinished_games(service):
    c = create_app(service, ACTIVE_GAMES_PER_PLAYER=2).test_client()
    p = c.post("/v1/players", json={"name": "busy"}).json
    games = [c.post("/v1/games", json={"game": "tiny", "seats": [{"open": True}, {"open": True}]}).json["id"]
             for _ in range(3)]
    joins = [c.post(f"/v1/games/{g}/join", json={}, headers=auth(p["token"])) for g in games]
    assert [j.status_code for j in joins] == [201, 201, 429] and joins[2].json["code"] == "too_many_active_games"
    c.post(f"/v1/games/{games[0]}/leave", headers=auth(p["token"]))
    assert c.post(f"/v1/games/{games[2]}/join", json={}, headers=auth(p["token"])).status_code == 201


def test_a_tournament_plans_a_bounded_amount_of_work(client, monkeypatch):
    """Finding: any player could create a 256-bot round robin at table size 2 (32,640 games)."""
    p = client.post("/v1/players", json={"name": "org"}).json
    rr = {"game": "tiny", "format": "round-robin", "table_size": 2, "entrants": [{"bot": "random"}] * 256}
    huge = client.post("/v1/tournaments", json=rr, headers=auth(p["token"]))
    assert huge.status_code == 422 and huge.json["code"] in ("too_many_entrants", "too_many_games")
    monkeypatch.setenv("DELVE_TOURNAMENT_MAX_ENTRANTS", "1000")
    games = client.post("/v1/tournaments", json=rr, headers=auth(p["token"]))
    assert games.status_code == 422 and games.json["code"] == "too_many_games" and "32640" in games.json["detail"]
    monkeypatch.setenv("DELVE_TOURNAMENT_MAX_ENTRANTS", "4")
    t = client.post("/v1/tournaments", headers=auth(p["token"]), json={
        "game": "tiny", "format": "swiss", "table_size": 2, "start_at": "2099-01-01T00:00:00Z",
        "entrants": [{"bot": "random"}] * 4}).json
    full = client.post(f"/v1/tournaments/{t['id']}/entrants", json={"bot": "random"}, headers=auth(p["token"]))
    assert full.status_code == 422 and full.json["code"] == "too_many_entrants"


def test_players_registering_at_once_all_get_in(app, service):
    """Finding: parallel registrations answered 409 version_conflict."""
    client = app.test_client()
    t = client.post("/v1/tournaments", headers=ADMIN, json={
        "game": "tiny", "format": "swiss", "table_size": 2, "start_at": "2099-01-01T00:00:00Z",
        "clock": {"per_move_s": 60, "on_timeout": "forfeit"}}).json
    players = [client.post("/v1/players", json={"name": f"p{i}"}).json for i in range(8)]

    def enter(p):
        return app.test_client().post(f"/v1/tournaments/{t['id']}/entrants", json={"player": p["id"]},
                                      headers=auth(p["token"])).status_code

    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(enter, players, timeout=60)) == [201] * 8
    assert len(client.get(f"/v1/tournaments/{t['id']}").json["entrants"]) == 8


def test_the_admin_token_is_not_held_to_the_per_identity_stream_caps(service):
    c = create_app(service, SSE_MAX_PER_CLIENT=1, SSE_MAX_PER_ADDRESS=1, SSE_BLOCK_MS=50).test_client()
    game = c.post("/v1/games", json={"game": "tiny", "seats": [{"name": "a"}, {"name": "b"}]}).json
    held = [_open(c, f"/v1/games/{game['id']}/events/stream", ADMIN) for _ in range(3)]
    assert [r.status_code for r in held] == [200, 200, 200]
    _close(held)


def test_an_ipv6_client_is_counted_by_its_64_prefix(service):
    client = create_app(service, PLAYERS_PER_HOUR=1).test_client()
    made = [client.post("/v1/players", json={"name": "x"}, environ_base={"REMOTE_ADDR": addr}).status_code
            for addr in ("2001:db8:1:2::1", "2001:db8:1:2::ffff", "2001:db8:1:3::1")]
    assert made == [201, 429, 201]  # a second address of the same /64 is the same client
