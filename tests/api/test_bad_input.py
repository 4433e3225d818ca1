"""Bad input is a 4xx problem with a stable code, never a 500, and writes nothing
(issue 12, items 3 and 5): deep nesting, lone surrogates, huge stream ids,
oversized bodies (announced or chunked), negative and huge versions, query
parameters, media types, ETags per representation, Retry-After."""
from __future__ import annotations

import io
import json

import pytest

from server import parsing
from tests.api.helpers import ADMIN, auth, tiny_game


@pytest.fixture
def game(client):
    return tiny_game(client)


def post_raw(client, path, text, token=None, headers=None):
    return client.post(path, data=text, content_type="application/json",
                       headers={**auth(token), **(headers or {})})


def assert_problem(resp, status, code):
    assert resp.status_code == status, (resp.status_code, resp.get_data(as_text=True)[:300])
    assert resp.mimetype == "application/problem+json" and resp.json["code"] == code, resp.json
    return resp.json


def version_of(client, game):
    return client.get(f"/v1/games/{game['id']}").json["version"]


@pytest.mark.parametrize("depth", [parsing.MAX_DEPTH + 1, 30_000])
def test_deep_nesting_is_400_on_create_and_actions(client, game, depth):
    """30,000 deep fits the 64 KB cap and is far past the parser's recursion limit."""
    deep = "[" * depth + "]" * depth
    assert_problem(post_raw(client, "/v1/games", f'{{"game": "tiny", "seats": {deep}}}'), 400, "too_deeply_nested")
    before = version_of(client, game)
    body = f'{{"expected_version": {before}, "command": {{"type": "pass", "x": {deep}}}}}'
    resp = post_raw(client, f"/v1/games/{game['id']}/actions", body, game["seats"][0]["token"])
    assert_problem(resp, 400, "too_deeply_nested")
    assert version_of(client, game) == before


def test_the_issues_100000_deep_body_is_413(client, game):
    deep = "[" * 100_000 + "]" * 100_000
    assert_problem(post_raw(client, "/v1/games", f'{{"game": "tiny", "seats": {deep}}}'), 413, "body_too_large")


def test_nesting_up_to_the_cap_is_parsed(client, game):
    nested = "[" * (parsing.MAX_DEPTH - 2) + "]" * (parsing.MAX_DEPTH - 2)
    resp = post_raw(client, f"/v1/games/{game['id']}/actions",
                    f'{{"expected_version": {version_of(client, game)}, "command": {{"type": "pass", "x": {nested}}}}}',
                    game["seats"][0]["token"])
    # parsed (not a 400); then the command schema refuses the extra field, as it refuses any
    assert resp.status_code == 422 and resp.json["code"] == "bad_command"


@pytest.mark.parametrize("where", ["seat name", "option key", "command field", "command key"])
def test_lone_surrogates_are_400(client, game, where):
    bad = '"\\ud800x"'
    if where in ("seat name", "option key"):
        text = (f'{{"game": "tiny", "seats": [{{"name": {bad}}}, {{"name": "b"}}]}}' if where == "seat name"
                else f'{{"game": "tiny", "seats": [{{"name": "a"}}, {{"name": "b"}}], "options": {{{bad}: 1}}}}')
        assert_problem(post_raw(client, "/v1/games", text), 400, "invalid_unicode")
        return
    before = version_of(client, game)
    command = f'{{"type": "guess", "target": {bad}}}' if where == "command field" else f'{{"type": "pass", {bad}: 1}}'
    resp = post_raw(client, f"/v1/games/{game['id']}/actions", f'{{"expected_version": {before}, "command": {command}}}',
                    game["seats"][0]["token"], headers={"Idempotency-Key": "k1"})
    assert_problem(resp, 400, "invalid_unicode")
    assert version_of(client, game) == before


def test_a_valid_surrogate_pair_is_fine(client):
    resp = post_raw(client, "/v1/games", '{"game": "tiny", "seats": [{"name": "\\ud83d\\ude00"}, {"name": "b"}]}')
    assert resp.status_code == 201 and resp.json["seats"][0]["name"] == "\U0001F600"


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "1" * 5000])
def test_json_constants_and_huge_numbers_are_malformed(client, game, text):
    resp = post_raw(client, f"/v1/games/{game['id']}/actions",
                    f'{{"expected_version": 4, "command": {{"type": "pass", "x": {text}}}}}', game["seats"][0]["token"])
    assert_problem(resp, 400, "malformed_json")


@pytest.mark.parametrize("bad", [b"\xff", b"\xc0\xaf", b"\xe2\x82", b"\xed\xa0\x80"],
                         ids=["ff", "overlong", "truncated", "encoded-surrogate"])
def test_invalid_utf8_is_invalid_unicode_on_create_and_actions(client, game, bad):
    """The contract: a body that is not valid Unicode is a 400 `invalid_unicode`, bytes that do not
    decode as much as an escaped lone surrogate (it was `malformed_json`: the JSON was never wrong)."""
    assert_problem(post_raw(client, "/v1/games", b'{"game": "tiny", "seats": [{"name": "' + bad + b'"}, '
                            b'{"name": "b"}]}'), 400, "invalid_unicode")
    before = version_of(client, game)
    body = b'{"expected_version": %d, "command": {"type": "guess", "target": "' % before + bad + b'"}}'
    resp = post_raw(client, f"/v1/games/{game['id']}/actions", body, game["seats"][0]["token"],
                    headers={"Idempotency-Key": "k1"})
    assert_problem(resp, 400, "invalid_unicode")
    assert version_of(client, game) == before


def test_bad_json_in_valid_utf8_stays_malformed_json(client):
    assert_problem(post_raw(client, "/v1/games", '{"game": "tiny", "seats": ['.encode()), 400, "malformed_json")


@pytest.mark.parametrize("cursor", ["18446744073709551616", str(2**63), "1" * 40, "-1", "²", "1e3"])
def test_stream_cursors_beyond_redis_ids_are_400(client, game, cursor):
    url = f"/v1/games/{game['id']}/events/stream"
    assert_problem(client.get(url, headers={"Last-Event-ID": cursor}), 400, "bad_last_event_id")
    assert_problem(client.get(url, query_string={"after": cursor}), 400, "bad_last_event_id")


def test_the_largest_stream_cursor_is_accepted(client, game):
    client.application.config["SSE_BLOCK_MS"] = 10
    resp = client.get(f"/v1/games/{game['id']}/events/stream", headers={"Last-Event-ID": str(2**63 - 1)},
                      buffered=False)
    first = [next(resp.response), next(resp.response)]
    resp.close()
    assert resp.status_code == 200 and any(b"keep-alive" in (c if isinstance(c, bytes) else c.encode()) for c in first)


def test_action_body_is_capped_at_64kb_announced(client, game):
    big = '{"expected_version": 4, "command": {"type": "pass", "pad": "' + "x" * parsing.ACTION_BODY_BYTES + '"}}'
    problem = assert_problem(post_raw(client, f"/v1/games/{game['id']}/actions", big, game["seats"][0]["token"]),
                             413, "body_too_large")
    assert str(parsing.ACTION_BODY_BYTES) in problem["detail"]


@pytest.mark.parametrize("path", ["/v1/games", "/v1/games/{id}/actions", "/v1/audit/verify"])
def test_the_cap_on_every_route_holds_below_a_routes_own(client, game, path):
    """DELVE_MAX_BODY_BYTES ("largest request body of any route") set below a route's own cap
    (64 KB for a create or a move) used to be overridden by it."""
    client.application.config["MAX_CONTENT_LENGTH"] = 2000
    body = '{"game": "tiny", "pad": "' + "x" * 3000 + '"}'
    problem = assert_problem(client.post(path.format(id=game["id"]), data=body, headers={
        **auth(game["seats"][0]["token"]),
        "Content-Type": "application/x-ndjson" if path.endswith("verify") else "application/json"}),
        413, "body_too_large")
    assert "2000 bytes" in problem["detail"]


@pytest.mark.parametrize("path", ["/v1/games", "/v1/games/{id}/actions", "/v1/audit/verify"])
def test_chunked_bodies_without_length_are_413(client, game, path):
    """A chunked body has no Content-Length: its size is checked while it is read."""
    limit = client.application.config["MAX_EXPORT_BYTES"] if path.endswith("verify") else parsing.ACTION_BODY_BYTES
    if path.endswith("verify"):
        client.application.config["MAX_EXPORT_BYTES"] = limit = 100_000
    payload = b'{"game": "' + b"x" * (limit + 10) + b'"}'
    resp = client.post(path.format(id=game["id"]), input_stream=io.BytesIO(payload),
                       headers={"Transfer-Encoding": "chunked", **auth(game["seats"][0]["token"]),
                                "Content-Type": "application/x-ndjson" if path.endswith("verify")
                                else "application/json"},
                       environ_overrides={"wsgi.input_terminated": True})
    assert resp.request.content_length is None
    assert_problem(resp, 413, "body_too_large")


def test_negative_expected_version_is_400_not_409(client, game):
    resp = client.post(f"/v1/games/{game['id']}/actions", headers=auth(game["seats"][0]["token"]),
                       json={"expected_version": -1, "command": {"type": "pass"}})
    assert_problem(resp, 400, "malformed_request")


@pytest.mark.parametrize("version,status,code", [("-1", 400, "bad_version"), ("x", 400, "bad_version"),
                                                 ("0", 404, "no_such_version"), ("99", 404, "no_such_version"),
                                                 (str(2**70), 404, "no_such_version"),
                                                 ("9" * 40, 400, "bad_version")])
def test_bad_replay_versions_are_problems(client, game, version, status, code):
    problem = assert_problem(client.get(f"/v1/games/{game['id']}/states/{version}"), status, code)
    if status == 404:
        assert problem["current_version"] == 4 and "1 to 4" in problem["detail"]


def test_titles_name_the_code_not_only_the_status(client, game):
    unknown = assert_problem(client.post("/v1/games", json={"game": "nope", "seats": [{"name": "a"}]}),
                             422, "unknown_game")
    assert unknown["title"] == "Unknown game"
    token = game["seats"][0]["token"]
    url = f"/v1/games/{game['id']}/actions"
    first = client.post(url, headers={**auth(token), "Idempotency-Key": "k"},
                        json={"expected_version": 4, "command": {"type": "pass"}})
    assert first.status_code == 201
    reused = client.post(url, headers={**auth(token), "Idempotency-Key": "k"},
                         json={"expected_version": 5, "command": {"type": "pass"}})
    assert assert_problem(reused, 422, "idempotency_key_reused")["title"] == "Idempotency key reused"
    illegal = client.post(url, headers=auth(game["seats"][1]["token"]),
                          json={"expected_version": 5, "command": {"type": "guess", "target": 1, "digit": 3}})
    assert illegal.status_code == 422 and illegal.json["title"] != unknown["title"]
    assert illegal.json["title"] == illegal.json["code"].replace("_", " ").capitalize()


@pytest.mark.parametrize("path", ["/v1/games?limit=0", "/v1/games?bogus=1", "/v1/games/{id}/events?after=x"])
def test_query_parameter_errors_say_query_parameter(client, game, path):
    problem = assert_problem(client.get(path.format(id=game["id"])), 400, "malformed_query")
    assert "query parameter" in problem["detail"] and "body" not in problem["detail"]


def test_etag_differs_per_representation(client, game):
    url = f"/v1/games/{game['id']}"
    seat = client.get(url, headers=auth(game["seats"][0]["token"]))
    spectator = client.get(url)
    assert seat.headers["ETag"] != spectator.headers["ETag"] and "Authorization" in seat.headers["Vary"]
    again = client.get(url, headers={"If-None-Match": seat.headers["ETag"]})
    assert again.status_code == 200 and again.json["view"] == spectator.json["view"]
    same = client.get(url, headers={"If-None-Match": seat.headers["ETag"], **auth(game["seats"][0]["token"])})
    assert same.status_code == 304


def test_verify_takes_ndjson_and_refuses_json(client, game):
    export = client.get(f"/v1/games/{game['id']}/export", headers=ADMIN).data
    refused = client.post("/v1/audit/verify", data=export, content_type="application/json")
    assert_problem(refused, 415, "unsupported_media_type")
    verdict = client.post("/v1/audit/verify", data=export, content_type="application/x-ndjson")
    assert verdict.status_code == 200 and verdict.json["chain_ok"]


def test_429_carries_retry_after(service):
    from server.app import create_app
    client = create_app(service, RATE_LIMIT=1).test_client()
    answers = [client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "a"}, {"name": "b"}]})
               for _ in range(3)]
    limited = [r for r in answers if r.status_code == 429]
    assert limited and limited[0].headers["Retry-After"] == "1" and limited[0].json["code"] == "rate_limited"


def test_a_line_nested_past_the_parser_is_a_verdict_not_a_500(client):
    """A security probe: '[' * 100000 + ']' * 100000 as an export crashed the verifier (RecursionError)."""
    resp = client.post("/v1/audit/verify", data=b"[" * 100_000 + b"]" * 100_000, content_type="application/x-ndjson")
    assert resp.status_code == 200 and resp.json["ok"] is False
    assert "nests" in resp.json["problems"][0]["problem"]


@pytest.mark.parametrize("start_at", ["9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59", "9999-12-31T23:59:59Z"])
def test_a_start_time_the_server_cannot_schedule_is_refused_with_a_code(client, start_at):
    """A probe: the first two overflowed (500); the third was accepted and its timer job overflowed forever."""
    resp = client.post("/v1/tournaments", headers={"Authorization": "Bearer admin-secret"},
                       json={"game": "tiny", "format": "swiss", "table_size": 2, "start_at": start_at})
    assert resp.status_code == 422 and resp.json["code"] == "start_at_out_of_range"


def test_a_failed_if_match_is_a_412_problem_not_the_summary(client, game):
    """Werkzeug's 412 kept the summary as its body: an error must be a problem like any other."""
    url = f"/v1/games/{game['id']}"
    etag = client.get(url).headers["ETag"]
    failed = assert_problem(client.get(url, headers={"If-Match": '"999-spectator"'}), 412, "precondition_failed")
    assert etag in failed["detail"] and "view" not in failed
    assert client.get(url, headers={"If-Match": etag}).status_code == 200
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304


@pytest.mark.parametrize("gid,players", [("saboteur", 3), ("dwarf", 2)])
def test_whole_numbers_spelled_as_floats_are_read_as_integers(client, gid, players):
    """JSON Schema counts 1.0 as an integer, so a command may spell its integers so: every game reads it
    as the integer and records it so (Saboteur's tool cards indexed the seats with the float: a 500)."""
    created = client.post("/v1/games", json={"game": gid, "seats": [{"name": f"p{i}"} for i in range(players)]}).json
    gid_ = created["id"]
    info = client.get(f"/v1/games/{gid_}").json
    seat = info["active_seats"][0]
    token = created["seats"][seat]["token"]
    legal = client.get(f"/v1/games/{gid_}/legal-actions", headers=auth(token)).json["commands"]

    def floats(v):
        if isinstance(v, bool) or not isinstance(v, (int, dict, list)):
            return v
        if isinstance(v, int):
            return float(v)
        return {k: floats(x) for k, x in v.items()} if isinstance(v, dict) else [floats(x) for x in v]
    command = next(c for c in legal if json.dumps(floats(c)) != json.dumps(c))
    spelled = json.dumps({"expected_version": info["version"], "command": floats(command)})
    assert ".0" in spelled
    resp = post_raw(client, f"/v1/games/{gid_}/actions", spelled, token)
    assert resp.status_code == 201, resp.get_data(as_text=True)[:300]
    moves = client.get(f"/v1/games/{gid_}/moves", headers=auth(token)).json["moves"]
    assert moves[-1]["command"] == command and json.dumps(moves[-1]["command"]) == json.dumps(command)


@pytest.mark.parametrize("gid,players,options,seat", [("saboteur", 3, {"first_player": 2.0}, 2),
                                                      ("mountain-king", 2, {"start_player": 1.0}, 1)])
def test_whole_numbers_spelled_as_floats_in_options_are_integers(client, gid, players, options, seat):
    """An option's 2.0 is the seat 2: it was a 500 (Saboteur) or a game whose seat was 1.0, that no
    token could act for and no bot could move (Mountain King)."""
    body = json.dumps({"game": gid, "seats": [{"name": f"p{i}"} for i in range(players)], "options": options})
    created = post_raw(client, "/v1/games", body)
    assert created.status_code == 201, created.get_data(as_text=True)[:300]
    info = client.get(f"/v1/games/{created.json['id']}").json
    assert info["active_seats"] == [seat] and json.dumps(info["active_seats"]) == f"[{seat}]"
    legal = client.get(f"/v1/games/{created.json['id']}/legal-actions",
                       headers=auth(created.json["seats"][seat]["token"]))
    assert legal.status_code == 200 and legal.json["commands"]


def test_an_expected_version_written_as_a_float_is_the_version(client, game):
    before = version_of(client, game)
    resp = post_raw(client, f"/v1/games/{game['id']}/actions",
                    f'{{"expected_version": {before}.0, "command": {{"type": "pass"}}}}', game["seats"][0]["token"])
    assert resp.status_code == 201, resp.json


def test_utf16_bodies_are_invalid_unicode_and_a_utf8_byte_order_mark_is_allowed(client, game):
    before = version_of(client, game)
    text = f'{{"expected_version": {before}, "command": {{"type": "pass"}}}}'
    token = game["seats"][0]["token"]
    assert_problem(post_raw(client, f"/v1/games/{game['id']}/actions", text.encode("utf-16"), token), 400,
                   "invalid_unicode")
    assert version_of(client, game) == before
    assert post_raw(client, f"/v1/games/{game['id']}/actions", text.encode("utf-8-sig"), token).status_code == 201


def test_an_integer_past_the_digits_python_reads_is_malformed_and_says_so(client, game):
    problem = assert_problem(post_raw(client, f"/v1/games/{game['id']}/actions",
                                      '{"expected_version": ' + "9" * 5000 + ', "command": {"type": "pass"}}',
                                      game["seats"][0]["token"]), 400, "malformed_json")
    assert "5000 digits" in problem["detail"]


@pytest.mark.parametrize("line", ['{"seq": "x"}', '{"seq": [1]}', '{"seq": {"a": 1}}', '{"seq": true}',
                                  '{"seq": ' + "9" * 5000 + '}'])
def test_verify_answers_a_verdict_whatever_an_envelope_holds_as_its_seq(client, line):
    resp = client.post("/v1/audit/verify", data=line, content_type="application/x-ndjson")
    assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
    assert resp.json["ok"] is False and all(p["seq"] in (None, 1) for p in resp.json["problems"])
