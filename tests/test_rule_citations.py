"""Every normative rule of a hosted game's rules is cited by at least one test.

Rule IDs are defined in bold in the game's ``RULES.md``, beside its rules module
(``**SAB-PATH-3``); every registered game with one is checked, by its ``rule_prefix``. Tests cite them in their names (``test_SAB_PATH_3_...``) or docstrings. The
few IDs below are descriptive, not rules an engine can be tested against.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from domain import registry
from tests.support.games import shipped

ROOT = Path(__file__).resolve().parents[1]


def rules_document(game) -> Path:
    return Path(sys.modules[type(game).__module__].__file__).with_name("RULES.md")


SPECS = {gid: registry.get(gid).rule_prefix for gid in registry.available()
         if rules_document(registry.get(gid)).is_file()}
DESCRIPTIVE = {
    # How to read the spec, and overviews restated by the rules that follow.
    *(f"SAB-DOC-{n}" for n in range(1, 7)), *(f"MK-DOC-{n}" for n in range(1, 7)),
    "SAB-OVW-1", "SAB-OVW-2", "SAB-OVW-3",
    "SAB-GAP-5",    # lost pictures: nothing in play depends on them
    "MK-BOARD-12",  # the workshop supply's corner is cosmetic
    "MK-END-8",     # advice, not a rule
    "MK-GAP-10", "MK-GAP-11", "MK-GAP-13",  # complete as printed / no engine consequence
    *(f"DW-DOC-{n}" for n in range(1, 8)), "DW-OBJ-1", "DW-SYM-3",  # how to read; theme; a pointer
    "DW-RN-1", "DW-RN-14",  # lost icons nothing depends on (worker noun; Steel and Gold symbols)
    *(f"IND-DOC-{n}" for n in range(1, 6)),
    "IND-WIN-1", "IND-MON-1", "IND-SOLO-1", "IND-SOLO-8",  # goal, overviews and the solo mode's flavour
}
# A rule a game does not implement yet is named in its MISSING.md (and so is not cited):
# {"<game>": ROOT / "domain" / "<game>" / "MISSING.md"}. Indagar has none left.
NOT_YET: dict[str, Path] = {}


def defined_ids(spec: Path, prefix: str) -> set[str]:
    return set(re.findall(rf"\*\*({prefix}-[A-Z]+-\d+(?:\.\d+)?)", spec.read_text(encoding="utf-8")))


def cited_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py"))


@pytest.mark.parametrize("game", sorted(SPECS))
def test_every_rule_is_cited_by_a_test(game):
    spec = rules_document(registry.get(game))
    text = cited_text()
    missing = []
    not_yet = set()
    if game in NOT_YET:
        not_yet = set(re.findall(rf"{SPECS[game]}-[A-Z]+-\d+", NOT_YET[game].read_text(encoding="utf-8")))
    for rule in sorted(defined_ids(spec, SPECS[game]) - DESCRIPTIVE - not_yet):
        # "MK-DIG-3" must not be found inside "MK-DIG-3.1" or "MK-DIG-30"; a test
        # name may cite several rules of one area at once (test_MK_CASC_2_3_4_...).
        hyphen = re.escape(rule) + r"(?![\d.]\d)(?!\d)"
        underscore = re.escape(rule.replace("-", "_").replace(".", "_")) + r"(?!\d)"
        combined = re.escape(rule.rsplit("-", 1)[0].replace("-", "_")) + r"(?:_\d+)*_" + \
            re.escape(rule.rsplit("-", 1)[1].replace(".", "_")) + r"(?!\d)"
        if not re.search(f"{hyphen}|{underscore}|{combined}", text):
            missing.append(rule)
    assert not missing, f"{len(missing)} rules of {game} no test cites: {missing}"


def test_every_shipped_game_has_its_rules_document():
    assert shipped() and set(shipped()) <= set(SPECS)
