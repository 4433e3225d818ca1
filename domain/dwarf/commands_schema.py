"""JSON Schema of DWARF's commands, served by /v1/catalog/dwarf: their shape only;
whether one is playable now is decided by ``decide``."""
from __future__ import annotations

from domain.dwarf.grid import LOCATIONS


def _command(kind: str, description: str, required: dict, optional: dict | None = None) -> dict:
    props = {"type": {"const": kind}, **required, **(optional or {})}
    return {"type": "object", "title": kind, "description": description, "properties": props,
            "required": ["type", *required], "additionalProperties": False}


COMMAND_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "DWARF command",
    "oneOf": [
        _command("place", "Put a worker on an available location: a normal worker in the first or second "
                 "placement, an extra worker in the Receive Help step (DW-SEL-2, DW-SEL-3, DW-RES-2, DW-CARD-7).",
                 {"location": {"enum": list(LOCATIONS),
                               "description": "'rc': row 1-3 from the top, column 1-3 from the left (DW-GRID-1)"}},
                 {"mine": {"type": "integer", "minimum": 0, "maximum": 1, "default": 0,
                           "description": "play area: 1 is the second copy's Mine (DW-COMB-4)"}}),
        _command("special", "Take a Special Action instead of the first placement: both workers on a pile, "
                 "or pay the cost and one worker (DW-SPEC-1, DW-SPEC-2, DW-SPEC-3).",
                 {"pile": {"type": "integer", "minimum": 0, "maximum": 5,
                           "description": "0-2 next to Mine 0, 3-5 next to Mine 1 (DW-COMB-6)"}},
                 {"pay": {"type": "boolean", "default": False}}),
        _command("pass", "Leave the second normal worker or an extra worker unplaced (DW-AMB-11, DW-AMB-12).", {}),
    ],
}
