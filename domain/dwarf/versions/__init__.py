"""Frozen earlier rules versions of this game, replayed by the records made under them.

Each entry is a copy of the package as that version shipped; never edit one
(docs/rules-versions.md).
"""
PAST: dict[str, str] = {
    "dwarf-1": "domain.dwarf.versions.dwarf_1.rules:GAME",
    "dwarf-2": "domain.dwarf.versions.dwarf_2.rules:GAME",
    "dwarf-3": "domain.dwarf.versions.dwarf_3.rules:GAME",
    "dwarf-4": "domain.dwarf.versions.dwarf_4.rules:GAME",
    "dwarf-5": "domain.dwarf.versions.dwarf_5.rules:GAME",
}
