"""Issue 10's "done when", bounded: a Saboteur Swiss at 4-seat tables and a Mountain King
round-robin, each of players and bots under a clock, run to the end on a real rq worker
(with rq's scheduler) and the reactor process. Bob never moves: the clock adjudicates his
games (TRN-CLK-1: forfeit, he places last). Ann is driven by this script through the API
with her own player token: she plays her turns, and resigns a Mountain King game after a
few moves, so that no game of the test needs a full bot-paced game on a shared machine.
The Swiss starts by its start_at timer (TRN-START-1). Both bundles verify offline with
``delve verify``; a tampered one is rejected naming the place. The full-size run (16 and
8 entrants) is benchmarks/tournament_run.py against ``delve serve``.
"""
from __future__ import annotations

import json
import os
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from delve.cli import cli
from tests.workers.conftest import queue  # noqa: F401 - the per-test rq queue fixture
from tests.workers.procs import running

ROOT = Path(__file__).resolve().parents[2]
ADMIN = {"Authorization": "Bearer admin-secret"}
CLOCK = {"per_move_s": 3, "on_timeout": "forfeit"}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def play_my_turns(client, tids: list[str], token: str, moves: dict[str, int], resign_after: int = 3) -> int:
    """Post the first legal command in every game of these tournaments where the player is to act;
    in a 2-seat game, resign once ``resign_after`` moves are made there."""
    moved = 0
    for tid in tids:
        for rnd in client.get(f"/v1/tournaments/{tid}").json["rounds"]:
            for tb in rnd["tables"]:
                gid = tb["game_id"]
                legal = client.get(f"/v1/games/{gid}/legal-actions", headers=bearer(token)).json
                if not legal.get("commands"):
                    continue
                if len(tb["seats"]) == 2 and moves.get(gid, 0) >= resign_after:
                    moved += client.post(f"/v1/games/{gid}/resign", headers=bearer(token)).status_code == 201
                    continue
                posted = client.post(f"/v1/games/{gid}/actions", headers=bearer(token), json={
                    "expected_version": legal["version"], "command": legal["commands"][0]})
                if posted.status_code == 201:  # a 409: a clock or a bot moved first
                    moves[gid] = moves.get(gid, 0) + 1
                    moved += 1
    return moved


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_saboteur_swiss_and_a_mountain_king_round_robin_of_players_and_bots_run_to_the_end(
        client, redis_url, prefix, queue, tmp_path):
    env = {**os.environ, "REDIS_URL": redis_url, "DELVE_PREFIX": prefix, "DELVE_QUEUE": queue.name,
           "DELVE_REACTOR_GROUP": f"g-{prefix}", "PYTHONPATH": str(ROOT), "DELVE_REACTOR_SWEEP_SECONDS": "2",
           "DELVE_ADMIN_TOKEN": "admin-secret"}
    env.pop("RQ_REDIS_URL", None)
    ann = client.post("/v1/players", json={"name": "ann"}).json  # scripted
    bob = client.post("/v1/players", json={"name": "bob"}).json  # never moves
    soon = (datetime.now(timezone.utc) + timedelta(seconds=4)).isoformat(timespec="seconds")
    swiss = client.post("/v1/tournaments", headers=bearer(ann["token"]), json={
        "game": "saboteur", "format": "swiss", "table_size": 4, "rounds": 2, "clock": CLOCK, "start_at": soon,
        "name": "e2e swiss", "entrants": [{"bot": "heuristic"}, {"bot": "random"}]}).json
    for p in (ann, bob):
        assert client.post(f"/v1/tournaments/{swiss['id']}/entrants", headers=bearer(p["token"]),
                           json={"player": p["id"]}).status_code == 201
    rr = client.post("/v1/tournaments", headers=ADMIN, json={
        "game": "mountain-king", "format": "round-robin", "table_size": 2, "clock": CLOCK, "name": "e2e rr",
        "entrants": [{"player": ann["id"]}, {"player": bob["id"]}, {"bot": "greedy"}]}).json
    assert rr["status"] == "registering" and rr["invited"] == [ann["id"], bob["id"]]  # asked, not entered
    for p in (ann, bob):
        assert client.post(f"/v1/players/me/invitations/{rr['id']}/accept", headers=bearer(p["token"])).status_code == 201
    rr = client.post(f"/v1/tournaments/{rr['id']}/start", headers=ADMIN).json
    assert swiss["status"] == "registering" and rr["status"] == "running"
    tids = [swiss["id"], rr["id"]]
    with running(env, tmp_path / "procs.log", ROOT):
        deadline, moves = time.monotonic() + 840, {}
        while not all(client.get(f"/v1/tournaments/{t}").json["status"] == "finished" for t in tids):
            assert time.monotonic() < deadline, (tmp_path / "procs.log").read_text()[-4000:]
            if not play_my_turns(client, tids, ann["token"], moves):
                time.sleep(0.3)
    assert moves, "ann played through the API"
    for tid, rounds in ((swiss["id"], 2), (rr["id"], 3)):
        t = client.get(f"/v1/tournaments/{tid}").json
        assert len(t["rounds"]) == rounds and all(r["completed"] for r in t["rounds"])
        bob_entrant = next(e["id"] for e in t["entrants"] if e["player"] == bob["id"])
        bob_tables = [tb for r in t["rounds"] for tb in r["tables"] if bob_entrant in tb["seats"]]
        for tb in bob_tables:  # bob never moved: wherever his clock ran out, he placed last
            events = client.get(f"/v1/games/{tb['game_id']}/events?limit=1000").json["events"]
            timed_out = [e["data"]["seat"] for e in events if e["type"] == "TimeExpired"]
            if timed_out and tb["seats"][timed_out[0]] == bob_entrant:
                assert tb["result"]["places"][bob_entrant] == len(tb["seats"])
        assert any(e["type"] == "TimeExpired" for tb in bob_tables
                   for e in client.get(f"/v1/games/{tb['game_id']}/events?limit=1000").json["events"])
        path = tmp_path / f"{tid}.ndjson"
        path.write_bytes(client.get(f"/v1/tournaments/{tid}/bundle").data)
        ok = CliRunner().invoke(cli, ["verify", str(path)])
        assert ok.exit_code == 0, ok.output
    lines = (tmp_path / f"{swiss['id']}.ndjson").read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if '"GameFinished"' in line and f'"game_id":"{swiss["id"]}"' in line)
    lines[i] = lines[i].replace('"round":1', '"round":2', 1)
    bad = tmp_path / "bad.ndjson"
    bad.write_text("\n".join(lines) + "\n")
    refused = CliRunner().invoke(cli, ["verify", str(bad)])
    assert refused.exit_code == 1
    assert f"tournament seq {json.loads(lines[i])['seq']}: " in refused.output.splitlines()[0]
