"""JSON Schema (draft 2020-12) of Indagar's commands, served by /v1/catalog/indagar.

The shape of each command; whether it is playable now is decided by ``decide``
(and listed by legal-actions)."""
from __future__ import annotations

from domain.kit import command, command_schema, rule

from . import content

_TILE = rule({"type": "string", "pattern": "^r[0-9]+c[0-9]+$", "description": "a tile id of the layout"},
             "bad_tile", "IND-TILE-1")
_HERO = rule({"enum": list(content.heroes())}, "bad_hero", "IND-HERO-1")
_MIX = {"type": "object", "additionalProperties": False, "required": list(content.RESOURCES),
        "properties": {r: {"type": "integer", "minimum": 0, "maximum": 3} for r in content.RESOURCES},
        "description": "3 resources in any mix (IND-AMB-19/20)"}


COMMAND_SCHEMA: dict = command_schema("La Guerra de Indagar command", [
        command("activate", "Activate one available hero (IND-TURN-1, IND-ACT-2).",
                 {"hero": _HERO}),
        command("move", "Move the active hero one adjacent tile, or its Charge! extra move (IND-MOVE-1, IND-SPR-1).",
                 {"to": _TILE}),
        command("explore", "Spend a move to look at an adjacent face-down tile (IND-EXPL-1).", {"tile": _TILE}),
        command("reveal", "After exploring: reveal the tile or put it back (IND-EXPL-1).", {"show": {"type": "boolean"}}),
        command("attack", "Attack an adjacent enemy hero, monster or outpost (IND-ATK-2).", {"tile": _TILE}),
        command("build", "Build a level-1 outpost on the hero's resource tile (IND-OUT-2)."),
        command("upgrade", "Upgrade the outpost on the hero's tile one level (IND-OUT-3)."),
        command("gather", "Take all spirits on the Source of Power (IND-ACTN-1)."),
        command("use_ability", "Use an ability; ``hero`` names the hero lending it in an attack window "
                "(IND-ABL-3, IND-ABL-8, IND-ABL-12).",
                {"ability": rule({"enum": [*content.abilities(), *content.tree_abilities()]}, "bad_ability", "IND-ABL-1")},
                {"hero": _HERO, "discount": rule({"enum": list(content.RESOURCES)}, "bad_discount", "IND-STR-8")}),
        command("declare", "Start of round: the strategy tree in play, optionally unlocking one of its "
                "abilities with a token side (IND-ROUND-7, IND-STR-4, IND-STR-6, IND-STR-8).",
                {"tree": rule({"enum": list(content.trees())}, "bad_tree", "IND-STR-4")},
                {"unlock": rule({"enum": list(content.tree_abilities())}, "bad_unlock", "IND-STR-6"),
                 "token": rule({"enum": ["coin", "bolt"]}, "bad_token", "IND-STR-8")}),
        command("spirit", "Spend spirits (IND-SPI-3).",
                {"use": rule({"enum": ["resources", "dice", "heal", "ignore", "pp"]}, "bad_spirit_use", "IND-SPI-3")},
                {"get": _MIX, "hero": _HERO}),
        command("exchange", "Trade 3 resources for 1 (IND-RES-5).", {"give": _MIX, "get": {"enum": list(content.RESOURCES)}}),
        command("pass", "Close your attack or defence window (IND-ATK-5, IND-AMB-11)."),
        command("fall_back", "Choose the fall-back tile (IND-FB-1, IND-MRET-1).", {"to": _TILE}),
        command("outpost", "After downgrading an outpost: capture, destroy or leave it (IND-OUT-16).",
                 {"choice": {"enum": ["capture", "destroy", "leave"]}}),
        command("charge_through", "Move into the attacked tile, or not (IND-FB-4).", {"go": {"type": "boolean"}}),
        command("level_bonus", "The side of a new level-up token (IND-LVL-2).", {"side": {"enum": ["sword", "shield"]}}),
        command("swap", "From the Unearthed Ancient Portal: swap places with a figure (IND-EVT-2).",
                {"figure": rule({"enum": [*content.heroes(), *content.monsters(), *content.event_monsters()]},
                                "bad_figure", "IND-EVT-2")}),
        command("choose_tile", "The last player's pick: a monster's target or opportunity attack, or where a "
                "hero leaving a Maelstrom goes (IND-MTGT-4, IND-OPP-2, IND-EVT-14).", {"tile": _TILE}),
        command("choose_hero", "The hero that receives a Weapons or Armour Cache token (IND-EVT-4, IND-EVT-6).",
                {"hero": _HERO}),
        command("redeploy", "At round start, bring one of your retreated heroes back onto a free deployment tile "
                "of your starting area, when you have a choice of hero or tile (IND-RET-6, IND-AMB-26).",
                {"hero": _HERO, "tile": _TILE}),
        command("end_turn", "End the active hero's activation (IND-TURN-4)."),
])
