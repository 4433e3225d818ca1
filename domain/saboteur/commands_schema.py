"""JSON Schema (draft 2020-12) of Saboteur's commands, served by /v1/catalog/saboteur.

It describes the *shape* of each command -- field names, types, card ids by
kind -- so a client can build commands without reading rules.py; whether a
command is playable right now is still decided by ``decide`` alone.
"""
from __future__ import annotations

from domain.kit import command, command_schema, rule
from domain.saboteur.content import CARDS, GOAL_CELLS, GOLD, TOOLS


def _cards(kind: str) -> dict:
    """A card of ``kind``; another card is the wrong card for the command (SAB-TURN-2)."""
    return rule({"enum": [card.id for card in CARDS.values() if card.kind == kind]}, "wrong_card", "SAB-TURN-2")


_SEAT = rule({"type": "integer", "minimum": 0, "maximum": 9, "description": "a seat index, oneself included"},
             "bad_target", "SAB-ACT-1")
_CELL = {"type": "integer", "description": "maze coordinate, unbounded grid, start card at (0, 0) (SAB-GRID-1)"}

COMMAND_SCHEMA: dict = command_schema("Saboteur command", [
    command("play_path", "Add a path card to the maze, upright or turned 180 degrees "
            "(SAB-TURN-2, SAB-PATH-2, SAB-PATH-3, SAB-PATH-4, SAB-PATH-5).",
            {"card": _cards("path"), "x": _CELL, "y": _CELL},
            {"rotated": rule({"type": "boolean", "default": False}, "bad_command", "SAB-PATH-2")}),
    command("break_tool", "Put a broken tool in front of a player (SAB-TOOL-2, SAB-TOOL-3, SAB-AMB-7).",
            {"card": _cards("break"), "target": _SEAT},
            {"tool": rule({"enum": list(TOOLS)}, "tool_not_on_card", "SAB-TOOL-1")}),
    command("repair", "Remove one matching broken tool; tool may be left out for a one-tool repair "
            "(SAB-REP-2, SAB-REP-3, SAB-REP-5, SAB-AMB-8).",
            {"card": _cards("repair"), "target": _SEAT},
            {"tool": rule({"enum": list(TOOLS)}, "tool_not_on_card", "SAB-REP-3")}),
    command("rockfall", "Remove a path card from the maze (SAB-ROCK-1).",
            {"card": _cards("rockfall"), "x": _CELL, "y": _CELL}),
    command("map", "Look at a face-down goal card (SAB-MAP-1, SAB-AMB-10).",
            {"card": _cards("map"), "goal": rule({"enum": sorted(GOAL_CELLS)}, "bad_goal", "SAB-MAP-1")}),
    command("pass", "Discard one card face down (SAB-PASS-1); without a card only with an empty hand "
            "when auto_pass_empty_hand is off (SAB-PASS-4, SAB-AMB-14).",
            {}, {"card": rule({"enum": list(CARDS)}, "card_not_in_hand", "SAB-TURN-2")}),
    command("take_gold", "Gold phase: keep one card of the bundle, or a saboteur's payout, named by "
            "nugget values (SAB-GOLD-3, SAB-GOLD-8, SAB-AMB-18, SAB-AMB-25).",
            {"values": {"type": "array", "minItems": 1,
                        "items": {"type": "integer", "enum": sorted(set(GOLD))}}}),
])
