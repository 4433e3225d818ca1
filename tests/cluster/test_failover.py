"""A master of the cluster dies (``kill -9``) while clients play.

While its slots have no master the API answers 503 problem+json
(``store_unavailable``); once its replica is promoted the slots are served
again, but with ``DELVE_WAIT_REPLICAS=1`` an append is only acknowledged (201)
when a replica confirmed it, so until the dead node is restarted (it rejoins
as the new master's replica) appends there answer 503
``replication_unconfirmed``. Then play goes on, and no move that was answered
201 is missing from the log: every acknowledged event is in the export, with
the same command id and time, and every export's hash chain is intact.
"""
from __future__ import annotations

import json
import time

import pytest

from application import replay
from events.keys import Keys
from localredis.cluster import LocalCluster
from tests.faults.support import Client, api
from tests.support.forge import envelopes

PREFIX = "failover"
pytestmark = pytest.mark.slow


def _identity(event: dict) -> tuple:
    """What tells an event apart from another that took its place (the 201 withholds hashes mid-game)."""
    return event["type"], event["command_id"], event["at"]


class Players:
    """Plays tiny games over HTTP, remembering every event a 201 acknowledged."""

    def __init__(self, client: Client, games: list[tuple[str, list[str]]]):
        self.client, self.games = client, games
        self.acknowledged: dict[tuple[str, int], tuple] = {}  # (game, seq) -> what the 201 said of it
        self.refusals: list[tuple[int, str]] = []  # (status, code) of each refused move

    def move(self, gid: str, tokens: list[str]) -> int:
        """One move of the seat to act; the HTTP status (201, or the refusal's)."""
        status, game, _ = self.client.call("GET", f"/v1/games/{gid}")
        if status != 200:
            return self._refused(status, game)
        if not game["active_seats"]:
            return 0
        seat = game["active_seats"][0]
        status, legal, _ = self.client.call("GET", f"/v1/games/{gid}/legal-actions", token=tokens[seat])
        if status != 200:
            return self._refused(status, legal)
        status, body, headers = self.client.call("POST", f"/v1/games/{gid}/actions", {
            "expected_version": legal["version"], "command": legal["commands"][-1]}, token=tokens[seat])
        if status == 201:
            for event in body["events"]:
                self.acknowledged[(gid, event["seq"])] = _identity(event)
            return status
        assert headers.get("Content-Type") == "application/problem+json", (status, body)
        return self._refused(status, body)

    def _refused(self, status: int, body: dict) -> int:
        assert status in (409, 503), body  # 409: a retried read raced our own earlier, unacknowledged move
        self.refusals.append((status, body.get("code")))
        return status

    def until(self, gid: str, tokens: list[str], wanted: int | str, timeout: float) -> None:
        """Move until one is answered ``wanted``: a status, or the code of a refusal."""
        deadline = time.monotonic() + timeout
        while True:
            status = self.move(gid, tokens)
            if status == wanted or (status >= 400 and self.refusals[-1][1] == wanted):
                return
            assert time.monotonic() < deadline, f"no {wanted} for {gid} within {timeout} s: {self.refusals[-5:]}"
            time.sleep(0.1)


def test_kill_a_master_503_while_its_slots_have_none_then_recover_without_losing_an_acknowledged_move():
    with LocalCluster(masters=3, replicas=1) as cluster, \
            api(cluster.url, env={"DELVE_PREFIX": PREFIX, "DELVE_WAIT_REPLICAS": "1",
                                  "DELVE_WAIT_TIMEOUT_MS": "500"}) as client:
        games = [client.create_tiny(turns=30) for _ in range(6)]
        players = Players(client, games)
        for gid, tokens in games:
            for _ in range(3):
                assert players.move(gid, tokens) == 201
        victim_gid, victim_tokens = games[0]
        victim = cluster.master_of(Keys(PREFIX).meta(victim_gid))
        before = len(players.acknowledged)

        cluster.kill(victim)
        players.until(victim_gid, victim_tokens, "store_unavailable", timeout=10)
        # The replica takes over; with no replica of its own yet, appends there are not confirmed.
        cluster.wait_promoted(Keys(PREFIX).meta(victim_gid), timeout=30)
        players.until(victim_gid, victim_tokens, "replication_unconfirmed", timeout=15)
        assert {code for _, code in players.refusals} <= {"store_unavailable", "replication_unconfirmed",
                                                          "version_conflict"}, players.refusals
        cluster.restart(victim)  # rejoins as the new master's replica: appends are confirmed again
        players.until(victim_gid, victim_tokens, 201, timeout=30)

        for gid, tokens in games:
            for _ in range(80):
                if players.move(gid, tokens) == 0:
                    break
        assert len(players.acknowledged) > before
        for gid, _ in games:
            lines = client.export(gid)
            verdict = replay.verify(lines)  # no worker runs here to reveal the seed: the chain is what can be checked
            assert verdict.chain_ok and verdict.events == len(envelopes(lines)), (gid, verdict.problems)
            held = {(gid, env["seq"]): _identity(env) for env in envelopes(lines)}
            lost = [k for k, h in players.acknowledged.items() if k[0] == gid and held.get(k) != h]
            assert not lost, f"acknowledged events lost in {gid}: {lost}"
