"""`delve verify` and `delve play`, run in-process with click's test runner."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from delve.cli import cli

BOTS = [{"name": "ann", "bot": "random"}, {"name": "bob", "bot": "random"}]


@pytest.fixture
def env(monkeypatch, redis_url, prefix, store):
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("DELVE_PREFIX", prefix)
    monkeypatch.delenv("RQ_REDIS_URL", raising=False)


@pytest.fixture
def export(service, tmp_path):
    """A finished tiny game's NDJSON export."""
    from workers.inprocess import InProcessDriver

    with InProcessDriver(service) as driver:
        gid = service.create("tiny", BOTS, {"turns": 6})["id"]
        driver.run([gid])
    path = tmp_path / "game.ndjson"
    path.write_text("".join(service.export(gid, admin=False)))
    return path


def test_verify_accepts_an_intact_export(export):
    result = CliRunner().invoke(cli, ["verify", str(export)])
    assert result.exit_code == 0, result.output
    verdict, summary = result.output.splitlines()
    assert verdict.startswith("OK ") and "(game.ndjson) tiny-1, 12 events: chain intact, replayed" in verdict
    assert "signatures not checked (pass --keys URL|FILE)" in verdict
    assert summary == "1 game replayed, all sound"


def test_verify_names_the_first_tampered_seq(export):
    lines = export.read_text().splitlines()
    env = json.loads(lines[7])
    env["data"]["digit"] = (env["data"].get("digit", 0) + 1) % 10
    lines[7] = json.dumps(env)
    export.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(cli, ["verify", str(export)])
    assert result.exit_code == 1
    verdict, summary, next_step = result.output.splitlines()
    assert verdict.startswith("FAILED ") and f"seq {env['seq']}: chain broken at seq {env['seq']}" in verdict
    assert next_step.startswith("next: the file is not as the server wrote it")
    assert summary.startswith("1 game replayed, 1 failed: ") and f"seq {env['seq']}" in summary
    verdict = json.loads(CliRunner().invoke(cli, ["verify", "--json", str(export)]).output)
    assert verdict["ok"] is False and verdict["chain_ok"] is False and verdict["status"] == "failed"


def test_verify_reports_a_line_that_is_not_json_once_as_what_it_is(export):
    lines = export.read_text().splitlines()
    lines.insert(4, "this is not json")
    export.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(cli, ["verify", str(export)])
    assert result.exit_code == 1
    assert "line 5 is not JSON" in result.output and result.output.count("not JSON") == 2  # the game's line, the summary


def test_a_line_cut_short_in_the_middle_is_the_verdict_not_the_chain_it_breaks(export):
    lines = export.read_text().splitlines()
    lines[4] = lines[4][:30]
    export.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(cli, ["verify", str(export)])
    verdict = result.output.splitlines()[0]
    assert result.exit_code == 1 and verdict.endswith("(game.ndjson) line 5 is not JSON: Unterminated string starting at")
    problems = json.loads(CliRunner().invoke(cli, ["verify", "--json", str(export)]).output)["problems"]
    assert [p["problem"] for p in problems] == ["line 5 is not JSON: Unterminated string starting at"]


def test_a_byte_order_mark_before_the_first_line_is_allowed(export):
    export.write_bytes(b"\xef\xbb\xbf" + export.read_bytes())
    result = CliRunner().invoke(cli, ["verify", str(export)])
    assert result.exit_code == 0 and result.output.startswith("OK "), result.output


def test_verify_reads_stdin(export):
    result = CliRunner().invoke(cli, ["verify", "-"], input=export.read_bytes())
    assert result.exit_code == 0, result.output


def test_play_inprocess_sums_up_the_games(env):
    result = CliRunner().invoke(cli, ["play", "tiny", "--games", "3", "--seats", "3", "--inprocess",
                                      "--options", '{"turns": 4}', "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == summary["finished"] == 3
    assert summary["finish_rate"] == 1.0
    assert summary["avg_events"] == 1 + 1 + 3 + 4 + 2  # created, table, secrets, turns, seed + finished
    assert set(summary["wins_by_seat"]) == {"0", "1", "2"}
    assert sum(summary["wins_by_seat"].values()) >= 3


def test_play_table_output_and_bad_input(env):
    ok = CliRunner().invoke(cli, ["play", "tiny", "--games", "2", "--inprocess", "--options", '{"turns": 2}'])
    assert ok.exit_code == 0, ok.output
    assert "finished      2 (100.0%)" in ok.stdout
    bad = CliRunner().invoke(cli, ["play", "tiny", "--inprocess", "--bot", "genius"])
    assert bad.exit_code == 2 and "choose one of ['random']" in bad.output
    unknown = CliRunner().invoke(cli, ["play", "chess", "--inprocess"])
    assert unknown.exit_code == 1 and "no game 'chess'" in unknown.output
    illegal = CliRunner().invoke(cli, ["play", "tiny", "--inprocess", "--options", '{"turns": 99}'])
    assert illegal.exit_code == 1 and "cannot create the games" in illegal.output


def test_worker_without_redis_says_what_to_do(monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)
    result = CliRunner().invoke(cli, ["worker"])
    assert result.exit_code == 1 and "REDIS_URL is not set" in result.output and "delve serve" in result.output
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    result = CliRunner().invoke(cli, ["reactor"])
    assert result.exit_code == 1 and "REDIS_URL unreachable" in result.output
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 1 and "unset REDIS_URL to use the embedded one" in result.output
    result = CliRunner().invoke(cli, ["play", "tiny", "--workers", "0"])
    assert result.exit_code == 1 and "unset REDIS_URL to use the embedded one" in result.output
