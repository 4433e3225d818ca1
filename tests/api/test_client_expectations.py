"""What lichess- and boardgame.io-style clients expect (issue 12, item 5): an NDJSON
stream whose first line is the caller's full view, CORS from configured origins,
cursor pagination with Link headers."""
from __future__ import annotations

import json

import jsonschema
import pytest

from server import spec
from server.app import create_app
from tests.api.helpers import auth, tiny_game

NDJSON = {"Accept": "application/x-ndjson"}


@pytest.fixture
def game(client):
    return tiny_game(client, turns=2)


def act(client, game, seat):
    version = client.get(f"/v1/games/{game['id']}").json["version"]
    return client.post(f"/v1/games/{game['id']}/actions", headers=auth(game["seats"][seat]["token"]),
                       json={"expected_version": version, "command": {"type": "pass"}})


def ndjson_lines(client, gid, headers, until):
    """Lines of the NDJSON stream, read until ``until(lines)`` holds (bounded)."""
    resp = client.get(f"/v1/games/{gid}/events/stream", headers={**NDJSON, **headers}, buffered=False)
    assert resp.mimetype == "application/x-ndjson"
    lines, text = [], ""
    for chunk in resp.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        *done, text = text.split("\n")
        lines += done
        if until(lines) or len(lines) > 200:
            break
    resp.close()
    return lines


def assert_stream_lines(lines):
    """Each non-empty line is a StreamLine as the spec declares it."""
    validator = jsonschema.Draft202012Validator({"$ref": "#/components/schemas/StreamLine", **spec.document()})
    for line in lines:
        if line:
            validator.validate(json.loads(line))


def test_ndjson_stream_starts_with_the_callers_full_view(client, game):
    token = game["seats"][0]["token"]
    first = json.loads(ndjson_lines(client, game["id"], auth(token), lambda lines: lines)[0])
    mine = client.get(f"/v1/games/{game['id']}", headers=auth(token)).json
    assert first == {"type": "gameFull", "game": mine}
    assert first["game"]["view"] != client.get(f"/v1/games/{game['id']}").json["view"]  # the seat's, not public


def test_ndjson_stream_then_events_then_end(client, game):
    for seat in (0, 1):
        assert act(client, game, seat).status_code == 201
    start = client.get(f"/v1/games/{game['id']}").json["version"]
    client.application.extensions["delve.service"].finalize(game["id"])
    # A finished game: the full view at its version, then nothing newer... and the end.
    lines = ndjson_lines(client, game["id"], {}, lambda lines: any('"end"' in line for line in lines))
    assert_stream_lines(lines)
    parsed = [json.loads(line) for line in lines if line]
    assert parsed[0]["type"] == "gameFull" and parsed[0]["game"]["status"] == "finished"
    assert parsed[-1] == {"type": "end"} and all(p["type"] != "event" for p in parsed)
    assert parsed[0]["game"]["version"] == start + 2  # SeedRevealed + GameFinished


def test_ndjson_stream_follows_live_events_with_keep_alives(client, game):
    client.application.config["SSE_BLOCK_MS"] = 20
    token = game["seats"][0]["token"]
    resp = client.get(f"/v1/games/{game['id']}/events/stream", headers={**NDJSON, **auth(token)}, buffered=False)
    chunks = iter(resp.response)
    first = json.loads(next(chunks))
    assert first["type"] == "gameFull"
    assert next(chunks) in (b"\n", "\n")  # nothing happened yet: a keep-alive line
    assert act(client, game, 0).status_code == 201
    line = next(c for c in chunks if c.strip())
    event = json.loads(line)
    resp.close()
    assert_stream_lines([json.dumps(first), line])
    assert event["type"] == "event" and event["event"]["seq"] == first["game"]["version"] + 1
    assert "hash" not in event["event"]  # redacted like every live event


def test_sse_stays_the_default(client, game):
    client.application.config["SSE_BLOCK_MS"] = 10
    resp = client.get(f"/v1/games/{game['id']}/events/stream", buffered=False)
    first = next(iter(resp.response))
    resp.close()
    assert resp.mimetype == "text/event-stream" and b"retry:" in (first if isinstance(first, bytes) else first.encode())


def test_cors_answers_configured_origins_only(service):
    client = create_app(service, RATE_LIMIT=0, CORS_ORIGINS="https://play.example, https://b.example").test_client()
    ok = client.get("/v1/catalog", headers={"Origin": "https://play.example"})
    assert ok.headers["Access-Control-Allow-Origin"] == "https://play.example" and "Origin" in ok.headers["Vary"]
    assert "ETag" in ok.headers["Access-Control-Expose-Headers"]
    assert "Access-Control-Allow-Origin" not in client.get("/v1/catalog", headers={"Origin": "https://evil.example"}).headers
    pre = client.options("/v1/games", headers={"Origin": "https://b.example", "Access-Control-Request-Method": "POST",
                                               "Access-Control-Request-Headers": "authorization, content-type"})
    assert pre.status_code == 200 and "POST" in pre.headers["Access-Control-Allow-Methods"]
    assert "Authorization" in pre.headers["Access-Control-Allow-Headers"]
    problem = client.get("/v1/games/nope", headers={"Origin": "https://b.example"})
    assert problem.status_code == 404 and problem.headers["Access-Control-Allow-Origin"] == "https://b.example"


def test_cors_any_origin_and_off_by_default(service, client, monkeypatch):
    assert "Access-Control-Allow-Origin" not in client.get("/v1/catalog", headers={"Origin": "https://x.example"}).headers
    monkeypatch.setenv("DELVE_CORS_ORIGINS", "*")
    anyone = create_app(service, RATE_LIMIT=0).test_client()
    assert anyone.get("/v1/catalog", headers={"Origin": "https://x.example"}).headers["Access-Control-Allow-Origin"] == "*"


def test_games_list_pages_by_cursor_with_link_headers(client):
    ids = [client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "a"}, {"name": "b"}]}).json["id"]
           for _ in range(5)]
    seen, url, pages = [], "/v1/games?game=tiny&limit=2", 0
    while url and pages < 10:
        resp = client.get(url)
        assert resp.status_code == 200, resp.json
        seen += [g["id"] for g in resp.json["games"]]
        link = resp.headers.get("Link")
        assert (link is None) == (resp.json["next_cursor"] is None)
        if pages == 0:
            # A game created between pages does not shift the next page, as an offset would.
            client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "a"}, {"name": "b"}]})
        url = link[1:link.index(">")] if link else None
        pages += 1
    assert seen == ids[::-1] and pages == 3
    assert 'rel="next"' in client.get("/v1/games?limit=1").headers["Link"]


def test_events_page_links_to_the_next_page(client, game):
    first = client.get(f"/v1/games/{game['id']}/events?limit=2")
    assert [e["seq"] for e in first.json["events"]] == [1, 2]
    link = first.headers["Link"]
    assert link == f'</v1/games/{game["id"]}/events?after=2&limit=2>; rel="next"'
    last = client.get(link[1:link.index(">")])
    assert [e["seq"] for e in last.json["events"]] == [3, 4] and "Link" not in last.headers


def test_tournament_lists_and_logs_link_to_their_next_page(client):
    admin = {"Authorization": "Bearer admin-secret"}
    body = {"game": "tiny", "format": "swiss", "table_size": 2, "start_at": "2099-01-01T00:00:00Z",
            "entrants": [{"bot": "random", "name": f"b{i}"} for i in range(2)]}
    tids = [client.post("/v1/tournaments", headers=admin, json=body).json["id"] for _ in range(3)]
    first = client.get("/v1/tournaments?game=tiny&limit=2")
    assert first.headers["Link"] == '</v1/tournaments?game=tiny&offset=2&limit=2>; rel="next"'
    last = client.get("/v1/tournaments?game=tiny&offset=2&limit=2")
    assert "Link" not in last.headers
    assert [t["id"] for t in first.json["tournaments"] + last.json["tournaments"]] == tids[::-1]
    log = client.get(f"/v1/tournaments/{tids[0]}/events?limit=1")
    assert log.headers["Link"] == f'</v1/tournaments/{tids[0]}/events?after=1&limit=1>; rel="next"'
    rest = client.get(f"/v1/tournaments/{tids[0]}/events?after=1&limit=1000")
    assert rest.json["events"][0]["seq"] == 2 and "Link" not in rest.headers


def test_a_bad_cursor_is_a_query_problem(client):
    resp = client.get("/v1/games?cursor=nope")
    assert resp.status_code == 400 and resp.json["code"] == "malformed_query"
