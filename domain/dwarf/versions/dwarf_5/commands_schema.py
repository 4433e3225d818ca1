"""JSON Schema of DWARF's commands (``domain.kit`` builders), served by /v1/catalog/dwarf:
their shape only; whether one is playable now is decided by ``decide``."""
from __future__ import annotations

from domain.dwarf.versions.dwarf_5.grid import LOCATIONS
from domain.kit import command, command_schema, rule

LOCATION = rule({"enum": list(LOCATIONS), "description": "'rc': row 1-3 from the top, column 1-3 from the left"},
                "no_such_location", "DW-GRID-1")
MINE = rule({"type": "integer", "minimum": 0, "maximum": 1, "default": 0,
             "description": "play area: 1 is the second copy's Mine (4-5 players)"}, "no_such_location", "DW-COMB-4")

COMMAND_SCHEMA: dict = command_schema("DWARF command", [
    command("place", "Put a worker on an available location: a normal worker in the first or second "
            "placement, an extra worker in the Receive Help step (DW-SEL-2, DW-SEL-3, DW-RES-2, DW-CARD-7).",
            {"location": LOCATION}, {"mine": MINE}),
    command("special", "Take a Special Action instead of the first placement: both workers on a pile, "
            "or pay the cost and one worker (DW-SPEC-1, DW-SPEC-2, DW-SPEC-3).",
            {"pile": rule({"type": "integer", "minimum": 0, "maximum": 5,
                           "description": "0-2 next to Mine 0, 3-5 next to Mine 1 (DW-COMB-6)"},
                          "no_such_pile", "DW-SPEC-3")},
            {"pay": rule({"type": "boolean", "default": False}, "bad_command", "DW-SPEC-2")}),
    command("order", "Choose the order of your own actions in a Mine or Forge step (DW-AMB-14). Asked only "
            "when the order changes what they produce (one pays for another, or two compete for the same "
            "holdings); then it is your only legal command, listing every order. Normal workers act before "
            "extra workers (DW-AMB-13).",
            {"locations": rule({"type": "array", "minItems": 2, "maxItems": 4,
                                "description": "your waiting workers' places, first to act first",
                                "items": {"type": "object", "required": ["location"], "additionalProperties": False,
                                          "properties": {"location": LOCATION, "mine": MINE}}},
                               "bad_order", "DW-AMB-14")}),
    command("pass", "Leave the second normal worker or an extra worker unplaced (DW-AMB-11, DW-AMB-12)."),
])
