"""One install, every way: the wheel built from this checkout, installed with no extras in a
fresh venv, serves (`delve serve`, its embedded Redis), plays a bot game to its end over HTTP,
exports it, verifies it, renders /docs, and stops cleanly.

Nothing of the checkout is importable in that venv (it runs in a temporary directory, with no
PYTHONPATH), so a file missing from the wheel, an undeclared dependency or a path into the
repository fails here, as it would for a user. pip may use its cache or the package index.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.test_cli_serve import alive, children_of, free_port, wait_for

ROOT = Path(__file__).resolve().parents[1]
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def run(argv: list, what: str, timeout: float, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=timeout, **kw)
    assert done.returncode == 0, f"{what} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def get(base: str, path: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(base + path, timeout=10) as resp:
        return resp.status, resp.headers.get_content_type(), resp.read()


def post(base: str, path: str, body: bytes, content_type: str = "application/json") -> dict:
    req = urllib.request.Request(base + path, method="POST", data=body, headers={"Content-Type": content_type})
    with urllib.request.urlopen(req, timeout=60) as resp:
        return json.loads(resp.read())


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A venv holding only the wheel and its declared dependencies; returns its bin directory."""
    tmp = tmp_path_factory.mktemp("wheel")
    # Built from a copy: setuptools' build/ in a working tree can hold modules that have since
    # moved, and they would ship (a fresh clone, as in CI, has none).
    source = tmp / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".delve-data", ".pytest_cache", ".hypothesis"))
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", tmp / "dist", source],
        "building the wheel", 300, cwd=tmp)
    [wheel] = (tmp / "dist").glob("delve-*.whl")
    run([sys.executable, "-m", "venv", tmp / "venv"], "creating the venv", 120)
    bin_dir = tmp / "venv" / "bin"
    # Without PYTHONPATH: a checkout on it (as `PYTHONPATH=. pytest` puts it) holds delve.egg-info, and pip
    # then takes delve as installed already and installs only its dependencies.
    run([bin_dir / "python", "-m", "pip", "install", "--quiet", wheel], "installing the wheel (no extras)", 600,
        cwd=tmp, env=clean_env())
    return bin_dir


def clean_env() -> dict[str, str]:
    """The user's environment, less anything that points into this checkout or its test Redis."""
    drop = ("PYTHONPATH", "VIRTUAL_ENV", "REDIS_URL", "RQ_REDIS_URL")
    return {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("DELVE_")}


def test_the_wheel_serves_plays_verifies_and_stops(installed, tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        proc = subprocess.Popen([installed / "delve", "serve", "--port", str(port), "--data-dir", tmp_path / "data"],
                                cwd=tmp_path, env=clean_env(), stdout=out, stderr=subprocess.STDOUT)
    kids = []
    try:
        def up():
            assert proc.poll() is None, "delve serve exited early:\n" + log.read_text()
            return "Delve is up" in log.read_text()

        wait_for(up, 90, "delve serve to come up")
        kids = children_of(proc.pid)

        status, kind, page = get(base, "/docs")
        assert status == 200 and b"SwaggerUIBundle" in page
        assert get(base, "/docs/assets/swagger-ui-bundle.js")[0] == 200
        status, kind, spec = get(base, "/openapi.yaml")
        assert status == 200 and b"openapi: 3.1" in spec
        assert b"MountainKingCommandDig:" in spec  # the games' schemas, composed from the installed registry
        status, kind, rules = get(base, "/rules/mountain-king")
        assert status == 200 and b'id="MK-DIG-1"' in rules

        play_verify(base, [installed / "delve", "verify"], tmp_path, clean_env())
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    rest = log.read_text()
    assert proc.returncode == 0, rest
    assert not [pid for pid in kids if alive(pid)], "a child of delve serve outlived it"


def play_verify(base: str, verify_argv: list, tmp_path: Path, env: dict) -> None:
    """A bot game of Mountain King to its end over HTTP; its export verifies (by the API and by
    `delve verify`), and a tampered copy does not."""
    seats = [{"name": n, "bot": "random"} for n in ("a", "b")]
    created = post(base, "/v1/games", json.dumps({"game": "mountain-king", "seats": seats}).encode())
    gid = created["id"]

    def finished():
        game = json.loads(get(base, f"/v1/games/{gid}")[2])
        assert game["status"] in ("active", "finished"), game["status"]
        return game["status"] == "finished" and game

    game = wait_for(finished, 400, "the bot game to finish")
    assert game["outcome"]["kind"] in ("win", "shared", "no_player_wins")
    export = wait_for(lambda: _export(base, gid), 60, "the export of the finished game")
    (tmp_path / "game.ndjson").write_bytes(export)
    verdict = post(base, "/v1/audit/verify", export, "application/x-ndjson")
    assert verdict["ok"] is True, verdict
    run([*verify_argv, tmp_path / "game.ndjson"], "delve verify of the export", 300, cwd=tmp_path, env=env)
    tampered = export.replace(b'"seat":0', b'"seat":1', 1)
    assert tampered != export
    (tmp_path / "tampered.ndjson").write_bytes(tampered)
    bad = subprocess.run([*verify_argv, tmp_path / "tampered.ndjson"], capture_output=True, timeout=300,
                         cwd=tmp_path, env=env)
    assert bad.returncode == 1, bad


def _export(base: str, gid: str) -> bytes | None:
    try:
        return get(base, f"/v1/games/{gid}/export")[2]
    except urllib.error.HTTPError:
        return None  # 409 until the end is recorded
