"""`delve play --workers 0`: games played by an already running worker and reactor, through Redis."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from delve.cli import cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_play_through_running_workers(monkeypatch, redis_url, prefix, store, queue, tmp_path):
    env = {**os.environ, "REDIS_URL": redis_url, "DELVE_PREFIX": prefix, "DELVE_QUEUE": queue.name,
           "DELVE_REACTOR_GROUP": f"g-{prefix}", "PYTHONPATH": str(ROOT)}
    env.pop("RQ_REDIS_URL", None)
    for key in ("REDIS_URL", "DELVE_PREFIX", "DELVE_QUEUE"):
        monkeypatch.setenv(key, env[key])
    monkeypatch.delenv("RQ_REDIS_URL", raising=False)
    log = (tmp_path / "procs.log").open("wb")
    procs = [subprocess.Popen([sys.executable, "-m", "tests.workers.procs", role], cwd=ROOT, env=env,
                              stdout=log, stderr=subprocess.STDOUT) for role in ("worker", "reactor")]
    try:
        result = CliRunner().invoke(cli, ["play", "tiny", "--games", "2", "--workers", "0", "--timeout", "60",
                                          "--options", '{"turns": 3}', "--json"])
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=20)
    assert result.exit_code == 0, result.output + (tmp_path / "procs.log").read_text()
    summary = json.loads(result.stdout)
    assert summary["finished"] == 2 and summary["errors"] == {}
    assert "tiny games" in result.stderr  # the progress bar
