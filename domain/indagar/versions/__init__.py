"""Frozen earlier rules versions of this game, replayed by the records made under them.

Each entry is a copy of the package as that version shipped; never edit one
(docs/rules-versions.md).
"""
PAST: dict[str, str] = {
    "indagar-1": "domain.indagar.versions.indagar_1.rules:GAME",
    "indagar-2": "domain.indagar.versions.indagar_2.rules:GAME",
    "indagar-3": "domain.indagar.versions.indagar_3.rules:GAME",
    "indagar-4": "domain.indagar.versions.indagar_4.rules:GAME",
    "indagar-5": "domain.indagar.versions.indagar_5.rules:GAME",
    "indagar-6": "domain.indagar.versions.indagar_6.rules:GAME",
}
