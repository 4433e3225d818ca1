"""The ``greedy`` bot, the human-level bot of issue 8: one round of lookahead.

For every legal command it plays the rest of the round out on a private copy --
the solo automaton by its own rules (``decide_actor`` is deterministic), every seat
(itself included) by ``quick``, a one-step policy -- and values the table at the end
of that round (``worth``): majorities and their margins (DW-SCORE), progress toward
the 4th Object, Medals as the first tie-break, and against Andvettr how close his
Medals come to the instant win (DW-AND-8), which counts as a lost game when the
round would give it to him. So it blocks the location his second worker wants when
that pays (DW-AND-2), and weighs a Special Action with the Medals it hands him (DW-AND-6).

The rollout stops before the next round's Mining, and runs on a copy without the
Mountain, whose order no seat may know (DW-CARD-3). Everything else it reads is
public: of the Special Action piles only the top cards matter, and each top card's
special side, which the view shows, names it (no two cards share one).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from domain.core import Command, Drbg, event, seat_id
from domain.dwarf.versions.dwarf_5 import content, ordering, rounds, selection
from domain.dwarf.versions.dwarf_5.actions import is_andvettr, net
from domain.dwarf.versions.dwarf_5.evolve import evolve
from domain.dwarf.versions.dwarf_5.scoring import CATEGORIES, scoreboard
from domain.dwarf.versions.dwarf_5.state import pile_at, top_effect
from domain.kit import copy_state

ROLLOUT_STEPS = 40  # a round has at most 4 placements and 4 extras per participant, plus orders
WIN = 60.0  # a game the rollout sees decided: won, lost or (half) shared
MEDAL_WEIGHT = 3.0  # each of Andvettr's Medals, then more as they near his instant win
MEDAL_DANGER_FROM = 6
OBJECT_WEIGHT = 3.0  # each Object created, toward the 4th that ends the game (DW-END-1)


def ordered(order: list[str]) -> Command:
    """The ``order`` command for ``order`` (DW-AMB-14)."""
    return {"type": "order", "locations": [selection.located(w) for w in order]}


def _apply(held: dict, delta: dict) -> None:
    for res, n in delta.items():
        held[res] = held.get(res, 0) + n


def _project(s: dict, seat: int, effects: list[content.Effect], gained: dict) -> dict:
    """My holdings after this round's Mine, Forge and Defend steps with the ``effects``
    of my workers, plus ``gained``."""
    held = dict(s["players"][seat])
    _apply(held, gained)
    for step in ("mine", "forge", "defend"):
        for effect in effects:
            if effect.type != step:
                continue
            if step == "defend":
                held["medal"] += 1
            elif all(held[r] >= n for r, n in effect.cost.items()):  # payable once (DW-RES-6)
                _apply(held, _net_once(effect.id))
    return held


@lru_cache(maxsize=None)
def _net_once(effect_id: str) -> dict:
    return net(content.effects()[effect_id], 1)


def _threat_loss(effect: content.Effect, held: dict) -> float:
    return {"great_dragon": held["gold"] * 1.0, "dragon": min(1, held["gold"]), "knockers": 0.3 * min(1, held["iron"]),
            "sidhe": 0.6 * min(2, held["gold"]), "orc_raiders": 1.0}.get(effect.id, 0.0)


def _quick_value(best: dict, held: dict) -> float:
    """``held`` against ``best``, the others' highest holding of each scored resource."""
    score = 0.0
    for _, res in CATEGORIES:
        score += 4.0 if held[res] > best[res] else (1.0 if held[res] == best[res] else 0.0)
    return score + 0.3 * held["steel"] + 0.3 * held["gold"] + 1.5 * held["object"] + 0.2 * held["iron"] + \
        0.25 * held["medal"]


def quick(s: dict, seat: int) -> Command:
    """One step, no lookahead: the command whose own holdings at the end of this round
    look best (first such); the model of every seat inside a rollout."""
    h = selection.head(s)
    if h["slot"] == "order":
        return ordered(ordering.best(s, seat, h["places"]))
    best, best_v = None, float("-inf")
    mine = [top_effect(s, w) for w, x in s["workers"].items() if x["player"] == seat and not x["done"]]
    others = [p for i, p in enumerate(s["players"]) if i != seat]
    best_of = {res: max((p[res] for p in others), default=-1) for _, res in CATEGORIES}
    for cmd in selection.legal(s, seat):
        extra, gained = [], {}
        if cmd["type"] == "place":
            extra = [top_effect(s, f"{cmd['mine']}:{cmd['location']}")]
        elif cmd["type"] == "special":
            face = content.special_of(pile_at(s, cmd["pile"])[0])
            gained = net(face, 1)
            if cmd["pay"]:
                _apply(gained, {r: -n for r, n in rounds.special_cost(s).items()})
        held = _project(s, seat, mine + extra, gained)
        v = _quick_value(best_of, held)
        if extra and extra[0].type == "defend":
            v += _threat_loss(extra[0], held)
        if extra and extra[0].type == "help" and h["slot"] != "extra":
            v += 0.8  # two more workers this round
        if cmd["type"] == "special" and not cmd["pay"]:
            v -= 0.9  # the second worker is spent too
        if v > best_v + 1e-9:
            best, best_v = cmd, v
    return best


class _NextRound(Exception):
    """The rollout reached the next round's start."""


class _Scratch:
    """A batch (``emit``/``state``) folding straight onto the rollout's private state,
    with no copy per step, that stops where the next round would begin: its Mining
    is not played (the Mountain's order is hidden)."""

    def __init__(self, state: dict):
        self.state = state

    def emit(self, type_: str, **data: Any) -> None:
        if type_ == "RoundStarted":
            raise _NextRound
        evolve(self.state, event(type_, **data))


def rollout(s: dict, seat: int, cmd: Command) -> dict:
    """The table at the end of this round if ``seat`` plays ``cmd`` now (see the module doc).
    The rollout's copy has no Mountain, so nothing in it can read the hidden order."""
    b = _Scratch(copy_state(s))
    for area in b.state["areas"]:
        area["mountain"] = []
    try:
        selection.decide(b, seat, cmd)
        rounds.advance(b)
        for _ in range(ROLLOUT_STEPS):
            h = selection.head(b.state)
            if h is None:
                break
            if h["player"] == b.state["automaton"]:
                selection.automaton_step(b)
            else:
                selection.decide(b, h["player"], quick(b.state, h["player"]))
            rounds.advance(b)
    except _NextRound:
        pass
    return b.state


def _medal_danger(s: dict) -> float:
    auto = s["automaton"]
    if auto is None or not is_andvettr(s, auto):
        return 0.0
    m = s["players"][auto]["medal"]
    over = max(0, m - MEDAL_DANGER_FROM)
    return MEDAL_WEIGHT * m + 0.5 * over * over


def worth(s: dict, seat: int) -> float:
    """How good the table ``s`` (at the end of a round) is for ``seat``."""
    if s["phase"] == "over":
        board = scoreboard(s)
        first = [x.participant for x in board.standings if x.place == 1]
        return WIN / len(first) if seat_id(seat) in first else -WIN
    me = s["players"][seat]
    others = [p for i, p in enumerate(s["players"]) if i != seat]
    score = 0.0
    for _, res in CATEGORIES:
        diff = me[res] - max(p[res] for p in others)
        score += (4.0 if diff > 0 else -2.0 if diff < 0 else 0.5) + 0.4 * max(-4, min(4, diff))
    medal_lead = me["medal"] - max(p["medal"] for p in others)
    return score + OBJECT_WEIGHT * me["created"] + 0.25 * max(-4, min(4, medal_lead)) + 0.15 * me["iron"] - _medal_danger(s)


def greedy_bot(game: Any, state: dict, seat: int, rng: Drbg) -> Command:
    """The legal command whose round, played out, is worth most; ties by the DRBG."""
    best: list[Command] = []
    best_v = float("-inf")
    for cmd in game.legal_commands(state, seat):
        v = worth(rollout(state, seat, cmd), seat)
        if v > best_v + 1e-9:
            best, best_v = [cmd], v
        elif abs(v - best_v) <= 1e-9:
            best.append(cmd)
    return rng.choice(best)
