"""JSON Schema (draft 2020-12) of Saboteur's commands, served by /v1/catalog/saboteur.

It describes the *shape* of each command -- field names, types, card ids by
kind -- so a client can build commands without reading rules.py; whether a
command is playable right now is still decided by ``decide`` alone.
"""
from __future__ import annotations

from domain.saboteur.content import CARDS, GOAL_CELLS, GOLD, TOOLS


def _cards(kind: str) -> list[str]:
    return [card.id for card in CARDS.values() if card.kind == kind]


_SEAT = {"type": "integer", "minimum": 0, "maximum": 9, "description": "a seat index, oneself included"}
_CELL = {"type": "integer", "description": "maze coordinate, unbounded grid, start card at (0, 0) (SAB-GRID-1)"}


def _command(kind: str, description: str, required: dict, optional: dict | None = None) -> dict:
    props = {"type": {"const": kind}, **required, **(optional or {})}
    return {"type": "object", "title": kind, "description": description, "properties": props,
            "required": ["type", *required], "additionalProperties": False}


COMMAND_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Saboteur command",
    "oneOf": [
        _command("play_path", "Add a path card to the maze, upright or turned 180 degrees "
                 "(SAB-TURN-2, SAB-PATH-2, SAB-PATH-3, SAB-PATH-4, SAB-PATH-5).",
                 {"card": {"enum": _cards("path")}, "x": _CELL, "y": _CELL},
                 {"rotated": {"type": "boolean", "default": False}}),
        _command("break_tool", "Put a broken tool in front of a player (SAB-TOOL-2, SAB-TOOL-3, SAB-AMB-7).",
                 {"card": {"enum": _cards("break")}, "target": _SEAT}),
        _command("repair", "Remove one matching broken tool; tool may be left out for a one-tool repair "
                 "(SAB-REP-2, SAB-REP-3, SAB-REP-5, SAB-AMB-8).",
                 {"card": {"enum": _cards("repair")}, "target": _SEAT}, {"tool": {"enum": list(TOOLS)}}),
        _command("rockfall", "Remove a path card from the maze (SAB-ROCK-1).",
                 {"card": {"enum": _cards("rockfall")}, "x": _CELL, "y": _CELL}),
        _command("map", "Look at a face-down goal card (SAB-MAP-1, SAB-AMB-10).",
                 {"card": {"enum": _cards("map")}, "goal": {"enum": sorted(GOAL_CELLS)}}),
        _command("pass", "Discard one card face down (SAB-PASS-1); without a card only with an empty hand "
                 "when auto_pass_empty_hand is off (SAB-PASS-4, SAB-AMB-14).",
                 {}, {"card": {"enum": list(CARDS)}}),
        _command("take_gold", "Gold phase: keep one card of the bundle, or a saboteur's payout, named by "
                 "nugget values (SAB-GOLD-3, SAB-GOLD-8, SAB-AMB-18, SAB-AMB-25).",
                 {"values": {"type": "array", "minItems": 1,
                             "items": {"type": "integer", "enum": sorted(set(GOLD))}}}),
    ],
}
