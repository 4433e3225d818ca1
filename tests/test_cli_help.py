"""Every example in the `delve` command's --help runs as written, and exits 0.

The examples are read from the help text itself (the lines under "Example:" / "Examples"),
so an example added later is run too. They run in a scratch directory holding what they name
(`game.ndjson`, a real finished game's export), with this checkout's `delve` first on PATH.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import click
import pytest

from delve.cli import cli

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def help_text(*path: str) -> str:
    command = cli
    for name in path:
        command = command.commands[name]
    with click.Context(command, info_name=" ".join(["delve", *path])) as ctx:
        return command.get_help(ctx)


def examples() -> list[tuple[str, str]]:
    """(command, example line) for every example of every command's help."""
    found = []
    for name in sorted(cli.commands):
        block = re.search(r"^  Examples?\b[^\n]*:\n((?:    .*\n)+)", help_text(name) + "\n", re.M)
        for line in (block[1].splitlines() if block else []):
            if line.strip().startswith("delve "):
                found.append((name, line.strip()))
    return found


def test_the_examples_are_found():
    commands = {name for name, _ in examples()}
    assert {"play", "tournament", "verify"} <= commands, commands


@pytest.mark.slow
@pytest.mark.parametrize("command,line", examples())
def test_every_help_example_runs_as_written(command, line, tmp_path):
    shutil.copy(ROOT / "tests" / "data" / "saboteur-1-3-heuristic.ndjson", tmp_path / "game.ndjson")
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(line, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, f"`{line}` exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"


def test_the_version_is_the_packages():
    out = subprocess.run([BIN / "delve", "--version"], capture_output=True, text=True, timeout=60).stdout
    assert out.strip() == f"delve {version('delve')}"
