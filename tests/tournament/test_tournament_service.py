"""Tournaments end to end on a real Redis: the log, the games it creates, the
job that advances it, the bundle and its verification (application/tournaments.py)."""
from __future__ import annotations

import json

import pytest

from domain.core import Illegal
from application.tournament_verify import verify_bundle
from application.tournaments import TournamentService
from workers import table
from workers.follower import Follow
from delve.tournament import play_out
from workers.inprocess import InProcessDriver


def bots(n: int, bot: str = "random") -> list[dict]:
    return [{"bot": bot, "name": f"bot{i}"} for i in range(n)]


@pytest.fixture
def ts(service):
    return TournamentService(service)


@pytest.fixture
def driver(service):
    """Created before the tournament, so its reactors see its log and every game it creates."""
    with InProcessDriver(service, tournaments=True) as d:
        yield d


def test_a_swiss_of_bots_runs_to_the_end_and_its_bundle_verifies(ts, driver):
    t = ts.create({"game": "tiny", "format": "swiss", "table_size": 2, "rounds": 3, "options": {"turns": 2},
                   "entrants": bots(7)})
    assert t["status"] == "running" and t["rounds"] == []  # round 1 is paired by a job, not the request
    done = play_out(ts, t["id"], driver)
    assert len(done["rounds"][0]["byes"]) == 1
    assert len(done["rounds"]) == 3 and all(r["completed"] for r in done["rounds"])
    assert [s["place"] for s in done["standings"]][0] == 1 and done["seed"] is not None
    types = [e["type"] for e in ts.events(t["id"], limit=1000)]
    assert types[0] == "TournamentCreated" and types.count("EntrantRegistered") == 7
    assert types[8] == "TournamentStarted"
    assert types.count("RoundPaired") == 3 and types.count("GameFinished") == 9 and types[-1] == "TournamentFinished"
    bundle = list(ts.bundle(t["id"]))
    verdict = verify_bundle(bundle)
    assert verdict.ok, verdict.problems
    assert len(verdict.games) == 9


def test_round_robin_at_three_seats_with_a_withdrawal(ts, driver):
    t = ts.create({"game": "tiny", "format": "round-robin", "table_size": 3, "options": {"turns": 1},
                   "entrants": bots(7), "start_at": "2099-01-01T00:00:00Z"})
    assert t["status"] == "registering"
    ts.register(t["id"], {"bot": "random", "name": "late"})
    ts.start(t["id"])
    ts.withdraw(t["id"], "e3")
    done = play_out(ts, t["id"], driver)
    later = [tb["seats"] for r in done["rounds"][1:] for tb in r["tables"]] + [r["byes"] for r in done["rounds"][1:]]
    assert not any("e3" in seats for seats in later)
    assert verify_bundle(list(ts.bundle(t["id"]))).ok


def test_the_followers_advance_the_tournament_of_a_finished_game(ts):
    """No job and no lock: the tournaments follower pairs round 1 from the log's entry, the
    tournament-games follower reports the game when its GameFinished entry comes."""
    t = ts.create({"game": "tiny", "format": "knockout", "table_size": 2, "options": {"turns": 1},
                   "entrants": bots(2)})
    assert table.tournament_due(ts.state(t["id"])[0]) == []
    followers = {f.name: f for f in table.FOLLOWERS}
    with InProcessDriver(ts.games) as games:  # before the game: it reads the feeds from now on
        assert Follow(ts.games, followers["tournaments"]).step() == 1  # pairs round 1, creates its game
        gid = ts.get(t["id"])["rounds"][0]["tables"][0]["game_id"]
        games.run([gid])  # its loop steps the followers too: the report, then the end
    assert ts.get(t["id"])["status"] == "finished"
    assert [Follow(ts.games, f).step() for f in table.FOLLOWERS] == [0] * len(table.FOLLOWERS)  # all applied once
    assert ts.advance(t["id"]) is False  # applied again, it changes nothing


def _tampered(bundle: list[str], index: int, old: str, new: str) -> list[str]:
    out = list(bundle)
    assert old in out[index]
    out[index] = out[index].replace(old, new, 1)
    return out


def test_a_changed_byte_is_named(ts, driver):
    t = ts.create({"game": "tiny", "format": "swiss", "table_size": 2, "rounds": 2, "options": {"turns": 1},
                   "entrants": bots(4)})
    bundle = list(ts.bundle(play_out(ts, t["id"], driver)["id"]))
    paired = next(i for i, line in enumerate(bundle) if '"RoundPaired"' in line)
    bad = verify_bundle(_tampered(bundle, paired, '"e0"', '"e9"'))
    assert not bad.ok and any(p["place"] == f"tournament seq {json.loads(bundle[paired])['seq']}"
                              for p in bad.problems)
    game_line = next(i for i, line in enumerate(bundle) if '"SecretDealt"' in line)
    env = json.loads(bundle[game_line])
    bad = verify_bundle(_tampered(bundle, game_line, '"digit":', '"digit":1'))
    assert not bad.ok and bad.problems[0]["place"] == f"game {env['game_id']} seq {env['seq']}"


def _forged(ts, driver, forge) -> list[dict]:
    """A played bundle whose tournament log ``forge(envs)`` edits, then re-chained (a good chain)."""
    from events.envelope import compute_hash
    t = ts.create({"game": "tiny", "format": "swiss", "table_size": 2, "rounds": 2, "options": {"turns": 1},
                   "entrants": bots(4)})
    envs = [json.loads(line) for line in ts.bundle(play_out(ts, t["id"], driver)["id"])]
    forge([e for e in envs[1:] if e.get("game_id") == t["id"]])
    prev = None
    for e in envs[1:]:
        if e.get("game_id") != t["id"]:
            continue
        if prev is not None:
            e["prev_hash"] = prev
        e["hash"] = compute_hash(e)
        prev = e["hash"]
    verdict = verify_bundle([json.dumps(e) for e in envs])
    assert not verdict.ok and verdict.chain_ok
    return [p["problem"] for p in verdict.problems]


def test_a_forged_pairing_with_a_good_chain_is_caught(ts, driver):
    """Re-chaining a forged log does not help: the pairing must follow from the rules."""
    def swap_seats(log):
        next(e for e in log if e["type"] == "RoundPaired")["data"]["tables"][0]["seats"].reverse()
    assert any("is not the pairing the rules give" in p for p in _forged(ts, driver, swap_seats))


def test_swapped_game_ids_and_a_late_entrant_are_caught(ts, driver):
    """Each table's game id is derived from (tournament, round, table), and the game must seat
    the entrants paired there; nobody registers after TournamentStarted (TRN-REG-1)."""
    def swap_games(log):
        tables = next(e for e in log if e["type"] == "RoundPaired")["data"]["tables"]
        tables[0]["game_id"], tables[1]["game_id"] = tables[1]["game_id"], tables[0]["game_id"]
    assert any("game ids other than those derived" in p for p in _forged(ts, driver, swap_games))

    def late_entrant(log):
        started = next(i for i, e in enumerate(log) if e["type"] == "TournamentStarted")
        log[started]["type"], log[started - 1]["type"] = log[started - 1]["type"], log[started]["type"]
        log[started]["data"], log[started - 1]["data"] = log[started - 1]["data"], log[started]["data"]
    assert any("registered after registration closed" in p for p in _forged(ts, driver, late_entrant))


@pytest.mark.parametrize("body, code", [
    ({"game": "tiny", "format": "swiss", "table_size": 2, "entrants": [{"bot": "nope"}]}, "unknown_bot"),
    ({"game": "tiny", "format": "swiss", "table_size": 2, "entrants": [{"player": "p1"}]}, "unknown_player"),
    ({"game": "tiny", "format": "swiss", "table_size": 2, "entrants": [{"name": "x"}]}, "bad_entrant"),
    ({"game": "tiny", "format": "swiss", "table_size": 2, "start_at": "tomorrow"}, "bad_start_at"),
    ({"game": "tiny", "format": "swiss", "table_size": 2, "clock": {"per_move_s": 0}}, "bad_clock"),
    ({"game": "tiny", "format": "swiss", "table_size": 5, "entrants": []}, "bad_table_size"),
    ({"game": "nope", "format": "swiss", "table_size": 2}, "unknown_game"),
    ({"game": "tiny", "format": "swiss", "table_size": 2, "options": {"turns": 0}}, "bad_option"),
    ({"game": "tiny", "format": "swiss", "table_size": 4, "entrants": bots(3)}, "too_few_entrants"),
])
def test_bad_tournaments_are_refused_and_nothing_is_written(ts, body, code):
    with pytest.raises(Illegal) as exc:
        ts.create(body)
    assert exc.value.code == code
    assert ts.list(None, None, 0, 10)["total"] == 0


def test_registration_closes_at_the_start(ts, driver):
    t = ts.create({"game": "tiny", "format": "swiss", "table_size": 2, "entrants": bots(2)})
    with pytest.raises(Illegal) as exc:
        ts.register(t["id"], {"bot": "random"})
    assert exc.value.code == "registration_closed"
    with pytest.raises(Illegal):
        ts.start(t["id"])


def test_delve_verify_tells_a_bundle_and_names_the_bad_place(ts, driver, tmp_path):
    from click.testing import CliRunner

    from delve.cli import cli
    t = ts.create({"game": "tiny", "format": "round-robin", "table_size": 2, "options": {"turns": 1},
                   "entrants": bots(3)})
    bundle = list(ts.bundle(play_out(ts, t["id"], driver)["id"]))
    good = tmp_path / "t.ndjson"
    good.write_text("".join(bundle))
    ok = CliRunner().invoke(cli, ["verify", str(good)])
    assert ok.exit_code == 0 and ok.output.startswith("OK")
    first, *games, summary = ok.output.splitlines()
    assert "3 games replayed, pairings and standings follow" in first
    assert len(games) == 3 and all(g.startswith("  OK ") for g in games)
    assert summary == "3 games replayed, all sound"
    i = next(i for i, line in enumerate(bundle) if '"RoundCompleted"' in line)
    bad = tmp_path / "bad.ndjson"
    bad.write_text("".join(_tampered(bundle, i, '"round":1', '"round":2')))
    refused = CliRunner().invoke(cli, ["verify", str(bad)])
    assert refused.exit_code == 1
    assert f"tournament seq {json.loads(bundle[i])['seq']}: " in refused.output.splitlines()[0]


def test_a_bundle_carries_signed_standings_and_signed_games(ts, driver, signer, tmp_path):
    from application.attestation import Keys
    t = ts.create({"game": "tiny", "format": "round-robin", "table_size": 2, "options": {"turns": 1},
                   "entrants": bots(3)})
    done = play_out(ts, t["id"], driver)
    bundle = list(ts.bundle(done["id"]))
    last = json.loads(bundle[-1])["signature"]["statement"]
    assert last["kind"] == "tournament_standings" and last["standings"] == done["standings"]
    verdict = verify_bundle(bundle, Keys.parse(signer.keys()))
    assert verdict.ok and verdict.signed_by == f"{signer.key_id} of test-server"
    assert all(g.signed_by for g in verdict.verdicts.values())
    forged = [line.replace('"place":1', '"place":2') if '"tournament_standings"' in line else line for line in bundle]
    assert not verify_bundle(forged, Keys.parse(signer.keys())).ok
    from click.testing import CliRunner

    from delve.cli import cli
    path, keys, report = tmp_path / "t.ndjson", tmp_path / "keys.json", tmp_path / "t.md"
    path.write_text("".join(bundle))
    keys.write_text(json.dumps(signer.keys()))
    result = CliRunner().invoke(cli, ["verify", str(path), "--keys", str(keys), "--report", str(report)])
    assert result.exit_code == 0 and f"signed by {signer.key_id} of test-server" in result.output.splitlines()[0]
    text = report.read_text()
    assert "## Final standings" in text and "## Games" in text and text.count("| ok | tiny-1 |") == 3


def test_delve_tournament_runs_a_bot_tournament_and_prints_the_standings(monkeypatch, redis_url):
    from click.testing import CliRunner

    from delve.cli import cli
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("DELVE_PREFIX", "unused")  # the command picks a throwaway prefix and deletes it
    result = CliRunner().invoke(cli, ["tournament", "tiny", "--format", "knockout", "--entrants", "5",
                                      "--options", '{"turns": 1}', "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output[result.output.index("{"):])
    assert out["verified"] and out["tournament"]["status"] == "finished" and out["games"] == 4
    assert out["tournament"]["standings"][0]["place"] == 1
