"""DESIGN.md's dependency rules, checked on the source: `domain/` is pure (no
I/O libraries, no clock, no global RNG) and the layers only point one way."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
IMPURE = {"random", "time", "datetime", "secrets", "uuid", "socket", "subprocess", "threading", "os",
          "redis", "rq", "flask", "marshmallow", "requests", "urllib"}
# delve -> server, workers, benchmarks -> application -> events, localredis, settings -> errors -> domain:
# a package imports only lower ranks, so server, workers and benchmarks never import each other, the
# store never imports the application, the domain reads no settings, and nothing imports delve. Every
# exception past its own module is in `errors`, the one rank all of those stand on (the domain's own
# `Illegal` stays in the pure domain, and `errors.NotHeld` is one).
RANKS = {"domain": 0, "errors": 1, "events": 2, "localredis": 2, "settings": 2, "application": 3,
         "server": 4, "workers": 4, "benchmarks": 4, "delve": 5}
# The only package whose modules may touch the store's raw Redis client, key layout and scripts.
STORE_PACKAGE = ROOT / "events"
# The application reaches Redis only through the store; this module builds the clients it is given.
CONNECTS = ROOT / "application" / "runtime.py"


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


def test_every_package_has_a_rank():
    """A new top-level package must take its place in the layers before it can be imported."""
    found = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}
    assert found == set(RANKS)


@pytest.mark.parametrize("package", sorted(RANKS))
def test_layers_point_one_way(package):
    above = {other for other, rank in RANKS.items() if rank >= RANKS[package] and other != package}
    for path in sources(package):
        assert not imports(path) & above, path


def _names(node: ast.expr) -> list[str]:
    """The names along an attribute chain: ``svc.store.states`` -> svc, store, states."""
    names = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    return [getattr(node, "id", ""), *reversed(names)]


def raw_store_uses(path: Path) -> list[str]:
    """``store.r``, ``self.store.keys``, ``store.states.r``, ``store.account_client()`` and the like:
    the raw client, key layout or scripts reached through a store or one of its parts."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and node.attr in ("r", "keys", "scripts", "account_client"):
            if any(name.endswith("store") for name in _names(node.value)):
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("package", sorted(RANKS))
def test_only_the_store_touches_its_client_and_key_layout(package):
    for path in sources(package):
        if STORE_PACKAGE not in path.parents:
            assert raw_store_uses(path) == [], path


@pytest.mark.parametrize("path", sources("application"), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_application_reaches_redis_only_through_the_store(path):
    """Players, ratings, feeds, the lobby: each asks the store (``events.accounts``, ``events.indexes``...)."""
    if path != CONNECTS:
        assert "redis" not in imports(path), path


def test_the_raw_store_checks_can_fail():
    assert raw_store_uses(ROOT / "tests" / "conftest.py") == []
    assert raw_store_uses(ROOT / "tests" / "platform" / "test_store.py")  # tests may look inside
    assert "redis" in imports(CONNECTS)


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
    for package in sorted(set(RANKS) - {"benchmarks"}):  # the benchmarks' .md files are reports, not data
        for path in (ROOT / package).rglob("*"):
            if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts \
                    and path.name not in ("MISSING.md", "AUTHORED.md", "README.md"):
                assert any(fnmatch.fnmatch(path.name, p) for p in patterns), path


GAME_PACKAGES = sorted(p.parent.name for p in (ROOT / "domain").glob("*/rules.py"))


def sibling_imports(path: Path, package: str) -> tuple[set[str], list[str]]:
    """The modules of ``package`` that ``path`` imports at its top level, and its imports
    of the package made inside a function (which only hide a circle)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    top: set[str] = set()
    inner: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 1:
            names = [node.module] if node.module else [a.name for a in node.names]
        elif node.level == 0 and node.module and node.module.startswith(f"domain.{package}"):
            rest = node.module.split(".")[2:]
            names = rest[:1] if rest else [a.name for a in node.names]
        else:
            continue
        names = [n.split(".")[0] for n in names]
        if node.col_offset:
            inner.append(f"line {node.lineno}: {ast.unparse(node)}")
        else:
            top |= set(names)
    return top, inner


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (module -> modules it imports), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state and (found := visit(n)):
                return found
        state[m] = 2
        path.pop()
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


@pytest.mark.parametrize("package", GAME_PACKAGES)
def test_a_game_package_has_no_import_circle(package):
    """Its modules form layers (the frozen rules versions under versions/ are history, left as they shipped)."""
    graph = {}
    for path in sorted((ROOT / "domain" / package).glob("*.py")):
        top, inner = sibling_imports(path, package)
        assert not inner, f"{path.name} imports inside a function: {inner}"
        graph[path.stem] = top - {path.stem, "__init__"}
    assert circle(graph) is None, " -> ".join(circle(graph))


def test_the_circle_check_finds_one():
    assert circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert circle({"a": {"b"}, "b": set()}) is None


def module_imports(path: Path) -> set[str]:
    """Every project module ``path`` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return found


@pytest.mark.parametrize("package", ["events", "application", "workers"])
def test_no_import_circle_within_a_package(package):
    """Not even through an import inside a function (the reactor and the tournament reactor had one)."""
    modules = {".".join(p.relative_to(ROOT).with_suffix("").parts): p for p in sources(package)}
    graph = {name: module_imports(path) & set(modules) - {name} for name, path in modules.items()}
    assert circle(graph) is None


CLASS_LINES = 250  # a class longer than this holds more than one job: split it by job (docs/architecture.md)


def long_classes(path: Path) -> list[str]:
    return [f"{node.name}: {node.end_lineno - node.lineno + 1} lines"
            for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.ClassDef)
            and node.end_lineno - node.lineno + 1 > CLASS_LINES]


@pytest.mark.parametrize("package", sorted(RANKS))
def test_no_class_is_over_250_lines(package):
    """The frozen rules versions under domain/*/versions/ are history, left as they shipped."""
    for path in sources(package):
        if "versions" not in path.relative_to(ROOT).parts:
            assert long_classes(path) == [], path


def test_the_class_length_check_can_fail(tmp_path):
    path = tmp_path / "long.py"
    path.write_text("class Long:\n" + "    x = 1\n" * CLASS_LINES)
    assert long_classes(path) == [f"Long: {CLASS_LINES + 1} lines"]
