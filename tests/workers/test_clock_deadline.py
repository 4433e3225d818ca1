"""Issue 9 end to end: two players made over HTTP join an open game with their own entropy and a
Fischer clock; a real rq worker and the reactor enforce the deadlines (their timers, workers/timers.py);
the timeout policy applies, the export verifies (seed derivation included) and both ratings move."""
from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

import pytest

from application.replay import verify
from tests.workers.procs import running

ROOT = Path(__file__).resolve().parents[2]


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.slow
def test_players_join_with_entropy_and_the_worker_times_a_seat_out(client, redis_url, prefix, queue, tmp_path):
    env = {**os.environ, "REDIS_URL": redis_url, "DELVE_PREFIX": prefix, "DELVE_QUEUE": queue.name,
           "DELVE_REACTOR_GROUP": f"g-{prefix}", "PYTHONPATH": str(ROOT), "DELVE_REACTOR_SWEEP_SECONDS": "2"}
    env.pop("RQ_REDIS_URL", None)
    ann = client.post("/v1/players", json={"name": "ann"}).json
    bob = client.post("/v1/players", json={"name": "bob"}).json
    gid = client.post("/v1/games", headers=bearer(ann["token"]), json={
        "game": "tiny", "seats": [{"open": True}, {"open": True}], "options": {"turns": 4},
        "clock": {"initial_s": 2, "increment_s": 0, "on_timeout": "autoplay"}}).json["id"]
    with running(env, tmp_path / "procs.log", ROOT):
        for player in (ann, bob):
            joined = client.post(f"/v1/games/{gid}/join", headers=bearer(player["token"]),
                                 json={"entropy": secrets.token_hex(32)})
            assert joined.status_code == 201, joined.json
        summary = client.get(f"/v1/games/{gid}").json
        assert summary["status"] == "active" and summary["deadline"]
        seat = summary["active_seats"][0]
        token = (ann, bob)[seat]["token"]
        legal = client.get(f"/v1/games/{gid}/legal-actions", headers=bearer(token)).json
        assert client.post(f"/v1/games/{gid}/actions", headers=bearer(token), json={
            "expected_version": legal["version"], "command": legal["commands"][0]}).status_code == 201
        # Nobody moves again: every later turn runs out of time and the worker autoplays it.
        deadline = time.monotonic() + 90
        while client.get(f"/v1/games/{gid}").json["status"] != "finished":
            assert time.monotonic() < deadline, (tmp_path / "procs.log").read_text()[-3000:]
            time.sleep(0.5)
        # The reactor schedules the rating job on GameFinished: both players' ratings move.
        while not all(client.get(f"/v1/players/{p['id']}").json["ratings"] for p in (ann, bob)):
            assert time.monotonic() < deadline, (tmp_path / "procs.log").read_text()[-3000:]
            time.sleep(0.5)
    events = client.get(f"/v1/games/{gid}/events?limit=1000").json["events"]
    expired = [e for e in events if e["type"] == "TimeExpired"]
    assert expired and all(e["data"]["policy"] == "autoplay" for e in expired)
    assert len({e["seq"] for e in expired}) == len(expired)
    export = client.get(f"/v1/games/{gid}/export").data.decode().splitlines()
    verdict = verify(export)
    assert verdict.ok, verdict.problems
    audit = client.get(f"/v1/games/{gid}/audit").json
    assert [len(e["value"]) for e in audit["entropy"]] == [64, 64] and audit["seed"] != audit["server_seed"]
    for player in (ann, bob):
        rating = client.get(f"/v1/players/{player['id']}").json["ratings"]["tiny"]
        assert rating["games"] == 1 and rating["sigma"] < 25 / 3
