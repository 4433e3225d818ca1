"""Freeze a game's rules version: copy its package, as it is now, into ``versions/``.

A rules fix must never change how a recorded game replays, so before the fix
the current package is copied to ``domain/<pkg>/versions/<version>/`` (its
imports of itself rewritten to the copy) and named in
``domain/<pkg>/versions/__init__.py``'s ``PAST``; then the fix goes into the
package and its ``rules_version`` goes up. The copy is never edited again:
``tests/platform/test_rules_versions.py`` replays stored exports of every
version ever shipped (docs/rules-versions.md).
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from domain import registry

SKIPPED = {"versions", "__pycache__", "MISSING.md", "AUTHORED.md", "README.md", "RULES.md"}  # docs stay with the current rules
VERSIONS_DOC = '''"""Frozen earlier rules versions of this game, replayed by the records made under them.

Each entry is a copy of the package as that version shipped; never edit one
(docs/rules-versions.md).
"""
PAST: dict[str, str] = {{
{entries}}}
'''


def package_dir(root: Path, game_id: str) -> tuple[str, Path]:
    """The game's package name (``domain.dwarf``) and its directory under ``root``."""
    game = registry.get(game_id)
    package = type(game).__module__.rsplit(".", 1)[0]
    return package, root.joinpath(*package.split("."))


def freeze(root: Path, game_id: str, source: Path | None = None) -> Path:
    """Copy ``source`` (default: the package under ``root``) into the package's ``versions/``,
    as the version its ``rules.py`` declares; returns the new directory."""
    package, here = package_dir(root, game_id)
    source = source or here
    label = _declared_version(source)
    if label == registry.get(game_id).rules_version and source != here:
        raise ValueError(f"{source} declares the current version {label!r}: freeze the package itself")
    name = re.sub(r"[^0-9a-z]+", "_", label.lower())
    frozen = f"{package}.versions.{name}"
    target = here / "versions" / name
    if target.exists():
        raise FileExistsError(f"{target} exists: {label!r} is frozen already (bump rules_version first?)")
    shutil.copytree(source, target, ignore=lambda _d, names: [n for n in names if n in SKIPPED])
    pattern = re.compile(rf"\b{re.escape(package)}(?=[.\s])")
    for path in target.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(pattern.sub(frozen, text), encoding="utf-8")
    _name_in_versions(here / "versions", label, f"{frozen}.rules:GAME")
    return target


def _declared_version(package: Path) -> str:
    found = re.search(r'rules_version\s*=\s*"([^"]+)"', (package / "rules.py").read_text(encoding="utf-8"))
    if not found:
        raise ValueError(f"{package / 'rules.py'} declares no rules_version")
    return found.group(1)


def _name_in_versions(versions: Path, label: str, target: str) -> None:
    index = versions / "__init__.py"
    past: dict[str, str] = {}
    if index.exists():
        past = dict(re.findall(r'^\s+"([^"]+)": "([^"]+)",$', index.read_text(encoding="utf-8"), re.M))
    past[label] = target
    entries = "".join(f'    "{k}": "{v}",\n' for k, v in past.items())
    index.write_text(VERSIONS_DOC.format(entries=entries), encoding="utf-8")
