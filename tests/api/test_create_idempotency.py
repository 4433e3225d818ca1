"""POST /v1/games with an Idempotency-Key: a retry gets the same game (seat tokens included),
the same key with another body is refused, and no race or refusal makes a second game."""
from __future__ import annotations

import threading

import pytest

ADMIN = {"Authorization": "Bearer admin-secret"}
BODY = {"game": "tiny", "seats": [{"name": "ann"}, {"name": "bob", "bot": "random"}], "options": {"turns": 4}}


def create(client, body=BODY, key="create-1", **headers):
    return client.post("/v1/games", json=body, headers={"Idempotency-Key": key, **headers})


def problem(resp, status: int, code: str) -> dict:
    assert resp.status_code == status and resp.mimetype == "application/problem+json", resp.get_data(as_text=True)
    assert resp.json["code"] == code
    return resp.json


def test_a_retried_create_gets_the_same_game_and_its_seat_tokens(client, service):
    first, again = create(client), create(client)
    assert first.status_code == again.status_code == 201
    assert again.json == first.json and again.headers["Location"] == first.headers["Location"]
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    token = again.json["seats"][0]["token"]
    moved = client.post(f"/v1/games/{first.json['id']}/actions", headers={"Authorization": f"Bearer {token}"},
                        json={"expected_version": first.json["version"], "command": {"type": "pass"}})
    assert moved.status_code == 201  # the replayed token is seat 0's, whose turn it is (TINY-2)
    _total, ids = service.store.indexes.page("all")
    assert ids.count(first.json["id"]) == 1 and service.store.version(first.json["id"]) == first.json["version"] + 1


def test_the_same_key_with_another_body_is_refused_and_writes_nothing(client, service):
    first = create(client)
    other = create(client, {**BODY, "options": {"turns": 5}})
    problem(other, 422, "idempotency_key_reused")
    assert create(client).json == first.json
    _total, ids = service.store.indexes.page("all")
    assert ids == [first.json["id"]]


def test_another_key_or_another_identity_creates_another_game(client):
    first = create(client)
    assert create(client, key="create-2").json["id"] != first.json["id"]
    as_admin = create(client, **ADMIN)
    assert as_admin.status_code == 201 and as_admin.json["id"] != first.json["id"]
    assert create(client, **ADMIN).json == as_admin.json


def test_a_refused_create_keeps_nothing_under_its_key(client):
    problem(create(client, {**BODY, "game": "chess"}), 422, "unknown_game")
    fixed = create(client)
    assert fixed.status_code == 201 and "Idempotent-Replayed" not in fixed.headers


def test_a_retry_is_not_counted_against_the_hourly_quota(service):
    from server.app import create_app

    client = create_app(service, RATE_LIMIT=0, GAMES_PER_HOUR=1).test_client()
    first = create(client)
    assert first.status_code == 201 and create(client).json == first.json
    problem(create(client, key="create-2"), 429, "rate_limited")


def test_racing_retries_make_one_game(app, service):
    answers = []

    def racer():
        resp = create(app.test_client())
        answers.append((resp.status_code, resp.json["id"], resp.json["seats"][0]["token"]))

    threads = [threading.Thread(target=racer) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == 6 and len(set(answers)) == 1 and answers[0][0] == 201
    _total, ids = service.store.indexes.page("all")
    assert ids == [answers[0][1]]


def test_a_key_whose_answer_is_gone_is_refused_not_replayed_or_doubled(client, service, r):
    first = create(client)
    for name in service.store.idempotency.stored(first.json["id"]):  # as if its 24 hours were over
        r.delete(name)
    problem(create(client), 409, "idempotency_key_expired")
    _total, ids = service.store.indexes.page("all")
    assert ids == [first.json["id"]]


@pytest.mark.parametrize("key", ["", "k" * 201])
def test_a_key_of_a_bad_length_is_a_400(client, key):
    problem(create(client, key=key), 400, "bad_idempotency_key")


@pytest.mark.parametrize("end", ["resign", "abort"])
def test_a_key_of_a_finished_game_is_expired_at_once_not_replayed(client, service, end):
    """The contract: the stored answer is kept only while the game is unfinished. The record itself
    goes when a worker compacts the closed game, moments later; until then it must not be replayed
    (its body would say `active`, its seat tokens would act in nothing)."""
    first = create(client)
    token = first.json["seats"][0]["token"]
    auth = ADMIN if end == "abort" else {"Authorization": f"Bearer {token}"}
    assert client.post(f"/v1/games/{first.json['id']}/{end}", headers=auth).status_code == 201
    assert service.store.idempotency.stored(first.json["id"]), "no compaction ran: the record is still held"
    problem(create(client), 409, "idempotency_key_expired")
    problem(create(client), 409, "idempotency_key_expired")  # and again: nothing was taken or made
    problem(create(client, {**BODY, "options": {"turns": 5}}), 422, "idempotency_key_reused")
    _total, ids = service.store.indexes.page("all")
    assert ids == [first.json["id"]]
