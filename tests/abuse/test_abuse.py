"""One free player token against everyone else (the security probe's findings, one test each).

A real API under gunicorn (two processes, the default quotas) on 127.0.0.1 with its own Redis.
Every attack is bounded in count and time; after (and during) each, a bystander's requests --
/healthz and another player's game -- must be answered, and their latency goes to the tally.
"""
from __future__ import annotations

import json
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import settings
from tests.abuse import tally
from tests.faults.support import Redis, api

pytestmark = pytest.mark.slow
CLOCK = {"per_move_s": 1, "on_timeout": "forfeit"}
PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    redis = Redis(tmp_path_factory.mktemp("abuse-redis"))
    try:
        # Every quota at its default (the harness lifts them): as an operator runs it.
        defaults = {name: settings.SETTINGS[name].default for name in settings.UNLIMITED}
        with api(redis.url, workers=2, env=defaults) as a:
            yield a
    finally:
        redis.stop()


@pytest.fixture(scope="module")
def victim(server):
    """Another player and their game, which must stay answered whatever the attacker does."""
    status, player, _ = server.call("POST", "/v1/players", {"name": "victim"})
    assert status == 201
    status, game, _ = server.call("POST", "/v1/games", {"game": "tiny", "seats": [{"name": "v"}, {"name": "w"}]},
                                  token=player["token"])
    assert status == 201
    return {"player": player, "game": game["id"], "token": game["seats"][0]["token"]}


@pytest.fixture(scope="module")
def attacker(server):
    status, player, _ = server.call("POST", "/v1/players", {"name": "mallory"})
    assert status == 201
    return player


def bystander(server, victim, attack: str) -> None:
    """/healthz and the victim's game answer; how long they took goes to the tally."""
    for path, token in (("/healthz", None), (f"/v1/games/{victim['game']}", victim["token"])):
        start = time.monotonic()
        status, _body, _ = server.call("GET", path, token=token, timeout=10)
        tally.record(attack, time.monotonic() - start)
        assert status == 200, (attack, path)


def raw(port: int, data: bytes, timeout: float = 10.0) -> tuple[int, dict, bytes]:
    """Send bytes as they are; the status, headers and body of the answer (the server closes)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        got = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
            head, sep, body = got.partition(b"\r\n\r\n")
            length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), None)
            if sep and length is not None and len(body) >= length:
                break
    head, _, body = got.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def open_stream(port: int, path: str, token: str | None = None) -> tuple[socket.socket, int]:
    """A stream request left open; its status line."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\n{auth}Accept: text/event-stream\r\n\r\n".encode())
    first = s.recv(4096)
    return s, int(first.split(b" ", 2)[1])


def close_all(socks: list[socket.socket]) -> None:
    for s in socks:
        s.close()


def test_one_token_cannot_hold_the_api_with_player_feeds(server, victim, attacker):
    """Finding 1: 2,000 feeds of one token stopped /healthz for everyone."""
    opened = [open_stream(server.port, "/v1/players/me/stream", attacker["token"]) for _ in range(40)]
    try:
        statuses = [status for _s, status in opened]
        assert statuses.count(200) == 8 and statuses.count(503) == 32  # DELVE_SSE_MAX_PER_CLIENT, across processes
        bystander(server, victim, "player feeds")
        status, _body, _ = server.call("POST", "/v1/players", {"name": "newcomer"})
        assert status == 201
    finally:
        close_all([s for s, _ in opened])


def test_made_up_authorization_headers_do_not_make_new_clients(server, victim):
    """Finding 4: a made-up header per request got 20/20 verifications and 20/20 tournament streams."""
    answers = [server.call("POST", "/v1/audit/verify", None, token=f"made-up-{i}",
                           headers={"Content-Type": "application/x-ndjson"})[0] for i in range(20)]
    assert answers.count(200) <= 12 and answers.count(429) >= 8  # DELVE_VERIFY_PER_MINUTE, per address
    status, t, _ = server.call("POST", "/v1/tournaments", {"game": "tiny", "format": "swiss", "table_size": 2,
                                                           "start_at": "2099-01-01T00:00:00Z"}, token="fault-admin")
    assert status == 201
    opened = [open_stream(server.port, f"/v1/tournaments/{t['id']}/events/stream", f"fake-{i}") for i in range(40)]
    try:
        assert [status for _s, status in opened].count(200) <= 32  # DELVE_SSE_MAX_PER_ADDRESS
        bystander(server, victim, "made-up headers")
    finally:
        close_all([s for s, _ in opened])


def test_a_private_game_cannot_be_joined_or_read_without_its_invite(server, victim, attacker):
    """Finding 2: any player token joined a private game with {} and read it as a seat."""
    status, game, _ = server.call("POST", "/v1/games", {"game": "tiny", "visibility": "private",
                                                        "seats": [{"name": "v"}, {"open": True}]},
                                  token=victim["player"]["token"])
    assert status == 201
    status, body, _ = server.call("POST", f"/v1/games/{game['id']}/join", {}, token=attacker["token"])
    assert (status, body["code"]) == (403, "private_game")
    for path in ("", "/events", "/legal-actions", "/audit", "/scores"):
        status, body, _ = server.call("GET", f"/v1/games/{game['id']}{path}", token=attacker["token"])
        assert (status, body["code"]) == (403, "private_game"), path
    bystander(server, victim, "private game")


def test_an_organizer_cannot_enter_another_player(server, victim, attacker):
    """Finding 3: a victim registered into a 1-second forfeit tournament lost by forfeit and got a rating."""
    vid = victim["player"]["id"]
    status, t, _ = server.call("POST", "/v1/tournaments", {
        "game": "tiny", "format": "round-robin", "table_size": 2, "clock": CLOCK,
        "entrants": [{"player": vid}, {"bot": "random"}]}, token=attacker["token"])
    assert status == 201 and t["invited"] == [vid] and t["status"] == "registering"
    status, _body, _ = server.call("POST", f"/v1/tournaments/{t['id']}/start", token=attacker["token"])
    status, after, _ = server.call("GET", f"/v1/tournaments/{t['id']}")
    assert vid not in [e.get("player") for e in after["entrants"]]
    assert server.call("GET", f"/v1/players/{vid}")[1]["ratings"] == {}
    bystander(server, victim, "consent")


def test_one_token_cannot_plan_unbounded_work(server, victim, attacker):
    """Finding 5: a 256-bot round robin (32,640 games), 10,000 entrants, 409s on parallel entries."""
    status, body, _ = server.call("POST", "/v1/tournaments", {
        "game": "tiny", "format": "round-robin", "table_size": 2, "entrants": [{"bot": "random"}] * 256},
        token=attacker["token"])
    assert status == 422 and body["code"] in ("too_many_entrants", "too_many_games")
    status, t, _ = server.call("POST", "/v1/tournaments", {"game": "tiny", "format": "swiss", "table_size": 2,
                                                           "start_at": "2099-01-01T00:00:00Z", "clock": CLOCK},
                               token=attacker["token"])
    assert status == 201
    codes = []
    for _ in range(140):  # bounded: past the cap every answer is the same refusal
        status, body, _ = server.call("POST", f"/v1/tournaments/{t['id']}/entrants", {"bot": "random"},
                                      token=attacker["token"])
        codes.append(body.get("code") if status != 201 else 201)
    assert codes.count(201) == 128 and set(codes[128:]) == {"too_many_entrants"}
    bystander(server, victim, "unbounded work")
    # Parallel entries by their own players all get in (no 409 version_conflict).
    status, open_t, _ = server.call("POST", "/v1/tournaments", {"game": "tiny", "format": "swiss", "table_size": 2,
                                                                "start_at": "2099-01-01T00:00:00Z", "clock": CLOCK},
                                    token=attacker["token"])
    players = [server.call("POST", "/v1/players", {"name": f"racer{i}"})[1] for i in range(8)]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda p: server.call("POST", f"/v1/tournaments/{open_t['id']}/entrants",
                                                      {"player": p["id"]}, token=p["token"])[0], players, timeout=60))
    assert answers == [201] * 8
    # Games per hour, per identity.
    made = [server.call("POST", "/v1/games", {"game": "tiny", "seats": [{"name": "a"}, {"name": "b"}]},
                        token=attacker["token"])[0] for _ in range(62)]
    assert made.count(201) <= 60 and made[-1] == 429
    bystander(server, victim, "unbounded work")


def test_bad_input_is_a_problem_never_a_500(server, victim, attacker):
    """Finding 6: three inputs answered 500."""
    deep = b"[" * 100_000 + b"]" * 100_000
    # With the player's token: this address spent its anonymous verifications above.
    status, headers, body = raw(server.port, b"POST /v1/audit/verify HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer "
                                + attacker["token"].encode() + b"\r\nContent-Type: application/x-ndjson\r\n"
                                b"Content-Length: %d\r\n\r\n" % len(deep) + deep)
    assert status == 200 and json.loads(body)["ok"] is False
    for start_at in ("9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59", "9999-12-31T23:59:59Z"):
        status, body, _ = server.call("POST", "/v1/tournaments", {"game": "tiny", "format": "swiss", "table_size": 2,
                                                                  "start_at": start_at}, token=attacker["token"])
        assert (status, body["code"]) == (422, "start_at_out_of_range"), start_at
    status, headers, body = raw(server.port, b"POST /v1/players HTTP/1.1\r\nHost: t\r\nContent-Type: application/json"
                                b"\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
    assert status == 400 and headers["content-type"] == PROBLEM, body
    bystander(server, victim, "bad input")


@pytest.mark.parametrize("request_bytes, status", [
    (b"GET /healthz HTTP/1.1\r\nHost: t\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(200)) + b"\r\n", 431),
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: t\r\n\r\n", 414),
    (b"POST /v1/players HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
], ids=["huge-headers", "long-uri", "chunked-and-length"])
def test_the_servers_own_refusals_are_problems(server, victim, request_bytes, status):
    """Finding 7: gunicorn answered these as text/html."""
    got, headers, body = raw(server.port, request_bytes)
    assert got == status and headers["content-type"] == PROBLEM
    problem = json.loads(body)
    assert problem["status"] == status and problem["code"]
    bystander(server, victim, "server refusals")
