"""The Saboteur state: everything, secrets included; ``view`` decides who sees what.

Plain JSON-shaped fields only (lists, dicts with str keys, str/int/bool/None)
so a snapshot is ``to_dict`` and a restore is ``from_dict``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, fields


@dataclass
class SaboteurState:
    players: int = 0
    options: dict = field(default_factory=dict)
    round: int = 0
    phase: str = "setup"  # setup | play | gold | over
    turn: int | None = None
    roles: list = field(default_factory=list)  # per seat: "miner" | "saboteur" (secret, SAB-ROLE-2)
    leftover: str | None = None  # SAB-ROLE-3
    roles_revealed: bool = False  # SAB-END-3
    hands: list = field(default_factory=list)  # per seat: card ids (secret, SAB-TURN-5)
    deck: list = field(default_factory=list)  # draw pile, top first (secret, size public)
    discard: list = field(default_factory=list)  # {"card", "face_up", "by"} (SAB-PASS-3)
    maze: dict = field(default_factory=dict)  # "x,y" -> {"card", "shape", "rotated", "by"}
    goals: dict = field(default_factory=dict)  # "A" -> {"x", "y", "shape", "revealed"}
    broken: list = field(default_factory=list)  # per seat: tool -> {"card", "by"} (SAB-TOOL-2)
    peeks: list = field(default_factory=list)  # per seat: goal -> shape seen with a map (SAB-MAP-2)
    gold: list = field(default_factory=list)  # per seat, per round: nugget values (SAB-GOLD-10)
    gold_deck: list = field(default_factory=list)  # values not yet handed out (SAB-NEXT-5)
    bundle: list = field(default_factory=list)  # gold drawn for the miners (SAB-GOLD-3)
    holder: int | None = None  # miner holding the bundle
    payees: list = field(default_factory=list)  # saboteurs still to be paid, in order (SAB-AMB-18)
    pay: int = 0  # nuggets per saboteur this round (SAB-GOLD-8)
    last_player: int | None = None  # who put down the last card (SAB-AMB-15)
    history: list = field(default_factory=list)  # public summary of finished rounds

    def to_dict(self) -> dict:
        # A JSON round trip is the fastest deep copy of JSON-shaped data.
        return json.loads(json.dumps({f.name: getattr(self, f.name) for f in fields(self)}))

    @classmethod
    def from_dict(cls, data: dict) -> "SaboteurState":
        return cls(**json.loads(json.dumps(data)))

    def copy(self) -> "SaboteurState":
        return SaboteurState.from_dict(self.to_dict())
