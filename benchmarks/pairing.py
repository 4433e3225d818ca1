"""Repeat meetings of multi-seat Swiss pairings, pairing version 1 (one fill) against version 2
(the search): ``python -m benchmarks.pairing`` prints the table in benchmarks/tournament.md.

Each line plays 10 Swiss events per version with the same seeds and results drawn by a seeded
``random.Random`` (a shuffled place order per table), and counts every meeting of a pair after
its first, summed over the events.
"""
from __future__ import annotations

import random
import sys
import time
from collections import Counter
from itertools import combinations

from domain.tournament import Config, is_complete, pair_round

CASES = [(12, 3, 5), (16, 4, 5), (17, 4, 5), (20, 5, 5), (24, 4, 6), (32, 4, 6)]
EVENTS = 10


def play(cfg: Config, n: int, seed: bytes, results: int) -> list[dict]:
    entrants = [{"id": f"e{i}", "rating": 0, "withdrawn": False} for i in range(n)]
    rnd, rounds = random.Random(results), []
    while not is_complete(cfg, entrants, rounds) and len(rounds) < 50:
        r = pair_round(cfg, entrants, rounds, seed)
        for t in r["tables"]:
            places = list(range(1, len(t["seats"]) + 1))
            rnd.shuffle(places)
            t["result"] = {"places": dict(zip(t["seats"], places)), "scores": {e: 0 for e in t["seats"]}}
        rounds.append(r)
    return rounds


def repeats(rounds: list[dict]) -> int:
    met = Counter(frozenset(p) for r in rounds for t in r["tables"] for p in combinations(t["seats"], 2))
    return sum(n - 1 for n in met.values())


def main() -> None:
    print("| entrants | seats | rounds | repeats, version 1 | repeats, version 2 | CPU s per event, v2 |")
    print("|---|---|---|---|---|---|")
    for n, k, rounds in CASES:
        parsed = Config.parse({"format": "swiss", "table_size": k, "rounds": rounds}, min_players=3, max_players=10)
        new = Config.from_dict({**parsed.to_dict(), "pairing": 2})  # the table compares these two versions
        old = Config.from_dict({key: v for key, v in parsed.to_dict().items() if key != "pairing"})
        totals, cpu = {1: 0, 2: 0}, 0.0
        for e in range(EVENTS):
            seed = f"s{e}".encode()
            totals[1] += repeats(play(old, n, seed, e))
            started = time.process_time()
            totals[2] += repeats(play(new, n, seed, e))
            cpu += time.process_time() - started
        print(f"| {n} | {k} | {rounds} | {totals[1]} | {totals[2]} | {cpu / EVENTS:.2f} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
