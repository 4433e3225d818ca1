"""The options of a DWARF game: every default is the spec's **Proposed** resolution
(DW-DOC-3), each alternative the spec offers is a value."""
from __future__ import annotations

from domain.core import require

PASS_TYPES = ("receive_help", "forge", "defend")

OPTIONS_SCHEMA: dict = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "solo_level": {
            "enum": [None, "eldhusfifl", "andvettr", "andvettr-fadir"], "default": None,
            "description": "With one seat: the automaton to play against (DW-SOLO-2); one seat "
                           "without it plays Eldhusfifl.",
        },
        "alternative_mountain": {
            "type": "boolean", "default": False,
            "description": "The less random Mountain: 2-lantern cards shuffled on top of the 3-lantern "
                           "cards (DW-ALT-1/2, DW-AMB-9; the spec's mountain_setup = by_lanterns).",
        },
        "first_player": {
            "type": ["integer", "null"], "minimum": 0, "maximum": 4, "default": None,
            "description": "Seat holding the first-player marker; null = seeded random (DW-AMB-35). "
                           "Ignored in solo, where the automaton is always first (DW-SOLO-3).",
        },
        "special_action_cost_resource": {
            "enum": ["medal", "iron", "gold"], "default": "medal",
            "description": "What a one-worker Special Action costs (DW-SPEC-2, DW-AMB-1).",
        },
        "special_action_cost_amount": {
            "type": "integer", "minimum": 0, "maximum": 20, "default": 4,
            "description": "How many of it (DW-GAP-5).",
        },
        "orc_raiders_forbids": {
            "enum": ["forge", "mine"], "default": "forge",
            "description": "The action type an undefended Orc Raiders stops (DW-GLOS-4, DW-AMB-2).",
        },
        "orc_raiders_timing": {
            "enum": ["this_round", "next_round"], "default": "this_round",
            "description": "Whether Orc Raiders stop that step this round or next round (DW-AMB-2).",
        },
        "first_player_pass_types": {
            "type": "array", "items": {"enum": list(PASS_TYPES)}, "uniqueItems": True,
            "default": ["receive_help", "forge"],
            "description": "Actions whose first player passes the marker clockwise (DW-FP-2/3, DW-AMB-4).",
        },
        "round_limit": {
            "type": ["integer", "null"], "minimum": 1, "maximum": 100, "default": None,
            "description": "End after this many rounds (the rulebook's 'six rounds', DW-AMB-6); null = none.",
        },
        "empty_mountain_end": {
            "enum": ["immediate", "finish_round"], "default": "immediate",
            "description": "An empty Mountain ends the game at once or at the end of the round (DW-AMB-7).",
        },
        "andvettr_second_worker_rule": {
            "enum": ["defend", "any_empty"], "default": "defend",
            "description": "Andvettr's second worker takes the first undefended Defend location, or the "
                           "first empty one (DW-AND-2, DW-AMB-28).",
        },
        "andvettr_medal_win_threshold": {
            "type": "integer", "minimum": 1, "maximum": 100, "default": 13,
            "description": "Medals at which Andvettr wins at once: 'more than 12' (DW-AND-8, DW-AMB-32).",
        },
    },
}
DEFAULTS = {k: v["default"] for k, v in OPTIONS_SCHEMA["properties"].items()}


def _int(value, lo: int, hi: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def validate(options: dict | None, seats: int) -> dict:
    """Normalised options; raises Illegal(bad_option / unknown_option / bad_player_count)."""
    require(isinstance(options, dict) or options is None, "bad_option", None, "options is a JSON object")
    options = dict(options or {})
    require(1 <= seats <= 5, "bad_player_count", "DW-COMP-3", "DWARF is for 1 to 5 players")
    for name in options:
        require(name in DEFAULTS, "unknown_option", None, f"unknown option {name!r}; see the catalog")
    out = {**DEFAULTS, **options}
    props = OPTIONS_SCHEMA["properties"]
    for name in ("solo_level", "special_action_cost_resource", "orc_raiders_forbids", "orc_raiders_timing",
                 "empty_mountain_end", "andvettr_second_worker_rule"):
        require(out[name] in props[name]["enum"], "bad_option", None,
                f"{name} must be one of {props[name]['enum']}")
    require(isinstance(out["alternative_mountain"], bool), "bad_option", "DW-ALT-1",
            "alternative_mountain must be true or false")
    require(out["first_player"] is None or _int(out["first_player"], 0, seats - 1), "bad_option",
            "DW-AMB-35", "first_player must be a seat index or null")
    require(_int(out["special_action_cost_amount"], 0, 20), "bad_option", "DW-AMB-1",
            "special_action_cost_amount must be 0-20")
    require(out["round_limit"] is None or _int(out["round_limit"], 1, 100), "bad_option", "DW-AMB-6",
            "round_limit must be 1-100 or null")
    require(_int(out["andvettr_medal_win_threshold"], 1, 100), "bad_option", "DW-AMB-32",
            "andvettr_medal_win_threshold must be 1-100")
    types = out["first_player_pass_types"]
    require(isinstance(types, list) and all(t in PASS_TYPES for t in types) and len(set(types)) == len(types),
            "bad_option", "DW-AMB-4", f"first_player_pass_types is a list of distinct {list(PASS_TYPES)}")
    if seats == 1 and out["solo_level"] is None:
        out["solo_level"] = "eldhusfifl"
    require(seats == 1 or out["solo_level"] is None, "bad_option", "DW-SOLO-1",
            "solo_level is for a one-seat game; for seats use the bots of the same names")
    return out
