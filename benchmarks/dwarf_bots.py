"""DWARF benchmark: seeded bot games in process (no server), through ``domain.kit.play``.

    python -m benchmarks.dwarf_bots [GAMES] [--tables T] [--jobs J] [--solo-only] [--option KEY=JSON ...]

Reports, as JSON on stdout (progress on stderr):

- solo: ``greedy`` (the human-level bot) against each automaton level, GAMES games each;
- ``greedy`` in one seat against ``random`` in the others, per player count 2-5, GAMES games
  each (greedy's seat rotates: seat g mod n in game g);
- per player count 2-5, T all-``greedy`` tables: rounds per game, how often each end
  trigger fired (4 Objects, empty Mountain), the starting first player's win share and
  what decided the winner (majorities alone, Medals, Iron, Objects, or a shared victory).
  The lookahead bot costs most at 4-5 seats, so T is smaller than GAMES by default.

``--solo-only`` plays the solo games alone; ``--option`` adds a game option to them (e.g.
``--option andvettr_second_worker_rule='"any_empty"'``, DW-AMB-28's literal reading).
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections import Counter
from multiprocessing import Pool

from domain.core import Seat
from domain.dwarf.rules import GAME
from domain.dwarf.scoring import TIEBREAK, majorities
from domain.kit import play


def decided_by(state: dict) -> str:
    """What separated the winner from the others (DW-SCORE-3/4)."""
    if state["ended"] == "automaton_medals":
        return "automaton_instant_win"
    players = state["players"]
    counts = [sum(m.values()) for m in majorities(players)]
    leaders = [i for i, c in enumerate(counts) if c == max(counts)]
    if len(leaders) == 1:
        return "majorities"
    for res in TIEBREAK:
        best = max(players[i][res] for i in leaders)
        leaders = [i for i in leaders if players[i][res] == best]
        if len(leaders) == 1:
            return {"medal": "medals", "iron": "iron", "object": "objects"}[res]
    return "shared"


def one(job: tuple) -> dict:
    kind, n, bots, options, seed = job
    seats = [Seat(i, f"{b}{i}", b) for i, b in enumerate(bots)]
    g = play(GAME, seats, options, seed)
    board = g.scores()
    first = json.loads(json.dumps(g.steps[0].events[0]["data"]))["first"]
    winners = [p.participant for p in board.standings if p.place == 1]
    return {"kind": kind, "n": n, "bots": bots, "rounds": g.state["round"], "ended": g.state["ended"],
            "winners": winners, "first": f"seat:{first}" if first < n else "actor:automaton",
            "decided_by": decided_by(g.state), "steps": len(g.steps)}


def wilson(wins: float, n: int) -> list[float]:
    if not n:
        return [0.0, 0.0]
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(centre - half, 3), round(centre + half, 3)]


def jobs(games: int, tables: int, solo_only: bool = False, solo_options: dict | None = None) -> list[tuple]:
    out = []
    for n in () if solo_only else (2, 3, 4, 5):
        out += [("balance", n, ["greedy"] * n, {}, f"balance-{n}-{g}".encode()) for g in range(tables)]
        for g in range(games):
            bots = ["greedy" if i == g % n else "random" for i in range(n)]
            out.append(("greedy_vs_random", n, bots, {}, f"gvr-{n}-{g}".encode()))
    for level in ("eldhusfifl", "andvettr", "andvettr-fadir"):
        out += [(f"solo:{level}", 1, ["greedy"], {"solo_level": level, **(solo_options or {})},
                 f"solo-{level}-{g}".encode())
                for g in range(games)]
    return out


def share(results: list[dict], who) -> dict:
    wins = sum(1 / len(r["winners"]) for r in results if who(r) in r["winners"])
    return {"games": len(results), "win_share": round(wins / max(1, len(results)), 3),
            "ci95": wilson(wins, len(results))}


def report(results: list[dict]) -> dict:
    out: dict = {"balance": {}, "solo": {}}
    for n in (2, 3, 4, 5):
        rs = [r for r in results if r["kind"] == "balance" and r["n"] == n]
        if not rs:
            continue
        rounds = [r["rounds"] for r in rs]
        out["balance"][str(n)] = {
            "games": len(rs), "rounds_mean": round(statistics.mean(rounds), 1),
            "rounds_min_max": [min(rounds), max(rounds)],
            "end_trigger": dict(Counter(r["ended"] for r in rs)),
            "first_player": share(rs, lambda r: r["first"]),
            "fair_share": round(1 / n, 3),
            "decided_by": dict(Counter(r["decided_by"] for r in rs)),
        }
    out["greedy_vs_random"] = {}
    for n in (2, 3, 4, 5):
        gvr = [r for r in results if r["kind"] == "greedy_vs_random" and r["n"] == n]
        if not gvr:
            continue
        out["greedy_vs_random"][str(n)] = {**share(gvr, lambda r: f"seat:{r['bots'].index('greedy')}"),
                                           "fair_share": round(1 / n, 3)}
    for level in ("eldhusfifl", "andvettr", "andvettr-fadir"):
        rs = [r for r in results if r["kind"] == f"solo:{level}"]
        out["solo"][level] = {**share(rs, lambda r: "seat:0"),
                              "rounds_mean": round(statistics.mean(r["rounds"] for r in rs), 1),
                              "end_trigger": dict(Counter(r["ended"] for r in rs))}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="?", type=int, default=40, help="games per solo level and per greedy-vs-random count")
    ap.add_argument("--tables", type=int, default=8, help="all-greedy games per player count")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--solo-only", action="store_true", help="only the solo games")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=JSON", help="a game option of the solo games")
    args = ap.parse_args()
    try:
        solo_options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
    except ValueError as e:
        ap.error(f"--option takes KEY=JSON, e.g. andvettr_second_worker_rule='\"any_empty\"' ({e})")
    todo = jobs(args.games, args.tables, args.solo_only, solo_options)
    results = []
    with Pool(args.jobs) as pool:
        for i, r in enumerate(pool.imap_unordered(one, todo, chunksize=4), 1):
            results.append(r)
            if i % 20 == 0 or i == len(todo):
                print(f"\r{i}/{len(todo)} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(json.dumps(report(results), indent=2))


if __name__ == "__main__":
    main()
