"""Every tournament rule ID of domain/tournament/README.md is cited by a test here
(as TRN-X-1 in a docstring or TRN_X_1 in a test name), like the games' rule IDs."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_tournament_rule_is_cited_by_a_test():
    rules = set(re.findall(r"\*\*(TRN-[A-Z]+-\d+)\*\*", (ROOT / "domain/tournament/README.md").read_text()))
    tests = "\n".join(p.read_text() for p in (ROOT / "tests/tournament").glob("test_*.py") if p.name != Path(__file__).name)
    cited = {rid for rid in rules if rid in tests or rid.replace("-", "_") in tests}
    assert rules and rules == cited, f"uncited: {sorted(rules - cited)}"
