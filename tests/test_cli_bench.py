"""`delve bench` end to end, kept short: every section runs and reports sane numbers."""
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
    result = CliRunner().invoke(cli, ["bench", "--game", "mountain-king", "--seconds", "1", "--clients", "2",
                                      "--appends", "50", "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data == json.loads(result.stdout)
    assert data["append"]["latency_ms"]["n"] == 50
    assert 0 < data["append"]["latency_ms"]["p50"] <= data["append"]["latency_ms"]["p99"]
    assert data["replay"]["verify_ok"] and data["replay"]["fold_events_per_s"] > 0
    assert data["http"]["actions"] > 0 and data["http"]["errors"] == [] and data["http"]["refused"] == 0
    assert "[bench] http:" in result.stderr
