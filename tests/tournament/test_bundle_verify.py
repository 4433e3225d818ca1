"""What ``delve verify`` checks in a bundle besides its games, with or without keys: the signed
standings statement says what the log gives, every round is completed with the standings its
results give, a bundle names a missing header line; and what its report shows (judge audit)."""
from __future__ import annotations

import json

from click.testing import CliRunner

from application.tournament_verify import verify_any, verify_bundle
from delve.cli import cli
from delve.tournament import play_out
from tests.tournament.test_director_service import forged
from tests.tournament.test_tournament_service import bots, driver, ts  # noqa: F401 - the fixtures


def played(ts, driver, fmt: str = "swiss") -> tuple[str, list[str]]:  # noqa: F811
    """A finished tiny tournament of four bots over two rounds, and its bundle (signed standings last)."""
    t = ts.create({"game": "tiny", "format": fmt, "table_size": 2, "rounds": 2, "options": {"turns": 1},
                   "entrants": bots(4)})
    return t["id"], list(ts.bundle(play_out(ts, t["id"], driver)["id"]))


def with_statement(bundle: list[str], edit) -> list[str]:
    """The bundle with its signed standings statement edited by ``edit`` (the signature left as it was)."""
    signed = json.loads(bundle[-1])
    edit(signed["signature"]["statement"])
    return bundle[:-1] + [json.dumps(signed) + "\n"]


def standings_rows(report: str) -> list[str]:
    """The entrant cells of the Markdown report's final standings table."""
    table = report.split("## Final standings")[1].split("\n## ")[0]
    return [row.split(" | ")[1] for row in table.splitlines() if row.startswith("| ") and row[2].isdigit()]


def test_signed_standings_unlike_the_logs_fail_without_keys_and_the_report_shows_the_checked_ones(
        ts, driver, tmp_path):  # noqa: F811
    """The report's standings are the log's (TournamentFinished, recomputed from the results), never
    the statement's: unchecked without keys, a statement naming another winner named the wrong one."""
    _tid, bundle = played(ts, driver, "round-robin")
    final = next(json.loads(line) for line in bundle if '"TournamentFinished"' in line)["data"]["standings"]

    def swap_first_two(statement):
        rows = statement["standings"]
        rows[0]["entrant"], rows[1]["entrant"] = rows[1]["entrant"], rows[0]["entrant"]
    path, report = tmp_path / "t.ndjson", tmp_path / "standings.md"
    path.write_text("".join(with_statement(bundle, swap_first_two)))
    result = CliRunner().invoke(cli, ["verify", str(path), "--report", str(report)])
    assert result.exit_code == 1
    first = result.output.splitlines()[0]
    assert first.startswith("FAILED")
    assert "tournament: the signed standings disagree with the final standings the log gives" in first
    assert f"line 1 names {final[1]['entrant']}" in first and f"the log {final[0]['entrant']}" in first
    checked = [f"bot{s['entrant'][1:]} ({s['entrant']})" for s in final]
    assert standings_rows(report.read_text()) == checked

    path.write_text("".join(bundle))
    assert CliRunner().invoke(cli, ["verify", str(path), "--report", str(report)]).exit_code == 0
    assert standings_rows(report.read_text()) == checked


def test_a_statement_unlike_the_log_names_where_it_parts_from_it(ts, driver):  # noqa: F811
    """Another head for the log (named beside this log's own), or another chain head for a game."""
    tid, bundle = played(ts, driver)
    log = [json.loads(line) for line in bundle if f'"game_id":"{tid}"' in line]
    game = next(e for e in log if e["type"] == "GameFinished")["data"]["game_id"]

    def other_head(statement):
        statement["head"] = "ab" * 32

    def other_game_head(statement):
        statement["games"][game] = "cd" * 32
    problems = [[p["problem"] for p in verify_bundle(with_statement(bundle, edit)).problems]
                for edit in (other_head, other_game_head)]
    assert problems == [[f"the signed standings name {len(log)} tournament events and head {'ab' * 32}; "
                         f"this log has {len(log)} and head {log[-1]['hash']}"],
                        [f"the signed standings name another chain head than the log's report for game {game}"]]


def test_each_round_completes_with_the_standings_its_results_give(ts, driver):  # noqa: F811
    """RoundCompleted's standings are recomputed from the results before it; no round is paired, and
    the tournament does not finish, before the round before is completed. (Re-chained forgeries:
    the standings statement, which names the old head, fails too; these name the log's own fault.)"""
    tid, bundle = played(ts, driver)

    def completed(log, n: int = 0) -> int:
        return [i for i, e in enumerate(log) if e["type"] == "RoundCompleted"][n]

    def renumber(log):
        for seq, e in enumerate(log, start=log[0]["seq"]):
            e["seq"] = seq

    def more_points(log):
        log[completed(log)]["data"]["standings"][0]["points"] += 7
    assert any(p.startswith("round 1 is completed with standings other than its results give")
               for p in forged(bundle, tid, more_points))

    def dropped(log):
        del log[completed(log)]
        renumber(log)
    assert "round 2 is paired before round 1 is completed" in forged(bundle, tid, dropped)

    def last_dropped(log):
        del log[completed(log, 1)]
        renumber(log)
    assert "TournamentFinished before round 2 is completed" in forged(bundle, tid, last_dropped)

    def early(log):
        at = completed(log)
        log.insert(at - 1, log.pop(at))
        renumber(log)
    assert any(p.startswith("round 1 is completed before every table has its result")
               for p in forged(bundle, tid, early))


def test_a_bundle_without_its_header_line_says_so(ts, driver):  # noqa: F811
    tid, bundle = played(ts, driver)
    verdict = verify_any([line.encode() for line in bundle[1:]])
    assert not verdict.ok and verdict.tournament == tid
    assert [p["problem"] for p in verdict.problems] == [
        'the header line is missing: the file begins with the tournament\'s log, where a bundle begins with '
        '{"bundle": "delve-tournament", "tournament", "games"}']


def test_a_game_swapped_for_one_of_another_tournament_or_dropped_from_the_header_is_named():
    """The header, the games the bundle holds and the games the log paired must agree; where they do
    not, the problem names the games, not only that they differ."""
    from pathlib import Path
    stored = Path(__file__).resolve().parent.parent / "data" / "bundles"
    bundle = (stored / "gen2-pairing4-cca5492-mountain-king-swiss-director.ndjson").read_text().splitlines()
    header = json.loads(bundle[0])
    short = dict(header, games=header["games"][:-1])
    verdict = verify_bundle([json.dumps(short)] + bundle[1:])
    assert not verdict.ok
    assert any(p["place"] == "bundle" and p["problem"].endswith(
        f"differ: paired but not in the header: {header['games'][-1]}") for p in verdict.problems), verdict.problems
    stranger = dict(header, games=header["games"] + ["g0000000000000000"])
    verdict = verify_bundle([json.dumps(stranger)] + bundle[1:])
    assert any("in the header but paired at no table: g0000000000000000" in p["problem"] for p in verdict.problems)
