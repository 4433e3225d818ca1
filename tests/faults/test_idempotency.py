"""Issue 7, item 4: the idempotency record is written by the append script itself.

Before, the record was written after the append, outside the script: a
process that died between the two left a committed move whose retry got 409,
and two concurrent requests with one key got 201 + 409.
"""
from __future__ import annotations

import threading

import pytest
import redis as redis_lib

from events.keys import Keys
from events.states import States
from tests.faults import tally
from tests.faults.support import Redis, api

pytestmark = pytest.mark.slow


class Died(BaseException):
    """The process dies right after the append script returned (a BaseException: nothing catches it)."""


def test_a_retry_after_a_crash_between_append_and_answer_gets_the_stored_201(client, service, monkeypatch):
    created = client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "a"}, {"name": "b"}]}).json
    gid, token = created["id"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}", "Idempotency-Key": "move-1"}
    body = {"expected_version": created["version"], "command": {"type": "pass"}}

    def die(*_args, **_kw):
        raise Died()

    with monkeypatch.context() as m:
        m.setattr(States, "keep", die)  # the first thing after the append
        with pytest.raises(Died):
            client.post(f"/v1/games/{gid}/actions", json=body, headers=auth)
    assert service.store.version(gid) == created["version"] + 1  # the move was committed
    retry = client.post(f"/v1/games/{gid}/actions", json=body, headers=auth)
    assert retry.status_code == 201, retry.json
    assert retry.headers["Idempotent-Replayed"] == "true" and retry.json["version"] == created["version"] + 1
    again = client.post(f"/v1/games/{gid}/actions", json=body, headers=auth)
    assert again.json == retry.json and service.store.version(gid) == created["version"] + 1
    tally.count(acknowledged_moves=1)


def test_concurrent_requests_with_one_key_get_one_201_and_the_same_stored_201(tmp_path):
    redis = Redis(tmp_path / "redis")
    try:
        with api(redis.url, workers=2) as a:
            for round_ in range(5):
                gid, tokens = a.create_tiny(turns=4)
                version = a.call("GET", f"/v1/games/{gid}")[1]["version"]
                body = {"expected_version": version, "command": {"type": "guess", "target": 1, "digit": 7}}
                answers: list[tuple[int, dict]] = []

                def post():
                    status, got, _ = a.call("POST", f"/v1/games/{gid}/actions", body, token=tokens[0],
                                            headers={"Idempotency-Key": f"k{round_}"})
                    answers.append((status, got))

                threads = [threading.Thread(target=post) for _ in range(8)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                assert [s for s, _ in answers] == [201] * 8, answers
                assert all(got == answers[0][1] for _, got in answers)
                assert redis_lib.Redis.from_url(redis.url).xlen(Keys().events(gid)) == version + 1
                tally.count(acknowledged_moves=1)
    finally:
        redis.stop()
