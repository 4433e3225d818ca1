"""Mountain King balance: all-greedy tables per player count and the 2v2 variant.

    python -m benchmarks.mountain_king_balance [GAMES] [--configs 2,3,4,5,teams] [--jobs J]

For each configuration, GAMES seeded games where every seat is the greedy bot.
Reported per configuration: the win share of each seat (per team in the
variant; a shared win counts 1/k) against the fair share, the spread of
final totals (per team in the variant) and of the winner's margin over the runner-up (mean, stdev, min,
max), per-category means and how often each category scores at all, and game
length. JSON on stdout, progress on stderr.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from multiprocessing import Pool

from benchmarks.mountain_king_bots import play, timing, wilson
from domain.mountain_king.scoring import CATEGORIES


def spread(values: list[float]) -> dict:
    return {"mean": round(statistics.mean(values), 2), "stdev": round(statistics.pstdev(values), 2),
            "min": min(values), "max": max(values)}


def _game(job: tuple[str, int]) -> dict:
    config, g = job
    teams = config == "teams"
    players = 4 if teams else int(config)
    res = play(b"mk-balance-%s-%d" % (config.encode(), g), ["greedy"] * players, {"teams": True} if teams else None,
               time_legal=False)
    res["config"] = config
    return res


def summarise(config: str, results: list[dict]) -> dict:
    teams = config == "teams"
    # the team variant scores per team: seats 0+3 and 1+2 share a total (MK-TEAM-12)
    sides = [[0, 3], [1, 2]] if teams else [[p] for p in range(len(results[0]["bots"]))]
    share = [0.0] * len(sides)
    totals, margins = [], []
    cats = {c: [] for c in CATEGORIES}
    for res in results:
        won = [i for i, side in enumerate(sides) if side[0] in res["winners"]]
        for i in won:
            share[i] += 1 / len(won)
        by_side = sorted((res["scores"][side[0]]["total"] for side in sides), reverse=True)
        margins.append(by_side[0] - by_side[1])
        for side in sides:
            sc = res["scores"][side[0]]
            totals.append(sc["total"])
            for c in CATEGORIES:
                cats[c].append(sc[c])
    n = len(results)
    wins = {"+".join(map(str, side)): round(share[i] / n, 3) for i, side in enumerate(sides)}
    out = {
        "games": n, "unfinished": sum(not r["finished"] for r in results),
        "fair_share": round(1 / len(sides), 3),
        "win_share": wins,
        "win_share_95ci": {"+".join(map(str, side)): wilson(share[i], n) for i, side in enumerate(sides)},
        "totals": spread(totals), "winner_margin": spread(margins),
        "category_means": {c: round(statistics.mean(v), 2) for c, v in cats.items()},
        "category_scored_rate": {c: round(sum(x > 0 for x in v) / len(v), 3) for c, v in cats.items()},
        "game_length": {k: spread([r[k] for r in results]) for k in ("decisions", "turns", "rounds")},
        "greedy_decision_time": timing([t for r in results for t in r["times"]["greedy"]]),
    }
    if teams:
        out["note"] = "per team (seats 0+3, 1+2): teammates share one total"
    return out


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=20)
    parser.add_argument("--configs", default="2,3,4,5,teams")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    configs = args.configs.split(",")
    jobs = [(c, g) for c in configs for g in range(args.games)]
    started = time.monotonic()
    done: dict[str, list[dict]] = {c: [] for c in configs}
    with Pool(args.jobs) as pool:
        for k, res in enumerate(pool.imap_unordered(_game, jobs), 1):
            done[res["config"]].append(res)
            print(f"\rmountain-king balance: game {k}/{len(jobs)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    report = {"seconds": round(time.monotonic() - started, 1), "bot": "greedy",
              "configs": {c: summarise(c, done[c]) for c in configs}}
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
