"""`delve bench` end to end, kept short: every section runs and reports every figure of issues 13 and 22."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from domain import registry
from delve.cli import cli


@pytest.mark.slow
@pytest.mark.skipif("mountain-king" not in registry.available(), reason="needs a real game for the API process")
def test_bench_reports_every_number(monkeypatch, redis_url, tmp_path):
    monkeypatch.setenv("REDIS_URL", redis_url)
    out = tmp_path / "bench.json"
    result = CliRunner().invoke(cli, ["bench", "--game", "mountain-king", "--seconds", "1", "--connections", "2",
                                      "--games", "1", "--appends", "50", "--streams", "40", "--platform-games", "1",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data == json.loads(result.stdout)
    assert data["append"]["latency_ms"]["n"] == 50
    assert 0 < data["append"]["latency_ms"]["p50"] <= data["append"]["latency_ms"]["p99"]
    assert data["verify"]["all_ok"] and data["verify"]["verify_events_per_s"] > 0
    http = data["http"]
    assert http["generator"] in ("wrk", "python-multiprocess")
    for name in ("bare_before", "bare_after", "healthz", "game_seat", "legal_actions", "action_cycle",
                 "states_one_client"):
        assert http[name]["requests"] > 0 and http[name]["socket_errors"] == 0, name
        assert 0 < http[name]["p50_ms"] <= http[name]["p99_ms"], name
    assert http["action_cycle"]["counters"]["posts"] > 0 and http["action_cycle"]["counters"]["refused"] == 0
    assert set(http["ratios"]) == {"healthz_vs_bare", "game_seat_vs_bare", "legal_actions_vs_bare", "cycle_vs_two_bare"}
    trips = data["round_trips"]["per_request"]
    assert trips["game_seat"] == 1 and trips["legal_actions"] == 1 and trips["action_post"] == 2
    storage = data["storage"]
    assert storage["export_byte_identical_after"] and storage["bytes_per_game_after"] < storage["bytes_per_game_before"]
    assert "[bench] http:" in result.stderr
    cpu = data["redis_cpu"]
    assert cpu["actions"] > 0 and cpu["redis_cpu_ms_per_action"] > 0 and "evalsha" in cpu["by_command_ms_per_action"]
    rows = {r["figure"]: r for r in data["summary"]}
    assert rows["round trips per action"]["value"] == 2 and rows["round trips per action"]["met"]
    assert {"target", "ratio", "met"} <= set(rows["Redis CPU per action (ms)"])
    assert "Redis CPU per action (ms)" in result.stderr  # the same table, for a person
    streams = data["streams"]
    assert streams["open"] == 40 and streams["fanout"]["received"] == 40 and streams["fanout"]["missed"] == 0
    assert streams["redis"]["redis_blocked_xread_idle"] >= 1 and streams["memory"]["bytes_per_stream"] is not None
    assert rows["a move's fan-out to every stream, p99 (ms)"]["value"] == streams["fanout"]["latency_ms"]["p99"]
    cpu = data["platform_cpu"]
    for how in ("forking_workers", "simple_workers"):
        assert cpu[how]["kit"]["same_games"] and cpu[how]["platform"]["moves"] == cpu[how]["kit"]["moves"] > 0
        assert {"api", "reactor", "worker", "redis"} == set(cpu[how]["platform"]["cpu_ms_per_move_by_part"])
    assert rows["bot game CPU per move, platform vs kit's driver"]["value"] == cpu["ratio"] > 0
