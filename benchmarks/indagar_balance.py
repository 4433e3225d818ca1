"""La Guerra de Indagar: bot strength and balance over seeded in-process games.

    python -m benchmarks.indagar_balance [GAMES] [--configs solo,2,3,4,duel] [--jobs J] [--rules V]

``solo``, ``2``, ``3``, ``4``: every seat is ``greedy`` (solo: against the 4 monsters);
the factions rotate with the game number so a faction's share is not a seat's.
``duel``: 2 players, ``greedy`` against the kit's ``random``, seats alternating.
Reported per configuration: game length (rounds, decisions), how often a monster
wins (and which), each faction's share of the player wins, the round-1 initiative
holder's share of the player wins, PP per seat, and in the duel greedy's win rate.
JSON on stdout, progress on stderr.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from multiprocessing import Pool

from domain.core import Seat
from domain.indagar import state as st
from domain import registry
from domain.kit import play

FACTIONS = ("arkland", "sect", "forest", "ramal")


def _game(job: tuple[str, int, str | None]) -> dict:
    config, g, rules = job
    players = 1 if config == "solo" else 2 if config == "duel" else int(config)
    if config == "duel":
        bots = ["greedy", "random"] if g % 2 == 0 else ["random", "greedy"]
    else:
        bots = ["greedy"] * players
    factions = [FACTIONS[(g + i) % 4] for i in range(players)]
    start = time.perf_counter()
    played = play(registry.get("indagar", rules), [Seat(i, b, b) for i, b in enumerate(bots)], {"factions": factions},
                  seed=b"indagar-%s-%d" % (config.encode(), g))
    s = played.state
    first = next(e["data"]["seat"] for e in played.steps[0].events if e["type"] == "InitiativeTaken")
    return {"config": config, "bots": bots, "factions": factions, "winner": s["result"]["winner"],
            "rounds": s["round"], "decisions": sum(1 for x in played.steps if x.seat is not None),
            "pp": [st.pp(s, p) for p in range(players)], "first": first,
            "seconds": round(time.perf_counter() - start, 2)}


def summarise(config: str, results: list[dict]) -> dict:
    n = len(results)
    winners = [r["winner"] for r in results]
    monster_wins = Counter(w.removeprefix("monster-") for w in winners if w and w.startswith("monster-"))
    seat_wins = [r for r in results if r["winner"] and r["winner"].startswith("seat:")]
    faction = Counter(r["factions"][int(r["winner"][5:])] for r in seat_wins)
    out = {
        "games": n,
        "rounds": round(statistics.mean(r["rounds"] for r in results), 2),
        "decisions": round(statistics.mean(r["decisions"] for r in results), 1),
        "seconds_per_game": round(statistics.mean(r["seconds"] for r in results), 2),
        "player_wins": round(len(seat_wins) / n, 3),
        "monster_wins": round(sum(monster_wins.values()) / n, 3),
        "nobody_wins": round(sum(1 for w in winners if w is None) / n, 3),
        "monster_wins_by_monster": dict(monster_wins),
        "faction_share_of_player_wins": {f: round(faction[f] / max(1, len(seat_wins)), 3) for f in FACTIONS},
        "initiative_holder_share_of_player_wins": round(
            sum(1 for r in seat_wins if int(r["winner"][5:]) == r["first"]) / max(1, len(seat_wins)), 3),
        "pp_per_seat": round(statistics.mean(p for r in results for p in r["pp"]), 2),
    }
    if config == "duel":
        greedy_wins = sum(1 for r in seat_wins if r["bots"][int(r["winner"][5:])] == "greedy")
        out["greedy_wins"] = round(greedy_wins / n, 3)
        out["random_wins"] = round((len(seat_wins) - greedy_wins) / n, 3)
    return out


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=int, nargs="?", default=20)
    ap.add_argument("--configs", default="solo,2,3,4,duel")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--rules", default=None, help="a rules version the server holds (default: the current one)")
    args = ap.parse_args(argv)
    jobs = [(c, g, args.rules) for c in args.configs.split(",") for g in range(args.games)]
    results: dict[str, list[dict]] = {c: [] for c in args.configs.split(",")}
    with Pool(args.jobs) as pool:
        for i, res in enumerate(pool.imap_unordered(_game, jobs), 1):
            results[res["config"]].append(res)
            print(f"\r{i}/{len(jobs)} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    report = {c: summarise(c, rs) for c, rs in results.items()}
    json.dump(report, sys.stdout, indent=2)
    print()
    return report


if __name__ == "__main__":
    main()
