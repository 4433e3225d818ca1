"""The Saboteur state: everything, secrets included; ``view`` decides who sees what.

One JSON-ready dict (the kit's state convention, ``domain.kit.state``), so a
snapshot is a copy and a restore is a copy. ``new_state`` lists every key.
"""
from __future__ import annotations

from typing import Any

SaboteurState = dict[str, Any]


def new_state() -> SaboteurState:
    """The empty table ``GameSetUp`` is folded onto."""
    return {
        "players": 0,
        "options": {},
        "round": 0,
        "phase": "setup",  # setup | play | gold | over
        "turn": None,
        "roles": [],  # per seat: "miner" | "saboteur" (secret, SAB-ROLE-2)
        "leftover": None,  # SAB-ROLE-3
        "roles_revealed": False,  # SAB-END-3
        "hands": [],  # per seat: card ids (secret, SAB-TURN-5)
        "deck": [],  # draw pile, top first (secret, size public)
        "discard": [],  # {"card", "face_up", "by"} (SAB-PASS-3)
        "maze": {},  # "x,y" -> {"card", "shape", "rotated", "by"}
        "goals": {},  # "A" -> {"x", "y", "shape", "revealed"}
        "broken": [],  # per seat: tool -> {"card", "by"} (SAB-TOOL-2)
        "peeks": [],  # per seat: goal -> shape seen with a map (SAB-MAP-2)
        "gold": [],  # per seat, per round: nugget values (SAB-GOLD-10)
        "gold_deck": [],  # values not yet handed out (SAB-NEXT-5)
        "bundle": [],  # gold drawn for the miners (SAB-GOLD-3)
        "holder": None,  # miner holding the bundle
        "payees": [],  # saboteurs still to be paid, in order (SAB-AMB-18)
        "pay": 0,  # nuggets per saboteur this round (SAB-GOLD-8)
        "last_player": None,  # who put down the last card (SAB-AMB-15)
        "history": [],  # public summary of finished rounds
    }
