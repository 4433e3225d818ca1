"""Fit the Saboteur search's leaf evaluation (``domain.saboteur.sampler.CHANCE``).

    python -m benchmarks.saboteur_leaf [--games G] [--players 3,4,5] [--every K]

Plays G seeded games of the ``heuristic`` bot at each table size and, every K-th
decision of a round in play, takes the position's ``sampler.leaf_features`` (the
tunnel's distance to the treasure, cards left, tools broken in front of the miners and
of the saboteurs, ...) read with the true roles and the true treasure, and whether the
round then ended with the treasure reached (the miners' win, SAB-GOLD-1). A logistic
regression (``benchmarks.logistic``, a small ridge) of that
outcome on the features gives the weights. The search's rollouts play the same
heuristic past the tree, so the fit is the chance its rollouts would reach the treasure
had they gone on to the round's end. Prints the weights and the log loss with the
intercept alone, with the evaluation the sampler had before, and fitted.
"""
from __future__ import annotations

import argparse
import math

from domain import registry
from domain.kit import play, squash, table
from domain.saboteur.maze import frontier
from domain.saboteur.sampler import LEAF_FEATURES, leaf_features
from benchmarks.logistic import chance, newton

RIDGE = 1.0


def rows(games: int, players: list[int], every: int) -> list[tuple[list[float], int, float]]:
    """(features with a leading 1, 1 if the miners won the round, the old chance) per position."""
    game = registry.get("saboteur")
    out: list[tuple[list[float], int, float]] = []
    for n in players:
        for g in range(games):
            count = [0]
            pending: dict[int, list] = {}

            def look(p, pending=pending, count=count):
                s = p.state
                for h in s["history"]:
                    for x, old in pending.pop(h["round"], []):
                        out.append((x, int(h["winner"] == "miners"), old))
                count[0] += 1
                if count[0] % every or s["phase"] != "play" or not s["roles"] or None in s["roles"]:
                    return
                treasure = next(g for g, i in s["goals"].items() if i["shape"] == "treasure")
                x = leaf_features(s, treasure, [q for q, r in enumerate(s["roles"]) if r == "saboteur"])
                old = _old_chance(s, treasure)
                pending.setdefault(s["round"], []).append(([1.0] + x, old))
            play(game, table(game, n, "heuristic"), {}, f"leaf:{n}:{g}".encode(), on_step=look)
    return out


def _old_chance(s: dict, goal: str) -> float:
    """The evaluation's chance before the fit (``sampler`` at ``ad2fa62``), for comparison."""
    g = s["goals"][goal]
    d = min((abs(x - g["x"]) + abs(y - g["y"]) for x, y in frontier(s["maze"])), default=12)
    return squash(1.1 * (2.5 - d) + 0.04 * (len(s["deck"]) + sum(len(h) for h in s["hands"])))


def fit(data) -> list[float]:
    return newton([(x, y) for x, y, _ in data], [0.0] + [RIDGE] * (len(data[0][0]) - 1), steps=30, tol=1e-7)


def loss(data, chance) -> float:
    total = 0.0
    for x, y, old in data:
        p = min(max(chance(x, old), 1e-9), 1 - 1e-9)
        total -= math.log(p if y else 1 - p)
    return total / len(data)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", default="3,4,5")
    ap.add_argument("--every", type=int, default=2)
    args = ap.parse_args()
    sizes = [int(n) for n in args.players.split(",")]
    data = rows(args.games, sizes, args.every)
    w = fit(data)
    base = sum(y for _, y, _ in data) / len(data)
    print(f"{len(data)} positions ({sum(y for _, y, _ in data)} rounds the miners won) "
          f"from {args.games} games at {sizes} players")
    for name, v in zip(("intercept",) + LEAF_FEATURES, w):
        print(f"  {name:16} {v:+.3f}")

    print("log loss: base rate %.3f, the old chance %.3f, fitted %.3f" % (
        loss(data, lambda x, _: base), loss(data, lambda x, old: old), loss(data, lambda x, _: chance(w, x))))


if __name__ == "__main__":
    main()
