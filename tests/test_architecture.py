"""DESIGN.md's dependency rules, checked on the source: `domain/` is pure (no
I/O libraries, no clock, no global RNG) and the layers only point one way."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
IMPURE = {"random", "time", "datetime", "secrets", "uuid", "socket", "subprocess", "threading", "os",
          "redis", "rq", "flask", "marshmallow", "requests", "urllib"}
LAYERS = {"domain": {"events", "server", "workers", "benchmarks"},
          "events": {"server", "workers", "benchmarks"},
          "workers": {"server", "benchmarks"}}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", sources("domain"), ids=lambda p: str(p.relative_to(ROOT)))
def test_domain_is_pure(path):
    assert not imports(path) & IMPURE


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_layers_point_one_way(layer):
    for path in sources(layer):
        assert not imports(path) & LAYERS[layer], path


@pytest.mark.parametrize("path", [p for p in sources("domain") if p.parent.name not in ("domain",)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_a_game_package_uses_only_core_and_itself(path):
    """Games share code through domain.core and the kit only, never each other's packages."""
    package = path.relative_to(ROOT / "domain").parts[0]
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.startswith("domain."):
            assert node.module in ("domain.core", "domain.kit") or node.module.startswith(f"domain.{package}"), \
                node.module


def test_every_data_file_ships_in_the_package():
    """A non-editable install (the Docker image) only carries files package-data names."""
    import fnmatch
    import tomllib
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["*"]
    for package in ("domain", "events", "server", "workers"):
        for path in (ROOT / package).rglob("*"):
            if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts \
                    and path.name not in ("MISSING.md", "AUTHORED.md", "README.md"):
                assert any(fnmatch.fnmatch(path.name, p) for p in patterns), path
