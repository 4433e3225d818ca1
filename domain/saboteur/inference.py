"""Who is likely a saboteur, from what a seat may see: the plays on the table.

Roles are secret until the round's end (SAB-ROLE-2, SAB-INFO-1), but every play is
public: the path cards in the maze and who laid them (SAB-PATH), the broken tools in
front of each player and who broke them (SAB-TOOL-2), and the face-up discards of
rockfalls with the card each removed (SAB-ROCK-2). Miners build towards the goals
and saboteurs block them (SAB-OVW-2, SAB-PATH-8, SAB-ROCK-4), so each play shifts
the odds of its player's role.

``odds(state, seat)`` gives, for every other seat, the likelihood ratio
P(its plays | saboteur) / P(its plays | miner): the exponential of a linear score of
the counts below (``WEIGHTS``). The weights follow a logistic regression on the seats
of heuristic-bot games (``benchmarks/saboteur_roles.py``, 60 games at each of 3, 4 and
5 seats), rounded; the fit gives a dead end +8.5 and a rockfall that cleared one -4.8,
because the heuristic's miners never lay a dead end -- a person or the search bot may,
so both are capped at 3 (odds of 20 : 1). The search's sampler deals the role cards in
proportion to the product of these ratios over the seats dealt a saboteur
(``sampler.RoleDeal``).
"""
from __future__ import annotations

import math

from domain.saboteur.content import CARDS, SHAPES
from domain.saboteur.maze import connected_edges

FEATURES = ("dead_end", "tunnel", "stray", "broke_me", "broke_other", "fall_dead_end", "fall_tunnel", "repair")
"""Per seat: dead ends it laid that are still in the maze (SAB-CONN-2); its through cards
joined to the start (the tunnel, SAB-CONN-1); its through cards not joined; tools it broke
in front of the seat that asks, when that seat is a miner (SAB-TOOL-2); tools it broke in
front of a third player; rockfalls it played that removed a dead end, or a through card
(SAB-ROCK-1/2); and repairs it played (SAB-REP-2)."""

WEIGHTS = dict(zip(FEATURES, (3.0, -0.6, -0.75, 0.9, -0.45, -3.0, 2.2, 0.15)))
"""Log likelihood ratio (saboteur : miner) per unit of each feature."""


def features(state: dict, seat: int) -> dict[int, dict[str, float]]:
    """The counts of ``FEATURES`` per other seat, read from the public table only."""
    s = state
    n = s["players"]
    out = {p: dict.fromkeys(FEATURES, 0.0) for p in range(n) if p != seat}
    conn = {k for k, _ in connected_edges(s["maze"])}
    for k, c in s["maze"].items():
        f = out.get(c["by"])
        if f is None:
            continue
        if SHAPES[c["shape"]].dead_end:
            f["dead_end"] += 1
        elif k in conn:
            f["tunnel"] += 1
        else:
            f["stray"] += 1
    miner = bool(s["roles"]) and s["roles"][seat] == "miner"
    for target, tools in enumerate(s["broken"]):
        for b in tools.values():
            f = out.get(b["by"])
            if f is None or target == b["by"]:
                continue
            if target != seat:
                f["broke_other"] += 1
            elif miner:
                f["broke_me"] += 1
    discard = s["discard"]
    for i, d in enumerate(discard):
        f = out.get(d["by"])
        if f is None or not d["face_up"]:
            continue
        kind = CARDS[d["card"]].kind if d["card"] in CARDS else None
        if kind == "rockfall" and i + 1 < len(discard):
            removed = CARDS[discard[i + 1]["card"]]
            f["fall_dead_end" if SHAPES[removed.shape].dead_end else "fall_tunnel"] += 1
        elif kind == "repair":
            f["repair"] += 1
    return out


def odds(state: dict, seat: int, weights: dict[str, float] = WEIGHTS) -> dict[int, float]:
    """Per other seat: P(its public plays | saboteur) / P(its public plays | miner)."""
    return {p: math.exp(sum(weights[k] * v for k, v in f.items())) for p, f in features(state, seat).items()}
