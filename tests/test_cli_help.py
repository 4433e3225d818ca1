"""Every example in the `delve` command's --help runs as written, and exits 0.

The examples are read from the help text itself (the lines under "Example:" / "Examples"),
so an example added later is run too. They run in a scratch directory holding what they name:
`game.ndjson` (a signed export of a Saboteur game played to its end here), `keys.json` (the
server's public keys, as GET /v1/audit/keys answers) and `$HEAD` (a chain head of that game),
with this checkout's `delve` first on PATH.
"""
from __future__ import annotations

import json
import os
import re
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
        lines = help_text(name).splitlines()
        start = next((i for i, line in enumerate(lines) if re.match(r"  Examples?\b", line)), None)
        if start is None:
            continue
        i = start + 1
        while i < len(lines) and lines[i].startswith("  ") and not lines[i].startswith("    "):
            i += 1  # the heading's own lines
        while i < len(lines) and lines[i].startswith("    "):
            if lines[i].strip().startswith("delve "):
                found.append((name, lines[i].strip()))
            i += 1
    return found


def test_the_examples_are_found():
    commands = {name for name, _ in examples()}
    assert {"play", "tournament", "verify"} <= commands, commands


@pytest.mark.slow
@pytest.mark.parametrize("command,line", examples())
def test_every_help_example_runs_as_written(command, line, tmp_path, service, signer):
    lines = finished_game(service)
    (tmp_path / "game.ndjson").write_text("".join(lines))
    (tmp_path / "keys.json").write_text(json.dumps(signer.keys()))
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["HEAD"] = json.loads(lines[len(lines) // 2])["hash"]
    done = subprocess.run(line, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, f"`{line}` exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"


def finished_game(service, moves: int = 3000) -> list[str]:
    """A Saboteur game of random bots, played to its end and finalized (signed) by the service."""
    seats = [{"name": f"b{i}", "bot": "random"} for i in range(3)]
    gid = service.create("saboteur", seats, {})["id"]
    for _ in range(moves):
        g = service.load(gid)
        if g.game.is_terminal(g.state):
            break
        service.bot_turn(gid, g.version)
    assert service.finalize(gid)
    return list(service.export(gid, admin=False))


def test_the_version_is_the_packages():
    out = subprocess.run([BIN / "delve", "--version"], capture_output=True, text=True, timeout=60).stdout
    assert out.strip() == f"delve {version('delve')}"


def test_the_local_cluster_answers_help_instead_of_starting():
    """docs/operators.md's `python -m localredis.cluster` took `--help` as nothing and started a cluster."""
    done = subprocess.run([sys.executable, "-m", "localredis.cluster", "--help"], capture_output=True, text=True,
                          timeout=30, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0 and done.stdout.startswith("usage: python -m localredis.cluster")
    assert "export REDIS_URL=" not in done.stdout  # no cluster was started
