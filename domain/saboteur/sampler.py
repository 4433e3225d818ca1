"""What a Saboteur seat may know, for the search bot (``domain.kit.search``).

Hidden from a seat (SAB-INFO-1): the other seats' roles and the role set aside
(SAB-ROLE-2/3) until the round's end reveals them (SAB-END-3); the goals it has not
seen (SAB-GRID-4) -- and so what the others saw with their maps (SAB-MAP-2); the other
hands, the draw pile and the cards others passed face down (SAB-TURN-5, SAB-PASS-3);
the gold others hold and the gold not yet handed out (SAB-GOLD-10), except what the
seat itself is shown while choosing (SAB-AMB-18/25). ``observe`` pools each of these
(their contents are public by elimination: the box minus what the seat sees) and a
deal shuffles them back; ``fix`` makes every other seat's map peeks name the dealt goals.
The role cards are not dealt uniformly: ``RoleDeal`` weighs each placement of the
saboteur cards by what the seats' public plays reveal (``inference.odds``).

The root compares the heuristic's first four choices on the same deals (``SearchSpec.paired``):
at 120 playouts a root of some ten children, each met by its own ten deals, chose by the
luck of its deals (two runs on other streams agreed on 8 to 12 of 30 positions; 21 of 30 so).
A candidate's tree stops at ``normal``'s 30 iterations (``tree_cap``): ``hard`` searches four such
trees per candidate on further deals and pools them, since one tree of 120 iterations, deeper,
played worse than ``normal`` (``benchmarks/search.md``, "Saboteur: `hard` against `normal`").

Past the tree the seats play the ``heuristic`` bot; where the rollout stops short of
the game's end, ``evaluate`` scores each seat's gold so far plus the round's expected
gold, from the miners' chance to reach the treasure (fitted on heuristic games:
``CHANCE``), averaged over the roles the seat may believe, or, once the round is over,
the gold still going round.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations

from domain.core import Drbg
from domain.kit import Observation, SearchSpec, copy_state, squash
from domain.saboteur.bots import heuristic_bot
from domain.saboteur.content import GOLD, ROLE_DECK, ROUNDS, SABOTEUR_PAY, TREASURE
from domain.saboteur.inference import odds
from domain.saboteur.maze import frontier
from domain.saboteur.rounds import gold_seat, miner_ccw


def observe(state: dict, seat: int) -> Observation:
    s = state
    obs = Observation(copy_state(s))
    others = [p for p in range(s["players"]) if p != seat]
    if s["roles"] and not s["roles_revealed"] and s["phase"] != "over":
        obs = RoleDeal(obs.state)
        obs.state["roles"] = [r if p == seat else None for p, r in enumerate(s["roles"])]
        obs.state["leftover"] = None
    if s["phase"] == "over":
        return obs
    mine = s["peeks"][seat] if s["peeks"] else {}
    unseen = [g for g, info in sorted(s["goals"].items()) if not info["revealed"] and g not in mine]
    obs.pool([s["goals"][g]["shape"] for g in unseen], [(("goals", g, "shape"), 0, None) for g in unseen])
    for p in others:
        if s["peeks"]:
            for g in s["peeks"][p]:
                obs.state["peeks"][p][g] = None
    cards = [c for p in others for c in (s["hands"][p] if s["hands"] else [])] + list(s["deck"])
    slots = [(("hands", p), 0, len(s["hands"][p])) for p in others if s["hands"]] + [(("deck",), 0, len(s["deck"]))]
    for i, d in enumerate(s["discard"]):
        if not d["face_up"] and d["by"] != seat:
            cards.append(d["card"])
            slots.append((("discard", i, "card"), 0, None))
    obs.pool(cards, slots)
    shown = gold_seat(s) == seat  # the chooser sees the bundle, or the gold deck (SAB-AMB-18/25)
    gold = [v for p in others for r in (s["gold"][p] if s["gold"] else []) for v in r]
    slots = [(("gold", p, r), 0, len(rows)) for p in others if s["gold"] for r, rows in enumerate(s["gold"][p])]
    if not (shown and not s["bundle"]):
        gold += s["gold_deck"]
        slots.append((("gold_deck",), 0, len(s["gold_deck"])))
    if not (shown or s["holder"] == seat):
        gold += s["bundle"]
        slots.append((("bundle",), 0, len(s["bundle"])))
    obs.pool(gold, slots)
    obs.fix = _seen_goals
    if isinstance(obs, RoleDeal):
        obs.deals = role_deals(obs.state, seat)  # from the blanked state: public plays only
    return obs


@dataclass
class RoleDeal(Observation):
    """An observation whose role cards are dealt by what the seats' plays reveal
    (``inference.odds``) rather than uniformly. ``deals`` lists every way the saboteur
    cards the seat cannot see may lie among the other seats and the leftover (SAB-ROLE-2/3):
    (cumulative weight, the saboteurs' places: seats, or None for the leftover)."""

    deals: list[tuple[float, tuple[int | None, ...]]] = field(default_factory=list)

    def deal(self, rng: Drbg) -> dict:
        s = super().deal(rng)
        total = self.deals[-1][0]
        u = rng.randbelow(1 << 52) / (1 << 52) * total
        saboteurs = next((places for upto, places in self.deals if u < upto), self.deals[-1][1])
        s["roles"] = ["saboteur" if p in saboteurs else r or "miner" for p, r in enumerate(s["roles"])]
        s["leftover"] = "saboteur" if None in saboteurs else "miner"
        return s


def role_deals(state: dict, seat: int) -> list[tuple[float, tuple[int | None, ...]]]:
    """Every placement of the saboteur cards the seat cannot see among the other seats and the
    leftover (the role deck minus its own card, SAB-ROLE-1), weighted by the product of the
    likelihood ratios of the seats that would hold one (a uniform deal is the prior)."""
    s = state
    places: list[int | None] = [p for p in range(s["players"]) if p != seat] + [None]
    unseen = ROLE_DECK[s["players"]][0] - (s["roles"][seat] == "saboteur")
    ratio = {**odds(s, seat), None: 1.0}
    out, total = [], 0.0
    for saboteurs in combinations(places, unseen):
        weight = 1.0
        for p in saboteurs:
            weight *= ratio[p]
        total += weight
        out.append((total, saboteurs))
    return out


SPREAD = 1.5
"""Nuggets of uncertainty per round left, this one included: the softmax's temperature."""


def _seen_goals(s: dict) -> None:
    for peeks in s["peeks"]:
        for g in peeks:
            peeks[g] = s["goals"][g]["shape"]


def evaluate(state: dict, seats: list[int]) -> dict[int, float]:
    """Each seat's chance to end with the most gold: a softmax of the seats' gold so far plus
    the round's expected gold, with a temperature for the rounds still to come (SAB-WIN-3).
    Not a margin over the best other seat: a miner level with its fellow miner would then
    gain nothing from the tunnel's progress, which takes gold from the saboteur.

    Mid-round each seat judges by what it knows of the goals: the tunnel's chance to reach
    the treasure averaged over the goals the treasure may be for that seat (its map peeks,
    SAB-MAP-2), not the dealt treasure alone -- the same expectation over the deals, without
    the noise of one deal's goal in every rollout's value (some ten deals per child at the root).
    Likewise the roles: averaged over what the seat may believe of them (``_role_weights``). The
    chance itself is fitted on heuristic games (``CHANCE``): the tunnel's distance to the goal,
    the cards left, the tools broken in front of the miners (SAB-TOOL-3) and the saboteurs in play."""
    s = state
    gold = [sum(v for r in (s["gold"][p] if s["gold"] else []) for v in r) for p in seats]
    t = SPREAD + SPREAD * (ROUNDS - s["round"])
    if s["phase"] == "gold":
        for p, v in _unpaid(s).items():
            gold[p] += v
    if s["phase"] != "play":
        return _softmax(gold, t)
    hidden = [g for g, i in s["goals"].items() if not i["revealed"]]
    chances: dict[frozenset[int], dict[str, float]] = {}
    out = {}
    for p in seats:
        seen = s["peeks"][p]
        maybe = [g for g in hidden if seen.get(g) == TREASURE] or [g for g in hidden if g not in seen]
        value = total = 0.0
        for weight, saboteurs in _role_weights(s, p):
            chance = chances.get(saboteurs)
            if chance is None:
                chance = chances[saboteurs] = {g: _chance(leaf_features(s, g, saboteurs)) for g in hidden}
            c = sum(chance[g] for g in maybe) / len(maybe)
            miners = len(seats) - len(saboteurs)
            share = min(len(seats), 9) * sum(GOLD) / len(GOLD) / max(1, miners)
            pay = SABOTEUR_PAY[len(saboteurs)] if saboteurs else 0
            expected = [gold[q] + ((1 - c) * pay if q in saboteurs else c * share) for q in seats]
            value += weight * _softmax(expected, t)[p]
            total += weight
        out[p] = value / total
    return out


def _chance(x: list[float]) -> float:
    """The miners' chance to reach a goal this round were it the treasure: ``CHANCE`` on the
    position's ``leaf_features``."""
    return squash(CHANCE[0] + sum(w * v for w, v in zip(CHANCE[1:], x)))


def _role_weights(s: dict, seat: int) -> list[tuple[float, frozenset[int]]]:
    """The seat's belief about the roles at a leaf: every placement of the saboteur cards it
    cannot see among the other seats and the leftover (SAB-ROLE-1..3), weighted by the public
    plays up to the leaf (``inference.odds``, as ``role_deals`` weighs the root's deals), each as
    (weight, the seats holding a saboteur card). Its own role is the dealt one. The value is then
    the expectation over the roles the seat cannot know, not one deal's roles: a miner's value
    in a deal that put the saboteur card aside (no saboteur in play, SAB-ROLE-5) hardly moves
    with the tunnel, so one deal's roles made the leaf values jump between deals."""
    n = s["players"]
    others = [q for q in range(n) if q != seat]
    mine = s["roles"][seat] == "saboteur"
    unseen = ROLE_DECK[n][0] - mine
    if unseen == 0:
        return [(1.0, frozenset([seat] if mine else []))]
    ratio = {**odds(s, seat), None: 1.0}
    out = []
    for placed in combinations(others + [None], unseen):
        weight = 1.0
        for q in placed:
            weight *= ratio[q]
        out.append((weight, frozenset(q for q in placed if q is not None) | ({seat} if mine else set())))
    return out


LEAF_FEATURES = ("distance", "far", "ends_near", "cards_each", "miners_blocked", "saboteurs_blocked",
                 "saboteurs_share", "no_saboteur", "players")


CHANCE = (-1.18, -0.72, 0.43, 0.28, 0.27, -0.63, 0.04, -9.61, 0.52, 0.76)
"""The intercept and one weight per ``LEAF_FEATURES``: a logistic regression of "the round ended
with the treasure reached" on the features of 61,078 positions of 900 ``heuristic`` games at 3, 4
and 5 seats (``python -m benchmarks.saboteur_leaf --games 300 --every 2``; log loss 0.410, against
0.644 for the base rate and 0.723 for the hand-set chance it replaces,
squash(1.1 * (2.5 - distance) + 0.04 * cards)). The rollouts play the same heuristic."""


def leaf_features(s: dict, goal: str, saboteurs) -> list[float]:
    """The position's ``LEAF_FEATURES`` for the miners' chance to reach ``goal`` this round, were
    it the treasure (SAB-GOLD-1), with ``saboteurs`` the seats holding a saboteur card: the
    distance from the tunnel's nearest open end (SAB-CONN-1) to the goal, and its excess over 4;
    how many ends are that near (at most 3); the cards left (draw pile and hands) per player;
    the share of miners, and of saboteurs, with a broken tool (who may lay no path, SAB-TOOL-3);
    the saboteurs' share of the seats, none in play (SAB-ROLE-5); the table's size."""
    ends = frontier(s["maze"])
    gx, gy = s["goals"][goal]["x"], s["goals"][goal]["y"]
    dists = [abs(x - gx) + abs(y - gy) for x, y in ends]
    d = min(dists, default=12)
    n = s["players"]
    cards = len(s["deck"]) + sum(len(h) for h in s["hands"])
    broken = s["broken"]
    miners = n - len(saboteurs)
    blocked = sum(1 for q in range(n) if broken[q] and q not in saboteurs) / max(1, miners)
    sab_blocked = sum(1 for q in saboteurs if broken[q]) / len(saboteurs) if saboteurs else 0.0
    return [float(d), float(max(0, d - 4)), float(min(3, dists.count(d))), cards / n, blocked, sab_blocked,
            len(saboteurs) / n, float(not saboteurs), float(n)]


def _softmax(gold: list[float], t: float) -> dict[int, float]:
    top = max(gold)
    weights = [math.exp((g - top) / t) for g in gold]
    total = sum(weights)
    return {p: w / total for p, w in enumerate(weights)}


def _unpaid(s: dict) -> dict[int, int]:
    """The round's gold still to hand out, as it will go: each miner from the bundle's holder
    counter-clockwise keeps the best card left (SAB-GOLD-3..5, the default choice SAB-AMB-18),
    and each saboteur still due takes the round's pay (SAB-GOLD-8). A rollout that stops
    while the bundle goes round would otherwise judge the round's winners empty-handed."""
    out: dict[int, int] = {}
    holder = s["holder"]
    for v in sorted(s["bundle"], reverse=True):
        out[holder] = out.get(holder, 0) + v
        holder = miner_ccw(s["roles"], holder, False)
    for p in s["payees"]:
        out[p] = out.get(p, 0) + s["pay"]
    return out


def role(state: dict, seat: int) -> bytes:
    """The seat's role in a deal (SAB-ROLE-2): a miner and a saboteur play the same position
    apart, so the tree keeps the other seats' moves apart by the role each holds in the deal
    (``SearchSpec.private``)."""
    roles = state["roles"]
    return roles[seat].encode() if roles and roles[seat] else b""


SEARCH = SearchSpec(observe=observe, rollout=heuristic_bot, evaluate=evaluate, depth=6,
                    playouts={"easy": 30, "normal": 120, "hard": 480}, playout_ms=12.0, private=role,
                    ordered=True, paired=4, tree_cap=30)
