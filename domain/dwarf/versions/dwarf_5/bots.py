"""Bot policies ``policy(game, state, seat, rng) -> command``.

- ``random``: the kit's, uniform over the legal commands.
- ``greedy``: one round of lookahead at majorities, Medals and Andvettr's instant
  win (``greedy``).
- ``eldhusfifl``, ``andvettr``, ``andvettr-fadir``: the solo automata's placement
  rules (``automaton``) playing a seat by the normal rules; they never take a
  Special Action. Their second worker reads the grid of the card most recently
  taken by another participant, as the solo automaton reads the human's. Asked to
  order their actions (DW-AMB-14), they take the order that carries out most.

All see only the public table, which is all a seat may know in DWARF.
"""
from __future__ import annotations

from typing import Any

from domain.core import Command, Drbg
from domain.dwarf.versions.dwarf_5 import automaton, ordering
from domain.dwarf.versions.dwarf_5.greedy import greedy_bot, ordered
from domain.dwarf.versions.dwarf_5.selection import head, located
from domain.kit import random_bot


def _automaton_bot(level: str):
    def policy(game: Any, state: dict, seat: int, rng: Drbg) -> Command:
        s = state
        h = head(s)
        where = None
        if h["slot"] == "order":
            return ordered(ordering.best(s, seat, h["places"]))
        if h["slot"] == "extra":
            helped = next((w for w, x in s["workers"].items()
                           if x["player"] == seat and x["type"] == "help" and not x["extra"]), None)
            spots = automaton.extras(s, seat, level, helped) if helped else []
            where = spots[0] if spots else None
        else:
            ref = s["last_mined"] if h["slot"] == "first" else s["last_ref"]
            where = automaton.choose(s, seat, level, h["slot"] == "second", ref)
        if where is not None:
            return {"type": "place", **located(where)}
        legal = game.legal_commands(s, seat)
        return next((c for c in legal if c["type"] == "pass"), legal[0])
    policy.__doc__ = f"The {level} automaton's placement rules playing a seat."
    return policy


BOTS = {"random": random_bot, "greedy": greedy_bot,
        **{level: _automaton_bot(level) for level in automaton.LEVELS}}
