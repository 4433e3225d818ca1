"""How a rule is fixed: freeze the version that shipped, then change the package and bump it.

Played on the real service and store: a game finished under ``tiny-fix-1`` and one
still running when the fix lands both end and verify under ``tiny-fix-1`` (the
frozen copy), a new game plays and verifies under ``tiny-fix-2``, and each record
fails when replayed by the other version's rules, so the fix really changed them.
"""
from __future__ import annotations

import importlib
import json
import sys
import uuid
from pathlib import Path

import pytest

from application.replay import verify
from delve.freeze import freeze
from domain import registry
from tests.support.forge import envelopes, rechain

TINY = Path(__file__).resolve().parent.parent / "support" / "tinygame.py"
# The fix: TINY-3 was read wrongly; a game lasts `turns` rounds of every seat, not `turns` turns in all.
BEFORE = 'state["played"] >= state["turns"]'
AFTER = 'state["played"] >= state["turns"] * state["seats"]'


@pytest.fixture
def game_package(tmp_path, monkeypatch):
    """A fresh copy of the tiny game as package ``<name>`` in ``tmp_path``, registered as ``tiny-fix``."""
    name = f"tinyfix_{uuid.uuid4().hex[:8]}"
    package = tmp_path / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    text = TINY.read_text().replace('id = "tiny"', 'id = "tiny-fix"').replace('"tiny-1"', '"tiny-fix-1"')
    assert BEFORE in text
    (package / "rules.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_GAMES", {**registry._GAMES, "tiny-fix": f"{name}.rules:GAME"})
    monkeypatch.setattr(registry, "_loaded", dict(registry._loaded))
    monkeypatch.setattr(registry, "_past", dict(registry._past))
    yield name, package
    for mod in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[mod]


def play(service, gid: str, moves: int | None = None) -> None:
    for _ in range(moves or 200):
        g = service.load(gid)
        if g.game.is_terminal(g.state):
            break
        assert service.bot_turn(gid, g.version) is not None
    else:
        if moves is None:
            pytest.fail("the game did not end")


def finished_export(service, gid: str) -> list[str]:
    play(service, gid)
    assert service.finalize(gid)
    return list(service.export(gid, admin=False))


def relabelled(lines: list[str], version: str) -> list[str]:
    envs = envelopes(lines)
    for env in envs:
        env["rules_version"] = version
    envs[0]["data"]["rules_version"] = version
    return rechain(envs)


def test_a_rule_fixed_by_adding_a_version_keeps_old_and_new_games_verifying(service, game_package, tmp_path):
    name, package = game_package
    seats = [{"name": f"b{i}", "bot": "random"} for i in range(2)]
    old = service.create("tiny-fix", seats, {"turns": 3})["id"]
    old_export = finished_export(service, old)
    running = service.create("tiny-fix", seats, {"turns": 3})["id"]
    play(service, running, moves=1)

    frozen = freeze(tmp_path, "tiny-fix")
    assert frozen == package / "versions" / "tiny_fix_1"
    rules = package / "rules.py"
    rules.write_text(rules.read_text().replace(BEFORE, AFTER).replace('"tiny-fix-1"', '"tiny-fix-2"'))
    registry.register(importlib.reload(importlib.import_module(f"{name}.rules")).GAME)
    assert registry.versions("tiny-fix") == ["tiny-fix-1", "tiny-fix-2"]

    new = service.create("tiny-fix", seats, {"turns": 3})["id"]
    new_export = finished_export(service, new)
    running_export = finished_export(service, running)
    assert service.load(running).game.rules_version == "tiny-fix-1"  # a game in progress keeps its version
    assert len(new_export) > len(old_export)  # 3 rounds of 2 seats, not 3 turns

    for lines, version in ((old_export, "tiny-fix-1"), (running_export, "tiny-fix-1"), (new_export, "tiny-fix-2")):
        verdict = verify(lines)
        assert verdict.ok, verdict.problems
        assert verdict.rules_version == version
    assert not verify(relabelled(old_export, "tiny-fix-2")).replay_ok
    assert not verify(relabelled(new_export, "tiny-fix-1")).replay_ok


def test_freezing_a_version_twice_is_refused(game_package, tmp_path):
    freeze(tmp_path, "tiny-fix")
    with pytest.raises(FileExistsError, match="frozen already"):
        freeze(tmp_path, "tiny-fix")
