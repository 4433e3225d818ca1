"""Records are forever: a stored bundle of every generation of tournament bundle keeps verifying.

``tests/data/bundles/gen<generation>[-<note>]-<commits>-<game>-<format>[-<note>].ndjson`` are real
bundles, each made by the code of the commit(s) it names on that code's own service and Redis
(``tests/support/old_bundle.py`` says how), never by today's code imitating it:

- ``gen1-d46d871-...``: the first generation (2026-11-23 12:25 up to 93861e7 at 16:52): games created
  before their RoundPaired under ids the game service drew, reports without an outcome;
- ``gen1-upgraded-d46d871-93861e7-...``: a tournament begun by d46d871's code and finished by
  93861e7's on the same Redis (a server upgraded mid-tournament): the first rounds in the first
  generation's shapes, the rest in the second's;
- ``gen2-pairing<n>-<commit>-...``: the second generation (ids derived from (tournament, round,
  table)), one per pairing version (``Config.PAIRING``); from pairing 2 on with the signed standings
  (their signatures are not checked here: the keys of a test server of that time are gone), and
  with pairing 3 and 4 a withdrawal from the round being played, a director's result and a
  correction of it; ``-by`` (0092f39) names who registered, withdrew and started (``by``).

Each verifies with today's ``delve verify``, and one changed byte, result or standing in it is
still named.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from application.tournament_verify import LATER_SETTINGS, generation, verify_bundle
from delve.cli import cli
from domain.tournament.config import PAIRING
from tests.support.forge import rechain

DATA = Path(__file__).resolve().parent.parent / "data" / "bundles"
BUNDLES = sorted(DATA.glob("*.ndjson"))
FIRST = [p for p in BUNDLES if p.name.startswith("gen1-")]


def lines_of(path: Path) -> list[str]:
    return path.read_text().splitlines(keepends=True)


def log_of(lines: list[str]) -> tuple[str, list[dict]]:
    tid = json.loads(lines[0])["tournament"]
    return tid, [e for e in map(json.loads, lines[1:]) if e.get("game_id") == tid]


def forged(lines: list[str], forge) -> list[str]:
    """The bundle once ``forge(log)`` edited its tournament log and the log was re-chained (a sound
    chain: only the replay can tell); the games and the signed statements are left as they were."""
    tid, log = log_of(lines)
    forge(log)
    return [lines[0], *rechain(log), *(line for line in lines[1:] if json.loads(line).get("game_id") != tid)]


def problems(lines: list[str]) -> list[str]:
    verdict = verify_bundle(lines)
    assert not verdict.ok
    return [f"{p['place']}: {p['problem']}" for p in verdict.problems]


def test_every_generation_and_pairing_version_has_a_stored_bundle():
    """A new generation of the log, or a new pairing version, brings a stored bundle of its own."""
    created = [log_of(lines_of(p))[1][0]["data"] for p in BUNDLES]
    assert {generation(c) for c in created} == {1, 2}
    assert {c["config"].get("pairing", 1) for c in created} == set(range(1, PAIRING + 1))
    assert any("upgraded" in p.name for p in FIRST)


@pytest.mark.parametrize("path", BUNDLES, ids=[p.stem for p in BUNDLES])
def test_stored_bundle_verifies(path):
    lines = lines_of(path)
    header, (tid, log) = json.loads(lines[0]), log_of(lines)
    verdict = verify_bundle(lines)
    assert verdict.ok, verdict.problems
    assert verdict.generation == int(path.name[3]) == generation(log[0]["data"])
    assert verdict.tournament == tid and sorted(verdict.games) == sorted(header["games"])
    assert all(verdict.games.values()) and verdict.standings == log[-1]["data"]["standings"]
    if "director" in path.name:
        assert [d["kind"] for d in verdict.decisions] == ["forfeit", "adjudicated"]
        assert [c["kind"] for c in verdict.corrections] == ["walkover"]


@pytest.mark.parametrize("path", FIRST, ids=[p.stem for p in FIRST])
def test_delve_verify_passes_a_first_generation_bundle(path):
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("OK") and "pairings and standings follow" in result.output


@pytest.mark.parametrize("path", BUNDLES, ids=[p.stem for p in BUNDLES])
def test_a_changed_byte_in_a_game_is_named(path):
    lines = lines_of(path)
    tid, _ = log_of(lines)
    i = next(i for i, line in enumerate(lines[1:], 1)
             if json.loads(line).get("game_id") not in (tid, None) and json.loads(line).get("seq") == 40)
    env = json.loads(lines[i])
    at = env["at"]
    bad = lines[:i] + [lines[i].replace(f'"at":"{at}"', f'"at":"{at[:-2]}{(int(at[-2]) + 1) % 10}Z"')] + lines[i + 1:]
    assert sum(a != b for a, b in zip("".join(bad), "".join(lines))) == 1
    assert f"game {env['game_id']} seq 40: chain broken at seq 40: hash does not match the envelope's content" \
        in problems(bad)


@pytest.mark.parametrize("path", BUNDLES, ids=[p.stem for p in BUNDLES])
def test_a_changed_result_is_named(path):
    """A report's places swapped, the log re-chained: the game's final scores say otherwise."""
    lines = lines_of(path)
    seq, gid = [], []

    def swap(log):
        report = next(e for e in log if e["type"] == "GameFinished")
        places = report["data"]["result"]["places"]
        a, b = list(places)
        places[a], places[b] = places[b], places[a]
        seq.append(report["seq"])
        gid.append(report["data"]["game_id"])
    found = problems(forged(lines, swap))
    assert f"tournament seq {seq[0]}: the reported result differs from game {gid[0]}'s final scores" in found


@pytest.mark.parametrize("path", BUNDLES, ids=[p.stem for p in BUNDLES])
def test_a_changed_standing_is_named(path):
    """A point more for the winner in the final standings, the log re-chained."""
    lines = lines_of(path)

    def more(log):
        log[-1]["data"]["standings"][0]["points"] += 1
    found = problems(forged(lines, more))
    assert f"tournament seq {log_of(lines)[1][-1]['seq']}: the final standings do not follow from the results" in found


@pytest.mark.parametrize("path", FIRST, ids=[p.stem for p in FIRST])
def test_a_first_generation_game_plays_one_table_only(path):
    """Its ids are drawn, not derived, but a game still serves one table: a round naming an earlier
    round's game is named (its seats would not even match)."""
    lines = lines_of(path)

    def again(log):
        paired = [e for e in log if e["type"] == "RoundPaired"]
        paired[1]["data"]["tables"][0]["game_id"] = paired[0]["data"]["tables"][0]["game_id"]
    seq = [e for e in log_of(lines)[1] if e["type"] == "RoundPaired"][1]["seq"]
    first = [e for e in log_of(lines)[1] if e["type"] == "RoundPaired"][0]["data"]["tables"][0]["game_id"]
    assert f"tournament seq {seq}: round 2 names game {first}, which another table plays already" \
        in problems(forged(lines, again))


@pytest.mark.parametrize("path", FIRST, ids=[p.stem for p in FIRST])
def test_a_first_generation_log_relabelled_as_the_second_fails(path):
    """The generation is what the bundle says: given the later settings (and so the later rules),
    the same log's drawn ids are not those derived, and its early reports lack their outcome."""
    lines = lines_of(path)

    def relabel(log):
        log[0]["data"].update(dict.fromkeys(LATER_SETTINGS))
    found = problems(forged(lines, relabel))
    assert any("round 1 names game ids other than those derived from it" in p for p in found)
    assert any("the reported result differs from game" in p for p in found)


def test_a_later_event_ends_the_first_generations_shapes():
    """Code never went back: once an upgraded log pairs a round under derived ids, a report
    without its outcome is not one any code wrote then."""
    path = next(p for p in FIRST if "upgraded" in p.name)
    lines = lines_of(path)
    log = log_of(lines)[1]
    derived = [e for e in log if e["type"] == "RoundPaired"][-1]
    late = next(e for e in log if e["type"] == "GameFinished" and e["seq"] > derived["seq"])

    def drop_outcome(log):
        next(e for e in log if e["seq"] == late["seq"])["data"]["result"].pop("outcome")
    assert f"tournament seq {late['seq']}: the reported result differs from game {late['data']['game_id']}'s " \
           "final scores" in problems(forged(lines, drop_outcome))


def test_a_second_generation_log_stripped_of_its_settings_is_still_checked_as_one():
    """A current log made to look like the first generation gains nothing: its TournamentStarted is a
    later event, so every check from there on is the second generation's."""
    path = next(p for p in BUNDLES if p.name.startswith("gen2-pairing1-"))
    lines = lines_of(path)
    report = next(e for e in log_of(lines)[1] if e["type"] == "GameFinished")

    def downgrade(log):
        for key in LATER_SETTINGS:
            log[0]["data"].pop(key)
        next(e for e in log if e["seq"] == report["seq"])["data"]["result"].pop("outcome")
    assert f"tournament seq {report['seq']}: the reported result differs from game {report['data']['game_id']}'s " \
           "final scores" in problems(forged(lines, downgrade))


def test_a_signed_bundle_made_to_look_first_generation_fails_on_its_statement():
    """The signed standings name the log's head, so a rewritten TournamentCreated is named even without keys."""
    path = next(p for p in BUNDLES if "signed" in p.name)

    def downgrade(log):
        for key in LATER_SETTINGS:
            log[0]["data"].pop(key)
    found = problems(forged(lines_of(path), downgrade))
    assert any("the signed standings name" in p and "this log has" in p for p in found)


def test_a_created_event_naming_some_later_settings_is_of_no_generation():
    path = FIRST[0]

    def half(log):
        log[0]["data"]["clock"] = None
    assert problems(forged(lines_of(path), half)) == [
        "tournament seq 1: TournamentCreated names some of clock, start_at, organizer but not all: "
        "no generation of the tournament log has that shape"]


def test_the_audit_route_finds_nothing_in_a_first_generation_bundle_but_that_this_server_did_not_sign_it(client):
    """POST /v1/audit/verify reads the same generations as delve verify. It checks with this server's
    keys, and no server signed anything before 9bd6d6c: those are the only problems it names."""
    path = next(p for p in FIRST if "upgraded" in p.name)
    verdict = client.post("/v1/audit/verify", data=path.read_bytes(), content_type="application/x-ndjson").json
    assert verdict["tournament"] == json.loads(lines_of(path)[0])["tournament"] and len(verdict["games"]) == 3
    assert verdict["chain_ok"] and verdict["replay_ok"] and verdict["problems"]
    assert all(p["problem"].startswith("not signed by this server") for p in verdict["problems"])
