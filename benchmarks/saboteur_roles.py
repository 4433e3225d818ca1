"""Fit the Saboteur role inference (``domain.saboteur.inference.WEIGHTS``).

    python -m benchmarks.saboteur_roles [--games G] [--players 3,4,5] [--every K]

Plays G seeded games of the ``heuristic`` bot at each table size and, every K-th
decision of a round, takes each miner seat's view of every other seat: the public
counts of ``inference.FEATURES`` and the seat's true role. A logistic regression
(Newton's method, a small ridge) of "saboteur" on the counts gives each feature's
log likelihood ratio; the intercept (the prior odds at the table size) is dropped,
since the sampler's uniform deal is the prior. Prints the weights, the log loss
with and without them, and the mean predicted probability for true saboteurs
and true miners.
"""
from __future__ import annotations

import argparse
import math

from domain import registry
from domain.kit import play, table
from domain.saboteur.inference import FEATURES, features
from benchmarks.logistic import newton

RIDGE = 1.0


def rows(games: int, players: list[int], every: int) -> list[tuple[int, list[float], int]]:
    """(players, feature counts, 1 if saboteur) per miner viewer and other seat, every K-th step."""
    game = registry.get("saboteur")
    out = []
    for n in players:
        for g in range(games):
            count = [0]

            def look(p, n=n):
                count[0] += 1
                s = p.state
                if count[0] % every or s["phase"] != "play" or not s["roles"] or None in s["roles"]:
                    return
                for v in range(n):
                    if s["roles"][v] != "miner":
                        continue
                    for q, f in features(s, v).items():
                        out.append((n, [f[k] for k in FEATURES], int(s["roles"][q] == "saboteur")))
            play(game, table(game, n, "heuristic"), {}, f"roles:{n}:{g}".encode(), on_step=look)
    return out


def fit(data: list[tuple[int, list[float], int]], sizes: list[int]) -> tuple[list[float], dict[int, float]]:
    """Weights per feature and an intercept per table size, by Newton's method on the log loss."""
    k = len(FEATURES)
    rows = [(f + [1.0 if n == m else 0.0 for m in sizes], y) for n, f, y in data]
    w = newton(rows, [RIDGE] * k + [0.0] * len(sizes), steps=25, tol=1e-6)
    return w[:k], dict(zip(sizes, w[k:]))


def loss(data, weights, prior) -> tuple[float, float, float]:
    """Mean log loss, and the mean P(saboteur) given to true saboteurs and to true miners."""
    total, sab, mine = 0.0, [], []
    for n, f, y in data:
        p = 1 / (1 + math.exp(-(prior[n] + sum(a * b for a, b in zip(weights, f)))))
        p = min(max(p, 1e-9), 1 - 1e-9)
        total -= math.log(p if y else 1 - p)
        (sab if y else mine).append(p)
    return total / len(data), sum(sab) / max(1, len(sab)), sum(mine) / max(1, len(mine))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", default="3,4,5")
    ap.add_argument("--every", type=int, default=4)
    args = ap.parse_args()
    sizes = [int(n) for n in args.players.split(",")]
    data = rows(args.games, sizes, args.every)
    weights, prior = fit(data, sizes)
    print(f"{len(data)} rows ({sum(y for *_, y in data)} saboteur) from {args.games} games at {sizes} players")
    for name, v in zip(FEATURES, weights):
        print(f"  {name:14} {v:+.3f}")
    print("  intercepts", {n: round(v, 3) for n, v in prior.items()})
    flat = {n: math.log(sum(y for m, _, y in data if m == n) / max(1, sum(1 - y for m, _, y in data if m == n)))
            for n in sizes}
    print("log loss, P(sab | saboteur), P(sab | miner): prior only %.3f %.3f %.3f" % loss(data, [0.0] * len(weights), flat))
    print("                                              fitted     %.3f %.3f %.3f" % loss(data, weights, prior))


if __name__ == "__main__":
    main()
