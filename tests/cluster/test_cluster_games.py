"""Delve on a real Redis Cluster: `delve serve` with ``REDIS_URL=redis+cluster://...`` and the
queue on a plain Redis plays bot games of every game to the end, and each export verifies;
two API processes on one cluster never show a client a stale version or lose an event."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from events import replay
from events.embedded import _free_port
from tests.faults.support import Client, api

ROOT = Path(__file__).resolve().parents[2]
# The fewest seats each game allows; two bots where there are two seats, so the game is rated.
GAMES = {"saboteur": ["random", "heuristic", "random"], "mountain-king": ["random", "greedy"], "dwarf": ["random"],
         "indagar": ["random"]}
RATED = ("saboteur", "mountain-king")  # a solo game has one side: nobody to rate against
ADMIN = "fault-admin"  # the token tests.faults.support's Client.export sends
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def serve(cluster, queue_url, tmp_path_factory):
    """`delve serve` (API, one worker, the reactor) on the cluster; its output in serve.log."""
    port = _free_port()
    env = {**os.environ, "REDIS_URL": cluster.url, "RQ_REDIS_URL": queue_url, "DELVE_ADMIN_TOKEN": ADMIN,
           "DELVE_RATE_LIMIT": "0", "PYTHONPATH": str(ROOT)}
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "delve.cli", "--log-level", "WARNING", "serve", "--port",
                                 str(port), "--workers", "1", "--web-workers", "1"],
                                env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    client = Client(port)
    try:
        client.wait_healthy(proc, timeout=60)
        yield client
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert "Traceback" not in log.read_text(), log.read_text()[-4000:]


def test_bot_games_of_every_game_finish_on_the_cluster_and_their_exports_verify(serve, cluster):
    ids = {}
    for game, bots in GAMES.items():
        status, body, _ = serve.call("POST", "/v1/games", {"game": game, "seats": [
            {"name": f"bot{i}", "bot": bot} for i, bot in enumerate(bots)]})
        assert status == 201, body
        ids[game] = body["id"]
    pending, deadline = dict(ids), time.monotonic() + 240
    while pending and time.monotonic() < deadline:
        for game, gid in list(pending.items()):
            if serve.call("GET", f"/v1/games/{gid}")[1]["status"] != "active":
                del pending[game]
        time.sleep(1)
    assert not pending, f"still active after 240 s: {pending}"
    for game, gid in ids.items():
        summary = serve.call("GET", f"/v1/games/{gid}")[1]
        assert summary["status"] == "finished", (game, summary["status"])
        export = serve.export(gid)
        assert len(export) == summary["version"]
        verdict = replay.verify(export)
        assert verdict.ok and verdict.chain_ok and verdict.replay_ok, (game, verdict.problems)
    # The rating jobs (a WATCH/MULTI in one slot) ran after the end: the bots are on the leaderboards.
    unrated, deadline = set(RATED), time.monotonic() + 60
    while unrated and time.monotonic() < deadline:
        unrated = {g for g in unrated if not serve.call("GET", f"/v1/ratings/{g}")[1]["players"]}
        time.sleep(0.5)
    assert not unrated, f"no ratings after 60 s for {unrated}"
    # The lobby projection (a follower reading every partition feed) indexed them all.
    listed = {g["id"] for g in serve.call("GET", "/v1/games?limit=50")[1]["games"]}
    assert set(ids.values()) <= listed
    # The games' keys really are spread over the masters (the partitions' hash tags pick the slots).
    masters = {cluster.master_of(f"delve:{{p{k}}}:feed") for k in range(16)}
    assert len(masters) == 3


def test_two_api_processes_on_one_cluster_never_show_a_stale_version_or_lose_an_event(cluster):
    apart = {"DELVE_PREFIX": "twoapi"}  # the tiny game is not `delve serve`'s: keep it out of its reactor's feeds
    with api(cluster.url, env=apart) as a, api(cluster.url, env=apart) as b:
        gid, tokens = a.create_tiny(turns=40, seats=2)
        acknowledged = 0
        for n in range(40):
            here, there = (a, b) if n % 2 == 0 else (b, a)
            seen = here.call("GET", f"/v1/games/{gid}")[1]
            assert seen["version"] == acknowledged or n == 0, (n, seen["version"], acknowledged)
            seat = seen["active_seats"][0]
            legal = there.call("GET", f"/v1/games/{gid}/legal-actions", token=tokens[seat])[1]
            assert legal["version"] >= seen["version"]
            status, body, _ = here.call("POST", f"/v1/games/{gid}/actions", {
                "expected_version": legal["version"], "command": legal["commands"][-1]}, token=tokens[seat])
            assert status == 201, body
            acknowledged = body["version"]
            assert there.call("GET", f"/v1/games/{gid}")[1]["version"] == acknowledged
            events = there.call("GET", f"/v1/games/{gid}/events?after=0&limit=500", token=tokens[seat])[1]
            assert [e["seq"] for e in events["events"]] == list(range(1, acknowledged + 1))
        assert not a.call("GET", f"/v1/games/{gid}")[1]["active_seats"]
        lines = b.export(gid)
        assert [json.loads(line)["seq"] for line in lines] == list(range(1, acknowledged + 1))
