"""JSON Schema (draft 2020-12) of Mountain King's commands, served by /v1/catalog/mountain-king.

It describes the *shape* of each command -- field names, types, component ids
from the content pack, position ranges -- so a client can build commands
without reading rules.py; whether a command is legal now is still decided by
``decide`` alone (e.g. a trade's 4 resources, MK-TRADE-1, are checked there).
"""
from __future__ import annotations

from domain.kit import command, command_schema, rule

from . import content
from .content import MINERALS, RESOURCES, SIDES, STATUE_CLANS
from .horde import SLOTS
from .roster import ROW_SIZE
from .spells import SPELLS
from .workshops import TYPES

_EDGE = max(max(content.board(side).rows, content.board(side).cols) for side in SIDES) - 1


def _pair(first: dict, second: dict, description: str) -> dict:
    return {"type": "array", "prefixItems": [first, second], "items": False, "minItems": 2,
            "description": description}


def _int(low: int, high: int) -> dict:
    return {"type": "integer", "minimum": low, "maximum": high}


SPACE = _pair(_int(0, _EDGE), _int(0, _EDGE), "a board space [row, column]")
# A tunnel's spaces are any integer pairs: whether they lie on this side's board is the
# footprint rule (MK-DIG-7), checked by the rules, so an off-board tunnel cites it on every edge.
CELL = {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"}], "items": False, "minItems": 2,
        "description": "a space [row, column]"}
TROLL = _pair(_int(1, len(ROW_SIZE)), _int(1, ROW_SIZE[1]), "a roster position [row, index], row 1 = starters")
RESOURCE = {"enum": list(RESOURCES)}
BAG = {"type": "object", "propertyNames": RESOURCE, "additionalProperties": _int(1, 4), "minProperties": 1,
       "description": "resource name -> count"}
SOURCES = rule({"type": "array", "items": {"anyOf": [{"const": "storage"}, TROLL]},
           "description": "paying order: 'storage' and your roster positions (MK-RES-2); default bottom row "
                          "first, left to right, then storage"}, "bad_source", "MK-RES-2")

# The parameters each spell effect takes (spells.options builds exactly these keys).
_SPELL_PARAMS = {
    "gain": {}, "per_tunnel": {}, "turn_flag": {},
    "lure": {"slot": {"enum": SLOTS}, "res": RESOURCE},
    "promise": {"slot": {"enum": SLOTS}, "res": RESOURCE},
    "activate": {"troll": TROLL},
    "unload": {"troll": TROLL},
    "transmute": {"give": RESOURCE, "get": RESOURCE},
    "statue_move": {"from": SPACE, "to": SPACE},
    "pedestal": {"clan": {"enum": list(STATUE_CLANS)}},
    "pickpocket": {"slot": {"enum": SLOTS}},
    "dismiss": {"slot": {"enum": SLOTS}},
}


def _cast() -> tuple[dict, list[dict]]:
    """Every spell parameter, and one ``if spell in ids then exactly these`` branch per effect (MK-AMB-29)."""
    branches = []
    for effect, params in _SPELL_PARAMS.items():
        ids = sorted(sid for sid, sp in SPELLS.items() if sp["effect"] == effect)
        branches.append({"if": {"properties": {"spell": {"enum": ids}}},
                         "then": rule({"properties": {"type": True, "spell": True, "sources": True, **params},
                                       "required": list(params), "additionalProperties": False},
                                      "spell_cannot_resolve", "MK-AMB-29")})
    every = {k: v for params in _SPELL_PARAMS.values() for k, v in params.items()}
    return {**every, "sources": SOURCES}, branches


_cast_props, _cast_branches = _cast()
_starters = [t.id for colour in content.colours() for t in content.starter_trolls(colour)]
_points = sorted({p.id for side in SIDES for p in content.board(side).start_points})
_BAD_USE = ("bad_use", "MK-WS-5")
_WORKSHOP_USE = [
    {"required": ["give", "get"], "not": {"required": ["move"]}},
    {"required": ["move"], "not": {"anyOf": [{"required": ["give"]}, {"required": ["get"]}]}},
]

COMMAND_SCHEMA: dict = command_schema("Mountain King command", [
    command("place_door", "Place your door on a start point of the board side, in turn order "
            "(MK-PSETUP-3, MK-PSETUP-3.1).", {"point": rule({"enum": _points}, "bad_start_point", "MK-PSETUP-3")}),
    command("draft", "Place one of the two starter trolls you hold on an empty slot 1..4 (MK-PSETUP-4).",
            {"card": rule({"enum": _starters}, "not_in_hand", "MK-PSETUP-4"),
             "slot": rule(_int(1, 4), "slot_taken", "MK-PSETUP-4")}),
    command("trade", "Return 4 resources (3 under Merchant's Charm) for 1 of your choice, any time in "
            "your turn (MK-TRADE-1, MK-TURN-4).",
            {"give": rule(BAG, "bad_trade", "MK-TRADE-1"), "get": rule(RESOURCE, "bad_trade", "MK-TRADE-1")},
            {"sources": SOURCES}),
    command("cast", "Step 1: cast a spellbook card for 1 rune, with the parameters its effect takes "
            "(MK-SPELL-1, MK-SPELL-2, MK-TURN-2, MK-AMB-29).",
            {"spell": rule({"enum": sorted(SPELLS)}, "not_in_spellbook", "MK-SPELL-1")}, _cast_props,
            allOf=_cast_branches),
    command("use_workshop", "Step 1: one use of a workshop your network reaches -- give+get, or at a "
            "Quartermaster's Post move [r, i, token] (MK-WS-3, MK-WS-4, MK-WS-5).",
            {"space": rule(SPACE, "bad_space", "MK-WS-3")},
            {"give": rule(BAG, *_BAD_USE), "get": rule(BAG, *_BAD_USE), "sources": SOURCES,
             "move": rule({"type": "array", "items": False, "minItems": 3,
                           "prefixItems": [*TROLL["prefixItems"], {"type": "integer", "minimum": 0}]},
                          "bad_use", "MK-WST-6")},
            oneOf=_WORKSHOP_USE, **{"x-code": "bad_use", "x-rule": "MK-WS-5"}),
    command("recruit", "Step 2: recruit a horde troll onto your roster, with a pedestal for a top-row "
            "troll (MK-REC-1, MK-REC-4, MK-REC-9, MK-CASC-2, MK-AMB-9).",
            {"slot": rule({"enum": SLOTS}, "bad_slot", "MK-SETUP-3.1"),
             "position": rule(_pair(_int(2, len(ROW_SIZE)), _int(1, ROW_SIZE[2]), "an empty roster position"),
                              "bad_position", "MK-CASC-2")},
            {"pedestal": rule({"enum": [*STATUE_CLANS, None]}, "no_such_pedestal", "MK-REC-9"),
             "sources": SOURCES}),
    command("dig", "Step 2: dig a tunnel tile, paying one mineral per space (MK-DIG-1, MK-DIG-2).",
            {"tile": rule({"enum": [t.id for t in content.tiles()]}, "unknown_tile", "MK-DIG-1"),
             "cells": rule({"type": "array", "items": CELL, "minItems": 1,
                            "maxItems": max(len(t.cells) for t in content.tiles())}, "bad_cells"),
             "anchor": rule({"anyOf": [CELL, {"type": "null"}]}, "bad_cells"),
             "mineral": rule({"enum": list(MINERALS)}, "bad_mineral", "MK-DIG-2")},
            {"sources": SOURCES}),
    command("place_pedestal", "Right after your dig: place a pedestal of a clan you hold "
            "(MK-DIG-12, MK-PED-1).", {"clan": rule({"enum": list(STATUE_CLANS)}, "no_pedestal", "MK-PED-3")}),
    command("establish_workshop", "Right after your dig: establish a workshop from the supply "
            "(MK-DIG-12, MK-EST-1).",
            {"space": rule(SPACE, "bad_space", "MK-EST-1"),
             "kind": rule({"enum": list(TYPES)}, "workshop_gone", "MK-EST-4")}),
    command("build_hall", "Step 3: build a great hall from the supply (MK-HALL-1, MK-HALL-2, MK-HALL-3).",
            {"hall": rule({"enum": [h.id for h in content.halls()]}, "hall_gone", "MK-HALL-2"),
             "cells": rule({"type": "array", "items": SPACE, "minItems": 1}, "bad_cells", "MK-HALL-3"),
             "altar": rule(SPACE, "bad_cells", "MK-HALL-3")}),
    command("move_statue", "Step 4: move a statue, one cart per move (MK-MOVE-1, MK-MOVE-6).",
            {"from": rule(SPACE, "bad_move", "MK-MOVE-3"), "to": rule(SPACE, "bad_move", "MK-MOVE-3")},
            {"cart": {"enum": ["clan", "wild"], "default": "wild"}, "sources": SOURCES}),
    command("end_step", "End the current step; after step 4 the turn (MK-TURN-1, MK-TURN-3, MK-ACT-4).", {}),
    command("end_turn", "End your turn (MK-TURN-1, MK-ACT-4).", {}),
])
