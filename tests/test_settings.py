"""One list of settings (``settings``): every layer reads the environment through it, and
docs/settings.md documents exactly that list."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from errors import BadSetting
import settings
from tests.test_architecture import RANKS, ROOT

DOC = ROOT / "docs" / "settings.md"


def doc_row(s: settings.Setting) -> str:
    default = f"`{s.default}`" if s.default not in (None, "") else "(none)"
    return f"| `{s.name}` | {default} | {s.doc} |"


def test_the_doc_lists_every_setting_with_its_default_and_meaning():
    text = DOC.read_text()
    missing = [s.name for s in settings.SETTINGS.values() if doc_row(s) not in text]
    assert missing == [], "regenerate the rows of docs/settings.md from settings.SETTINGS"
    documented = set(re.findall(r"^\| `([A-Z_]+)` \|", text, re.M))
    assert documented == set(settings.SETTINGS)


def environment_reads(path: Path) -> list[str]:
    """``os.environ.get(...)``, ``os.environ[...]`` and ``os.getenv(...)`` read (not written) in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = ast.unparse(node.func)
            if target in ("os.environ.get", "os.getenv"):
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ" \
                and isinstance(node.ctx, ast.Load):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("package", sorted(set(RANKS) - {"settings"}))
def test_nothing_but_settings_reads_the_environment(package):
    for path in sorted((ROOT / package).rglob("*.py")):
        assert environment_reads(path) == [], path


def test_the_read_check_can_fail():
    assert environment_reads(ROOT / "tests" / "conftest.py")


def test_a_value_is_read_when_asked_and_empty_means_the_default(monkeypatch):
    monkeypatch.setenv("DELVE_PARTITIONS", "7")
    assert settings.get("DELVE_PARTITIONS") == 7
    monkeypatch.setenv("DELVE_PARTITIONS", "")
    assert settings.get("DELVE_PARTITIONS") == 16
    monkeypatch.delenv("DELVE_ADMIN_TOKEN", raising=False)
    assert settings.get("DELVE_ADMIN_TOKEN") is None


def test_a_bad_value_names_the_setting_and_what_it_means(monkeypatch):
    monkeypatch.setenv("DELVE_TRUSTED_PROXIES", "-1")
    with pytest.raises(BadSetting, match="DELVE_TRUSTED_PROXIES='-1'.*reverse proxies"):
        settings.get("DELVE_TRUSTED_PROXIES")
    monkeypatch.setenv("DELVE_RATE_LIMIT", "lots")
    with pytest.raises(BadSetting, match="DELVE_RATE_LIMIT"):
        settings.get("DELVE_RATE_LIMIT")


@pytest.mark.parametrize("name,value,expected", [
    ("DELVE_RATE_LIMIT", "-1", "a whole number from 0"),  # was taken as "no limit"
    ("DELVE_WAIT_REPLICAS", "-1", "a whole number from 0"),
    ("DELVE_SNAPSHOT_EVERY", "0", "a whole number from 1"),  # every append divided by it
    ("DELVE_PARTITIONS", "0", "a whole number from 1"),
    ("DELVE_WAIT_TIMEOUT_MS", "0", "a whole number from 1"),  # Redis WAIT with 0 blocks for ever
    ("DELVE_SSE_MAX_STREAMS", "0", "a whole number from 1"),  # 0 refused every stream; it is no "no limit"
    ("DELVE_MAX_BODY_BYTES", "1MB", "not a whole number"),
    ("DELVE_JOB_STALE_SECONDS", "0", "seconds above 0"),
    ("DELVE_BODY_TIMEOUT", "-1", "seconds from 0"),
    ("DELVE_LOG_LEVEL", "loud", "one of DEBUG, INFO, WARNING, ERROR"),
])
def test_a_value_outside_the_settings_range_names_what_it_takes(monkeypatch, name, value, expected):
    monkeypatch.setenv(name, value)
    with pytest.raises(BadSetting, match=f"{name}='{re.escape(value)}' is not valid .*{expected}"):
        settings.get(name)
    assert [p for p in settings.problems() if p.startswith(name)]


def test_zero_still_switches_a_quota_off_and_log_levels_ignore_case(monkeypatch):
    monkeypatch.setenv("DELVE_RATE_LIMIT", "0")
    monkeypatch.setenv("DELVE_BODY_TIMEOUT", "0")
    monkeypatch.setenv("DELVE_LOG_LEVEL", "warning")
    assert (settings.get("DELVE_RATE_LIMIT"), settings.get("DELVE_BODY_TIMEOUT")) == (0, 0)
    assert settings.get("DELVE_LOG_LEVEL") == "WARNING"


def test_problems_lists_every_bad_setting_and_nothing_else(monkeypatch):
    for name in settings.SETTINGS:
        monkeypatch.delenv(name, raising=False)
    assert settings.problems() == []
    monkeypatch.setenv("DELVE_RATE_LIMIT", "lots")
    monkeypatch.setenv("DELVE_TRUSTED_PROXIES", "-2")
    assert [p.split("=")[0] for p in settings.problems()] == ["DELVE_RATE_LIMIT", "DELVE_TRUSTED_PROXIES"]
