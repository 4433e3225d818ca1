"""Bot policies ``policy(game, state, seat, rng) -> command``.

- ``random``: the kit's, uniform over the legal commands.
- ``greedy``: looks one round ahead: the holdings each command would bring by the
  end of this round, valued by the majorities they would give (DW-SCORE) and a
  little for everything that leads there.
- ``eldhusfifl``, ``andvettr``, ``andvettr-fadir``: the solo automata's placement
  rules (``automaton``) playing a seat by the normal rules; they never take a
  Special Action. Their second worker reads the grid of the card most recently
  taken by another participant, as the solo automaton reads the human's.

All see only the public table, which is all a seat may know in DWARF.
"""
from __future__ import annotations

from typing import Any

from domain.core import Command, Drbg
from domain.dwarf.versions.dwarf_1 import automaton, content
from domain.dwarf.versions.dwarf_1.actions import net, payable_times
from domain.dwarf.versions.dwarf_1.rounds import special_cost
from domain.dwarf.versions.dwarf_1.scoring import CATEGORIES
from domain.dwarf.versions.dwarf_1.selection import head
from domain.dwarf.versions.dwarf_1.state import pile_at, top_effect
from domain.kit import random_bot


def _apply(held: dict, delta: dict) -> None:
    for res, n in delta.items():
        held[res] = held.get(res, 0) + n


def _project(s: dict, seat: int, extra_places: list[str], gained: dict) -> dict:
    """My holdings after this round's Mine and Forge steps with my workers, plus ``gained``."""
    held = dict(s["players"][seat])
    _apply(held, gained)
    mine = [w for w, x in s["workers"].items() if x["player"] == seat and not x["done"]] + extra_places
    for step in ("mine", "forge", "defend"):
        for where in mine:
            effect = top_effect(s, where)
            if effect.type != step:
                continue
            if step == "defend":
                held["medal"] += 1
            elif payable_times({"players": {0: held}}, 0, effect, 1):
                _apply(held, net(effect, 1))
    return held


def _threat_loss(s: dict, where: str, held: dict) -> float:
    effect = top_effect(s, where)
    return {"great_dragon": held["gold"] * 1.0, "dragon": min(1, held["gold"]), "knockers": 0.3 * min(1, held["iron"]),
            "sidhe": 0.6 * min(2, held["gold"]), "orc_raiders": 1.0}.get(effect.id, 0.0)


def _value(s: dict, seat: int, held: dict) -> float:
    others = [p for i, p in enumerate(s["players"]) if i != seat]
    score = 0.0
    for _, res in CATEGORIES:
        best = max((p[res] for p in others), default=-1)
        score += 4.0 if held[res] > best else (1.0 if held[res] == best else 0.0)
    return score + 0.3 * held["steel"] + 0.3 * held["gold"] + 1.5 * held["object"] + 0.2 * held["iron"] + \
        0.25 * held["medal"]


def greedy_bot(game: Any, state: dict, seat: int, rng: Drbg) -> Command:
    s = state
    legal = game.legal_commands(s, seat)
    best: list[Command] = []
    best_v = float("-inf")
    for cmd in legal:
        extra, gained = [], {}
        if cmd["type"] == "place":
            where = f"{cmd['mine']}:{cmd['location']}"
            extra = [where]
        elif cmd["type"] == "special":
            cid = pile_at(s, cmd["pile"])[0]
            face = content.effects()[content.card(cid).special]
            gained = net(face, 1)
            if cmd["pay"]:
                for res, n in special_cost(s).items():
                    gained[res] = gained.get(res, 0) - n
        held = _project(s, seat, extra, gained)
        v = _value(s, seat, held)
        if extra and top_effect(s, extra[0]).type == "defend":
            v += _threat_loss(s, extra[0], held)
        if extra and top_effect(s, extra[0]).type == "help" and cmd.get("type") == "place" and \
                head(s)["slot"] != "extra":
            v += 0.8  # two more workers this round
        if cmd["type"] == "special" and not cmd["pay"]:
            v -= 0.9  # the second worker is spent too
        if v > best_v + 1e-9:
            best, best_v = [cmd], v
        elif abs(v - best_v) <= 1e-9:
            best.append(cmd)
    return rng.choice(best)


def _automaton_bot(level: str):
    def policy(game: Any, state: dict, seat: int, rng: Drbg) -> Command:
        s = state
        h = head(s)
        where = None
        if h["slot"] == "extra":
            helped = next((w for w, x in s["workers"].items()
                           if x["player"] == seat and x["type"] == "help" and not x["extra"]), None)
            spots = automaton.extras(s, seat, level, helped) if helped else []
            where = spots[0] if spots else None
        else:
            ref = s["last_mined"] if h["slot"] == "first" else s["last_ref"]
            where = automaton.choose(s, seat, level, h["slot"] == "second", ref)
        if where is not None:
            area, _, loc = where.partition(":")
            return {"type": "place", "mine": int(area), "location": loc}
        legal = game.legal_commands(s, seat)
        return next((c for c in legal if c["type"] == "pass"), legal[0])
    policy.__doc__ = f"The {level} automaton's placement rules playing a seat."
    return policy


BOTS = {"random": random_bot, "greedy": greedy_bot,
        **{level: _automaton_bot(level) for level in automaton.LEVELS}}
