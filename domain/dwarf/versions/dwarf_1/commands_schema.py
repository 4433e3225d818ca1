"""JSON Schema of DWARF's commands (``domain.kit`` builders), served by /v1/catalog/dwarf:
their shape only; whether one is playable now is decided by ``decide``."""
from __future__ import annotations

from domain.dwarf.versions.dwarf_1.grid import LOCATIONS
from domain.kit import command, command_schema, rule

COMMAND_SCHEMA: dict = command_schema("DWARF command", [
    command("place", "Put a worker on an available location: a normal worker in the first or second "
            "placement, an extra worker in the Receive Help step (DW-SEL-2, DW-SEL-3, DW-RES-2, DW-CARD-7).",
            {"location": rule({"enum": list(LOCATIONS),
                               "description": "'rc': row 1-3 from the top, column 1-3 from the left"},
                              "no_such_location", "DW-GRID-1")},
            {"mine": rule({"type": "integer", "minimum": 0, "maximum": 1, "default": 0,
                           "description": "play area: 1 is the second copy's Mine (4-5 players)"},
                          "no_such_location", "DW-COMB-4")}),
    command("special", "Take a Special Action instead of the first placement: both workers on a pile, "
            "or pay the cost and one worker (DW-SPEC-1, DW-SPEC-2, DW-SPEC-3).",
            {"pile": rule({"type": "integer", "minimum": 0, "maximum": 5,
                           "description": "0-2 next to Mine 0, 3-5 next to Mine 1 (DW-COMB-6)"},
                          "no_such_pile", "DW-SPEC-3")},
            {"pay": rule({"type": "boolean", "default": False}, "bad_command", "DW-SPEC-2")}),
    command("pass", "Leave the second normal worker or an extra worker unplaced (DW-AMB-11, DW-AMB-12)."),
])
