"""Frozen earlier rules versions of this game, replayed by the records made under them.

Each entry is a copy of the package as that version shipped; never edit one
(docs/rules-versions.md).
"""
PAST: dict[str, str] = {
    "mountain-king-1": "domain.mountain_king.versions.mountain_king_1.rules:GAME",
}
