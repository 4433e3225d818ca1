"""Fits the weights of ``domain.dwarf.race`` (the search bot's solo evaluation against Andvettr).

    python -m benchmarks.dwarf_race [GAMES]

Plays GAMES seeded solo games of the ``greedy`` bot against each of Andvettr and Andvettr
fadir, records ``race.features`` of the player at every round's end with whether the player
won the game, fits a logistic regression (Newton's method) to three quarters of the games and
prints, as JSON, the weights and the area under the ROC curve on the quarter held out.
"""
from __future__ import annotations

import json
import sys

from domain.core import Seat
from domain.dwarf import race
from domain.dwarf.rules import GAME
from domain.kit import play
from benchmarks.logistic import chance, solve

LEVELS = ("andvettr", "andvettr-fadir")


def rows(level: str, g: int) -> list[tuple[tuple[float, ...], bool]]:
    """(features, won) at every round end of one seeded game."""
    seen: list[tuple[float, ...]] = []

    def on_step(p) -> None:
        if any(e["type"] == "RoundEnded" for e in p.steps[-1].events):
            seen.append(race.features(p.state, 0))
    played = play(GAME, [Seat(0, "greedy-0", "greedy")], {"solo_level": level}, f"dwarf-race:{level}:{g}".encode(),
                  on_step=on_step)
    board = played.scores()
    won = board.result().kind != "no_player_wins" and any(
        x.participant == "seat:0" and x.place == 1 for x in board.standings)
    return [(x, won) for x in seen]


def fit(data: list[tuple[tuple[float, ...], bool]], steps: int = 12) -> list[float]:
    """Logistic regression by Newton's method (a tiny ridge on the Hessian alone keeps it invertible;
    ``logistic.newton`` penalises the weights themselves, so this fit keeps its own loop)."""
    k = len(data[0][0])
    w = [0.0] * k
    for _ in range(steps):
        h = [[1e-3 * (i == j) for j in range(k)] for i in range(k)]
        g = [0.0] * k
        for x, y in data:
            p = chance(w, x)
            for i in range(k):
                g[i] += (p - y) * x[i]
                for j in range(k):
                    h[i][j] += p * (1 - p) * x[i] * x[j]
        w = [a - d for a, d in zip(w, solve(h, g))]
    return w


def auc(scored: list[tuple[float, bool]]) -> float:
    pos = [s for s, y in scored if y]
    neg = [s for s, y in scored if not y]
    return sum((p > n) + 0.5 * (p == n) for p in pos for n in neg) / (len(pos) * len(neg))


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    train, test = [], []
    for g in range(games):
        for level in LEVELS:
            (test if g % 4 == 3 else train).extend(rows(level, g))
        print(f"{g + 1}/{games} games per level", file=sys.stderr, flush=True)
    w = fit(train)
    print(json.dumps({"features": race.FEATURES, "weights": [round(x, 3) for x in w], "games_per_level": games,
                      "rows": len(train) + len(test), "held_out_auc": round(auc([(chance(w, x), y) for x, y in test]), 3),
                      "win_share": round(sum(y for _, y in train + test) / (len(train) + len(test)), 3)}))


if __name__ == "__main__":
    main()
