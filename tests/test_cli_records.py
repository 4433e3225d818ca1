"""`delve show`, `delve diff` and `delve verify --report`: a judge with only an export file
answers "who did what at move 30", finds where two records part, and writes a report."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from delve.cli import cli
from tests.support.forge import rechain

DATA = Path(__file__).resolve().parent / "data"
SABOTEUR = DATA / "saboteur-1-3-heuristic.ndjson"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_show_answers_who_did_what_at_move_30_from_the_file_alone():
    result = run("show", SABOTEUR, "--move", 30)
    assert result.exit_code == 0, result.output
    header, move = result.output.splitlines()[:2]
    assert header.startswith("saboteur g6f8ec22b093509e9 (rules saboteur-1), 115 moves; players: heuristic0 (seat 0)")
    assert move.startswith("move 30 of 115 · ") and "heuristic0 (seat 0): Play P13 (tee-new) at (6,2) · seq 101-103" in move
    assert "position after move 30, as a spectator sees it:" in result.output
    maze = result.output.split("maze (", 1)[1].splitlines()
    assert maze[2].split()[::len(maze[2].split()) - 1] == ["-2", "A"] and maze[4].split()[:2] == ["0", "S"]  # goal A face down
    final = run("show", SABOTEUR).output
    assert final.split("maze (", 1)[1].splitlines()[2].split()[-1] == "$"  # goal A turned: the treasure
    data = json.loads(run("show", SABOTEUR, "--move", 30, "--seat", 0, "--json").output)
    assert data["move"]["move"] == 30 and data["move"]["label"] == "Play P13 (tee-new) at (6,2)"
    assert data["view"]["you"]["role"] == "miner" and len(data["view"]["you"]["hand"]) == 6  # as seat 0 sees it
    listed = run("show", SABOTEUR, "--moves").output.splitlines()
    assert len(listed) == 1 + 115 and listed[30] == move


def test_show_works_for_a_frozen_rules_version_and_refuses_a_move_out_of_range():
    result = run("show", DATA / "dwarf-1-3-greedy.ndjson", "--move", 1)
    assert result.exit_code == 0 and "(rules dwarf-1)" in result.output
    bad = run("show", SABOTEUR, "--move", 999)
    assert bad.exit_code == 1 and "has 115 moves" in bad.output


def test_diff_names_the_first_differing_move(tmp_path):
    envs = [json.loads(line) for line in SABOTEUR.read_text().splitlines()]
    next(e for e in envs if e["seq"] == 101)["command"]["x"] = 5
    other = tmp_path / "other.ndjson"
    other.write_text("".join(json.dumps(e) + "\n" for e in envs))
    result = run("diff", SABOTEUR, other)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == "the records differ first at move 30:"
    assert "at (5,2)" in result.stdout and '"x":6' in result.stdout
    assert result.stderr.startswith(f"warning: {other} does not verify (seq 101: chain broken at seq 101")
    same = run("diff", SABOTEUR, SABOTEUR)
    assert same.exit_code == 0 and same.output.startswith("the records are identical: 115 moves")


def test_a_judges_report_in_markdown_and_html(tmp_path):
    for suffix in (".md", ".html"):
        out = tmp_path / f"report{suffix}"
        result = run("verify", SABOTEUR, "--report", out)
        assert result.exit_code == 0, result.output
        text = out.read_text()
        for words in ("g6f8ec22b093509e9", "heuristic0", "Play P13 (tee-new) at (6,2)", "Revealed seed",
                      "Signatures", "Outcome: shared, winners seat:1, seat:2", "saboteur-1"):
            assert words in text, (suffix, words)
    assert "<table>" in (tmp_path / "report.html").read_text()
    assert "| heuristic1 (seat 1) | 5 | 1 |" in (tmp_path / "report.md").read_text()
    assert "| 30 | 2026-11-25T15:46:54.965Z | heuristic0 (seat 0) | Play P13 (tee-new) at (6,2) | 101-103 |" in \
        (tmp_path / "report.md").read_text()


def test_show_draws_the_mountain_and_the_hex_map_and_prints_the_fields_of_a_game_without_a_board():
    mk = run("show", DATA / "mountain-king-1-2-random.ndjson", "--move", 60).output
    grid = mk.split("mountain (autumn side", 1)[1].splitlines()
    row1 = grid[2].split()
    assert row1[0] == "1" and row1[1 + 12] == "D" and row1[1 + 10] == "0"  # seat 0's door at (12,1), its tunnel beside
    assert "seat 1 (teal): honor" in mk
    ind = run("show", DATA / "indagar-3-2-greedy.ndjson", "--move", 60).output
    rows = {line.split()[0]: line for line in ind.split("map (", 1)[1].splitlines()[1:10]}
    assert "Au O0" in rows["r0"] and "!hel" in rows["r0"] and "Ari0" in rows["r2"]  # an outpost, a monster, a hero
    assert "seat 1 (sect): 8 ore, 2 wood, 1 spirits" in ind
    old = run("show", DATA / "indagar-1-1-greedy.ndjson", "--move", 30).output  # a frozen version's view
    assert "map (" in old and "Ari0" in old
    dwarf = run("show", DATA / "dwarf-3-3-greedy.ndjson", "--move", 40).output
    assert "  phase: help" in dwarf and "map (" not in dwarf


def tampered(tmp_path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def relabelled(tmp_path) -> Path:
    """A dwarf-5 record relabelled dwarf-1, its chain re-sealed: the old rules cannot fold its events."""
    envs = [json.loads(line) for line in (DATA / "dwarf-5-3-greedy.ndjson").read_text().splitlines()]
    for env in envs:
        env["rules_version"] = "dwarf-1"
    envs[0]["data"]["rules_version"] = "dwarf-1"
    path = tmp_path / "relabelled.ndjson"
    path.write_text("".join(rechain(envs)))
    return path


def test_a_record_show_and_diff_cannot_read_is_one_line_that_says_to_verify_it(tmp_path):
    lines = SABOTEUR.read_text().splitlines()
    cases = [("show", tampered(tmp_path, "trailing.ndjson", lines + ["{}"]), "seq 398: chain broken at seq 398"),
             ("diff", tampered(tmp_path, "twice.ndjson", lines[:200] + lines[199:]), "seq 200: chain broken at seq 200"),
             ("show", relabelled(tmp_path), "replay failed")]
    for command, path, problem in cases:
        args = (SABOTEUR, path) if command == "diff" else (path,)
        result = run(command, *args)
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit), (path.name, result.exception)
        assert result.output.count("\n") == 1 and result.output.startswith(
            f"Error: {path} cannot be shown: it does not verify ({problem}"), result.output
        assert result.output.endswith(f"run `delve verify {path}` first\n")


def test_show_warns_of_a_record_that_does_not_verify_and_diff_finds_a_key_the_moves_do_not_hold(tmp_path):
    lines = SABOTEUR.read_text().splitlines()
    lines[99] = lines[99][:-1] + ',"note":"the judge owes me"}'
    noted = tampered(tmp_path, "noted.ndjson", lines)
    shown = run("show", noted, "--move", 30)
    assert shown.exit_code == 0 and shown.stdout.startswith("saboteur g6f8ec22b093509e9")
    assert shown.stderr == (f"warning: {noted} does not verify (seq 100: chain broken at seq 100: the envelope holds "
                            f"'note', which Delve never writes and no hash covers); shown as the file says it: run "
                            f"`delve verify {noted}`\n")
    differs = run("diff", SABOTEUR, noted)
    assert differs.exit_code == 1
    assert differs.stdout == "the moves and events agree, but the envelopes of seq 100 differ in note\n"


def test_a_report_that_cannot_be_written_is_one_line(tmp_path):
    result = run("verify", SABOTEUR, "--report", tmp_path / "no" / "such" / "report.html")
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert result.output.splitlines()[-1] == (f"Error: cannot write the report to {tmp_path / 'no' / 'such' / 'report.html'}: "
                                              "No such file or directory; give a path in a directory that exists and "
                                              "that you may write to")


def test_show_draws_a_goal_as_the_seat_that_looked_at_it_sees_it():
    """Seat 2 looked at goals A (a stone) and B (the treasure) with maps before move 30: its view says so."""
    view = json.loads(run("show", SABOTEUR, "--move", 30, "--seat", 2, "--json").output)["view"]
    assert [view["goals"][g]["shape"] for g in "ABC"] == ["stone-nw", "treasure", None]
    for seat, cells in ((2, ["AG", "B$", "C"]), (0, ["A", "B", "C"])):
        maze = run("show", SABOTEUR, "--move", 30, "--seat", seat).output.split("maze (", 1)[1].splitlines()
        assert [maze[row].split()[-1] for row in (2, 4, 6)] == cells, seat


BUNDLE = DATA / "bundles" / "gen2-pairing4-cca5492-mountain-king-swiss-director.ndjson"


def test_show_and_diff_read_a_game_out_of_a_tournament_bundle(tmp_path):
    """A judge handed only a bundle steps through one of its games: the bundle alone names its
    games and their tables, and --game (an id, or a prefix only it has) picks one."""
    plain = run("show", BUNDLE, "--moves")
    assert plain.exit_code == 1
    assert "a tournament bundle of 3 games: name one with --game ID" in plain.output
    assert "g531ee3f41d374d66 (round 2 table 0: ann, bob)" in plain.output
    listed = run("show", BUNDLE, "--game", "g531ee3f", "--moves")
    assert listed.exit_code == 0, listed.output
    assert listed.output.startswith("mountain-king g531ee3f41d374d66 (rules mountain-king-1), 94 moves")
    assert "move 94 of 94 · " in listed.output and not listed.stderr  # it verifies: no warning
    # the game's lines are its export's, byte for byte: it verifies on its own
    from delve.record import game_of_bundle
    export = tmp_path / "g531.ndjson"
    export.write_text("\n".join(game_of_bundle(BUNDLE.read_text().splitlines(), "g531")) + "\n")
    assert run("verify", export).exit_code == 0
    assert run("show", export, "--moves").output == listed.output
    assert run("diff", BUNDLE, BUNDLE, "--game", "g531ee3f41d374d66").exit_code == 0
    unknown = run("show", BUNDLE, "--game", "gffff")
    assert unknown.exit_code == 1 and "no game of the bundle is 'gffff'; its games: g21f291153f455bd7" in unknown.output
    assert run("show", BUNDLE, "--game", "g").exit_code == 1  # every id begins with g: more than one
    wrong = run("show", SABOTEUR, "--game", "g6f8")
    assert wrong.exit_code == 1 and "this file is a game export (leave --game out)" in wrong.output


def test_a_verdict_that_is_not_sound_ends_with_what_to_do_next(tmp_path):
    """The verdict says what is wrong and where; the line after the summary what a judge does next."""
    assert "next:" not in run("verify", BUNDLE).output  # sound: nothing to do
    lines = SABOTEUR.read_text().splitlines()
    lines[100] = lines[100].replace('"x":6', '"x":5')
    changed = tmp_path / "changed.ndjson"
    changed.write_text("\n".join(lines) + "\n")
    result = run("verify", changed)
    assert result.exit_code == 1 and "seq 101: chain broken at seq 101" in result.output
    assert result.output.splitlines()[-1].startswith("next: the file is not as the server wrote it at the place "
                                                     "named: get the record again")
    cut = tmp_path / "cut.ndjson"
    cut.write_text("\n".join(lines[:50]) + "\n")
    result = run("verify", cut)
    assert result.output.startswith("INCOMPLETE")
    assert result.output.splitlines()[-1].startswith("next: the record stops before its end")
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps({"server": "elsewhere", "keys": []}))
    result = run("verify", BUNDLE, "--keys", keys)
    assert result.exit_code == 1 and "not signed by this server" in result.output
    assert result.output.splitlines()[-1].startswith("next: check that --keys holds the keys of the server that "
                                                     "made the record")


def test_a_file_in_the_wrong_place_is_named_as_what_it_is(tmp_path):
    """The keys given as the record, or the record as the keys: each says which it is and what goes
    where, not "chain broken at seq 1: expected seq 1, found None"."""
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps({"server": "delve", "keys": []}))
    swapped = run("verify", keys)
    assert swapped.exit_code == 1 and "chain broken" not in swapped.output
    assert swapped.output.startswith("FAILED      keys.json line 1 is not an event of a game export nor a tournament "
                                     "bundle's header (its keys: keys, server): give an export")
    as_keys = run("verify", SABOTEUR, "--keys", SABOTEUR)
    assert as_keys.exit_code == 1 and "--keys takes the server's URL or a saved copy of its GET /v1/audit/keys" \
        in as_keys.output
    not_keys = tmp_path / "other.json"
    not_keys.write_text('{"server": "delve"}')
    result = run("verify", SABOTEUR, "--keys", not_keys)
    assert result.exit_code == 1 and f"{not_keys} is not a keys document" in result.output


def test_a_file_that_holds_no_game_is_counted_as_not_a_record_and_told_what_to_give(tmp_path):
    """An empty file or another kind of file replays no game: the summary said '1 game replayed, 1 failed'
    and told the judge to fetch the record again, as for a changed export."""
    empty, other = tmp_path / "empty.ndjson", tmp_path / "keys.ndjson"
    empty.write_text("")
    other.write_text('{"server": "delve", "keys": []}\n')
    for path in (empty, other):
        result = run("verify", path)
        summary, advice = result.output.splitlines()[-2:]
        assert result.exit_code == 1 and summary.startswith("0 games replayed, 1 file not a record: "), result.output
        assert advice.startswith("next: give delve verify a game's export"), advice
    both = run("verify", empty, SABOTEUR)
    assert both.exit_code == 1 and "1 game replayed, 1 file not a record" in both.output
    lines = SABOTEUR.read_text().splitlines()
    headless = tmp_path / "headless.ndjson"
    headless.write_text("\n".join(lines[1:]) + "\n")  # a game's export cut at the front is still a record
    result = run("verify", headless)
    assert "1 game replayed, 1 failed" in result.output and "not a record" not in result.output
    assert run("verify", tmp_path / "missing.ndjson").exit_code == 2  # nothing was read: a usage error


def test_a_bundles_verdict_says_where_each_game_was_played_and_who_withdrew():
    """A director reading the verdict sees each game's round, table and players, and each withdrawal
    with who made it, not only game ids."""
    stored = DATA / "bundles" / "gen2-pairing4-0092f39-mountain-king-swiss-director-by.ndjson"
    out = run("verify", stored).output.splitlines()
    assert out[1].startswith("  OK          g0a27e5e6cb7… (round 1 table 0: ann, cy) mountain-king-2, 12 events")
    assert out[3].startswith("  OK          g20e6575784f… (round 2 table 0: cy, bob) mountain-king-2")
    assert out[4] == "  withdrew: dee (e3) from round 1, by admin"
