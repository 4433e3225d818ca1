"""The options of a DWARF game: every default is the spec's **Proposed** resolution
(DW-DOC-3), each alternative the spec offers is a value."""
from __future__ import annotations

from domain.core import require
from domain.kit import rule

PASS_TYPES = ("receive_help", "forge", "defend")

OPTIONS_SCHEMA: dict = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "solo_level": rule({
            "enum": [None, "eldhusfifl", "andvettr", "andvettr-fadir"], "default": None,
            "description": "With one seat: the automaton to play against (DW-SOLO-2); one seat "
                           "without it plays Eldhusfifl.",
        }, "bad_option", "DW-SOLO-2"),
        "alternative_mountain": rule({
            "type": "boolean", "default": False,
            "description": "The less random Mountain: 2-lantern cards shuffled on top of the 3-lantern "
                           "cards (DW-ALT-1/2, DW-AMB-9).",
        }, "bad_option", "DW-ALT-1"),
        "first_player": rule({
            "type": ["integer", "null"], "minimum": 0, "maximum": 4, "default": None,
            "description": "Seat holding the first-player marker; null = seeded random (DW-AMB-35). "
                           "Ignored in solo, where the automaton is always first (DW-SOLO-3).",
        }, "bad_option", "DW-AMB-35"),
        "special_action_cost_resource": rule({
            "enum": ["medal", "iron", "gold"], "default": "medal",
            "description": "What a one-worker Special Action costs (DW-SPEC-2, DW-AMB-1).",
        }, "bad_option", "DW-AMB-1"),
        "special_action_cost_amount": rule({
            "type": "integer", "minimum": 0, "maximum": 20, "default": 4,
            "description": "How many of it (DW-GAP-5).",
        }, "bad_option", "DW-AMB-1"),
        "orc_raiders_forbids": rule({
            "enum": ["forge", "mine"], "default": "forge",
            "description": "The action type an undefended Orc Raiders stops (DW-GLOS-4, DW-AMB-2).",
        }, "bad_option", "DW-AMB-2"),
        "orc_raiders_timing": rule({
            "enum": ["this_round", "next_round"], "default": "this_round",
            "description": "Whether Orc Raiders stop that step this round or next round (DW-AMB-2).",
        }, "bad_option", "DW-AMB-2"),
        "first_player_pass_types": rule({
            "type": "array", "items": {"enum": list(PASS_TYPES)}, "uniqueItems": True,
            "default": ["receive_help", "forge"],
            "description": "Actions whose first player passes the marker clockwise (DW-FP-2/3, DW-AMB-4).",
        }, "bad_option", "DW-AMB-4"),
        "round_limit": rule({
            "type": ["integer", "null"], "minimum": 1, "maximum": 100, "default": None,
            "description": "End after this many rounds (the rulebook's 'six rounds', DW-AMB-6); null = none.",
        }, "bad_option", "DW-AMB-6"),
        "empty_mountain_end": rule({
            "enum": ["immediate", "finish_round"], "default": "immediate",
            "description": "An empty Mountain ends the game at once or at the end of the round (DW-AMB-7).",
        }, "bad_option", "DW-AMB-7"),
        "andvettr_second_worker_rule": rule({
            "enum": ["receive_help", "defend", "any_empty"], "default": "receive_help",
            "description": "Andvettr's second worker takes the first free Receive Help location (the "
                           "rulebook's lost icon), or the first free Defend location (as rules version "
                           "dwarf-3 read it), or the first free location (DW-AND-2, DW-AMB-28).",
        }, "bad_option", "DW-AMB-28"),
        "andvettr_double_actions": rule({
            "enum": ["forge", "all"], "default": "forge",
            "description": "Andvettr carries out twice his Forge actions (the master of the anvil), or "
                           "every action, Defend's Medals too (as rules version dwarf-3 read it; DW-AND-5, "
                           "DW-AMB-31).",
        }, "bad_option", "DW-AMB-31"),
        "andvettr_medal_win_threshold": rule({
            "type": "integer", "minimum": 1, "maximum": 100, "default": 13,
            "description": "Medals at which Andvettr wins at once: 'more than 12' (DW-AND-8, DW-AMB-32).",
        }, "bad_option", "DW-AMB-32"),
    },
}


def check(out: dict, seats: int) -> dict:
    """What the schema cannot say: the first player is a seat, and the solo level
    belongs to a one-seat game (which plays Eldhusfifl unless told otherwise)."""
    require(out["first_player"] is None or out["first_player"] < seats, "bad_option", "DW-AMB-35",
            "first_player must be a seat index or null")
    if seats == 1 and out["solo_level"] is None:
        out["solo_level"] = "eldhusfifl"
    require(seats == 1 or out["solo_level"] is None, "bad_option", "DW-SOLO-1",
            "solo_level is for a one-seat game; for seats use the bots of the same names")
    return out
