"""Mountain King bot benchmark: greedy against random in 2-player games, in process.

    python -m benchmarks.mountain_king_bots [GAMES] [--jobs J]

Game g seats greedy first when g is even and second when it is odd, so the
first-player advantage cancels out. Every game is seeded (``Drbg``), so a run
is reproducible. The report: greedy's win rate with a 95% Wilson interval
(a tie counts half), mean final scores per category for each bot, game length,
and how long ``legal_commands`` and each bot's decisions take. JSON on stdout,
progress on stderr; ``--jobs`` plays games in that many worker processes.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from multiprocessing import Pool

from domain import kit
from domain.core import Seat
from domain.mountain_king.rules import GAME
from domain.mountain_king.scoring import CATEGORIES


def play(seed: bytes, bots: list[str], options: dict | None = None, max_decisions: int = 20000,
         time_legal: bool = True) -> dict:
    """One game (the kit's driver: the server's DRBG streams); per bot type the
    decision times, and ``legal_commands`` times, in seconds."""
    times: dict[str, list[float]] = {b: [] for b in bots}
    legal: list[float] = []

    def timed(policy, bot):
        def decide(game, state, seat, rng):
            t0 = time.perf_counter()
            if time_legal:
                game.legal_commands(state, seat)
            t1 = time.perf_counter()
            cmd = policy(game, state, seat, rng)
            times[bot].append(time.perf_counter() - t1)
            if time_legal:
                legal.append(t1 - t0)
            return cmd
        return decide

    seats = [Seat(i, f"{b}{i}", b) for i, b in enumerate(bots)]
    policies = {i: timed(GAME.bots[b], b) for i, b in enumerate(bots)}
    g = kit.play(GAME, seats, options or {}, seed, max_steps=max_decisions, policies=policies)
    board = g.scores()
    return {
        "bots": bots, "finished": g.terminal, "decisions": len(g.steps) - 1, "rounds": g.state["round"],
        "turns": g.state["turns_played"], "winners": sorted(board.winners),
        "scores": {s.seat: {"total": s.total, **s.breakdown} for s in board.seats},
        "times": times, "legal": legal,
    }


def wilson(wins: float, n: int, z: float = 1.96) -> list[float]:
    """95% Wilson score interval of a proportion."""
    if not n:
        return [0.0, 1.0]
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(centre - half, 3), round(centre + half, 3)]


def timing(samples: list[float]) -> dict:
    if not samples:
        return {}
    return {"decisions": len(samples), "mean_ms": round(1000 * statistics.mean(samples), 2),
            "p95_ms": round(1000 * sorted(samples)[int(0.95 * (len(samples) - 1))], 2),
            "max_ms": round(1000 * max(samples), 2)}


def _game(g: int) -> dict:
    bots = ["greedy", "random"] if g % 2 == 0 else ["random", "greedy"]
    return play(b"mk-bots-%d" % g, bots)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.monotonic()
    results = []
    with Pool(args.jobs) as pool:
        for res in pool.imap(_game, range(args.games)):
            results.append(res)
            print(f"\rmountain-king bots: game {len(results)}/{args.games}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    wins = 0.0
    per_bot: dict[str, dict[str, list[int]]] = {b: {c: [] for c in ("total", *CATEGORIES)} for b in ("greedy", "random")}
    times: dict[str, list[float]] = {"greedy": [], "random": []}
    legal: list[float] = []
    for res in results:
        greedy = res["bots"].index("greedy")
        if greedy in res["winners"]:
            wins += 1 / len(res["winners"])
        for seat, bot in enumerate(res["bots"]):
            for cat, v in res["scores"][seat].items():
                per_bot[bot][cat].append(v)
            times[bot] += res["times"][bot]
        legal += res["legal"]
    n = len(results)
    report = {
        "games": n, "players": 2, "seconds": round(time.monotonic() - started, 1),
        "unfinished": sum(not r["finished"] for r in results),
        "greedy_wins": wins, "greedy_win_rate": round(wins / n, 3), "greedy_win_rate_95ci": wilson(wins, n),
        "greedy_win_rate_by_seat": {
            str(seat): round(sum((1 / len(r["winners"])) * (r["bots"].index("greedy") in r["winners"])
                                 for r in results if r["bots"].index("greedy") == seat)
                             / max(1, sum(r["bots"].index("greedy") == seat for r in results)), 3)
            for seat in (0, 1)},
        "mean_scores": {b: {c: round(statistics.mean(v), 2) for c, v in cats.items()} for b, cats in per_bot.items()},
        "game_length": {k: {"mean": round(statistics.mean(r[k] for r in results), 1),
                            "min": min(r[k] for r in results), "max": max(r[k] for r in results)}
                        for k in ("decisions", "turns", "rounds")},
        "decision_time": {b: timing(t) for b, t in times.items()},
        "legal_commands_time": timing(legal),
    }
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
