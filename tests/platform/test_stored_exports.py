"""Records are forever: a stored export of every rules version ever shipped keeps verifying.

``tests/data/<rules_version>-<seats>-<bot>[-note].ndjson`` are real exports, each made
by the code of its time on that time's own server (the ``dwarf-1`` and ``indagar-1``
ones by the last commits that shipped those versions; the ``-before-outcomes`` ones
by the code before scores carried participants and outcomes). Each replays under
the version it names, which for an earlier version is the package frozen in
``domain/<game>/versions/``; a rules fix that forgot to freeze the old version
fails here, and a new version must bring a stored export of its own.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from application.replay import verify
from delve.verdicts import game_line
from domain import registry
from tests.support.forge import rechain
from tests.support.games import shipped

DATA = Path(__file__).resolve().parent.parent / "data"
EXPORTS = sorted(DATA.glob("*.ndjson"))
SHIPPED = shipped()


def recorded_version(path: Path) -> str:
    return json.loads(path.open().readline())["data"]["rules_version"]


def test_every_rules_version_of_every_game_has_a_stored_export():
    stored = {recorded_version(p) for p in EXPORTS}
    held = {v for game in SHIPPED for v in registry.versions(game)}
    assert held <= stored, f"no stored export of {sorted(held - stored)}: add one to tests/data"
    assert {"dwarf-1", "dwarf-2", "indagar-1", "indagar-2", "saboteur-1", "mountain-king-1"} <= held


@pytest.mark.parametrize("path", EXPORTS, ids=[p.stem for p in EXPORTS])
def test_stored_export_verifies_under_the_version_it_names(path):
    verdict = verify(path.read_text().splitlines())
    assert verdict.ok, verdict.problems
    assert verdict.events == len(path.read_text().splitlines())
    assert verdict.rules_version == recorded_version(path)
    assert path.name.startswith(verdict.rules_version + "-")


def test_rules_versions_md_quotes_the_verdict_line_verify_prints():
    doc = (DATA.parent.parent / "docs" / "rules-versions.md").read_text()
    quoted = re.search(r"the text verdict\s+reads `([^`]+)`", doc).group(1)
    assert quoted in game_line(verify((DATA / "dwarf-1-3-greedy.ndjson").read_text().splitlines()))


@pytest.mark.parametrize("path", EXPORTS, ids=[p.stem for p in EXPORTS])
def test_a_changed_command_in_a_stored_export_fails(path):
    """The verdict is not vacuous: a re-sealed chain with a forged command still fails the replay."""
    envs = [json.loads(line) for line in path.read_text().splitlines()]
    victim = next(e for e in envs if e["seq"] > len(envs) // 2 and e.get("command"))
    victim["command"] = {"type": "no_such_command"}
    verdict = verify(rechain(envs))
    assert verdict.chain_ok and not verdict.replay_ok


@pytest.mark.parametrize("old,new", [("dwarf-1", "dwarf-2"), ("indagar-1", "indagar-2")])
def test_an_old_record_replayed_by_the_new_rules_fails(old, new):
    """The frozen version is what replays it: relabelled as the current version (chain re-sealed),
    the same record no longer replays, so the two versions really play differently."""
    path = next(p for p in EXPORTS if recorded_version(p) == old)
    envs = [json.loads(line) for line in path.read_text().splitlines()]
    for env in envs:
        env["rules_version"] = new
    envs[0]["data"]["rules_version"] = new
    verdict = verify(rechain(envs))
    assert verdict.chain_ok and not verdict.replay_ok and verdict.rules_version == new


def test_an_unknown_rules_version_is_named_with_the_versions_held():
    path = next(p for p in EXPORTS if recorded_version(p) == "dwarf-2")
    envs = [json.loads(line) for line in path.read_text().splitlines()]
    envs[0]["data"]["rules_version"] = "dwarf-99"
    verdict = verify(rechain(envs))
    assert not verdict.ok
    assert "no rules version 'dwarf-99'" in verdict.problems[-1]["problem"]
    assert "dwarf-1, dwarf-2" in verdict.problems[-1]["problem"]


def test_the_api_says_which_version_replayed_an_export_and_lists_every_version(client):
    """The replay holds; the verdict still fails, as it must: another server made the record, unsigned."""
    path = next(p for p in EXPORTS if recorded_version(p) == "dwarf-1")
    resp = client.post("/v1/audit/verify", data=path.read_bytes(), content_type="application/x-ndjson")
    assert resp.status_code == 200 and resp.json["chain_ok"] and resp.json["replay_ok"], resp.json
    assert (resp.json["game"], resp.json["rules_version"]) == ("dwarf", "dwarf-1")
    assert not resp.json["ok"] and "not signed by this server" in resp.json["problems"][0]["problem"]
    dwarf = next(g for g in client.get("/v1/catalog").json["games"] if g["id"] == "dwarf")
    assert dwarf["rules_versions"][:2] == ["dwarf-1", "dwarf-2"]
    assert dwarf["rules_versions"][-1] == dwarf["rules_version"]
