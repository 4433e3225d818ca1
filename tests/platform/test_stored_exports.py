"""Exports recorded before the protocol step (issue 6) must keep verifying:
a finished game is a dispute-resolution record, so a rules-preserving change
of the code may never turn an old, honest export into a failed verdict."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from application.replay import verify
from tests.support.forge import rechain

DATA = Path(__file__).resolve().parent.parent / "data"
EXPORTS = sorted(DATA.glob("*.ndjson"))


def test_there_is_a_stored_export_of_each_game():
    assert {p.name.split("-")[0] for p in EXPORTS} >= {"saboteur", "mountain"}


@pytest.mark.parametrize("path", EXPORTS, ids=[p.stem for p in EXPORTS])
def test_stored_export_verifies(path):
    verdict = verify(path.read_text().splitlines())
    assert verdict.ok, verdict.problems
    assert verdict.events == len(path.read_text().splitlines())


@pytest.mark.parametrize("path", EXPORTS, ids=[p.stem for p in EXPORTS])
def test_a_changed_command_in_a_stored_export_fails(path):
    """The verdict is not vacuous: a re-sealed chain with a forged command still fails the replay."""
    envs = [json.loads(line) for line in path.read_text().splitlines()]
    victim = next(e for e in envs if e["seq"] > len(envs) // 2 and e.get("command"))
    victim["command"] = {"type": "no_such_command"}
    verdict = verify(rechain(envs))
    assert verdict.chain_ok and not verdict.replay_ok
