"""Saboteur bot benchmark: heuristic vs random bots at mixed 5-seat tables, in process.

    python -m benchmarks.saboteur_bots [GAMES] [--seats N] [--pure K]

Each game seats a seeded random mix of heuristic and random bots (at least one
of each). Roles are dealt by the game, so a bot type is sometimes miner and
sometimes saboteur; the report gives, per bot type, how often the rounds it
played as a miner (and as a saboteur) were won by its side, the miners' win
rate by how many heuristic miners the team had, nuggets per game and shared
game wins. As a baseline it also plays K games at tables of one bot type only
(seeds disjoint from the mixed games). JSON on stdout, progress on stderr.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict

from domain import kit
from domain.core import Drbg, Seat
from domain.saboteur.rules import GAME

TYPES = ("heuristic", "random")


def seat_bots(game: int, seats: int) -> list[str]:
    """A seeded mix with at least one bot of each type."""
    rng = Drbg(b"saboteur-bench-seating", f"g{game}")
    heuristic = 1 + rng.randbelow(seats - 1)
    return sorted(["heuristic"] * heuristic + ["random"] * (seats - heuristic),
                  key=lambda _: rng.randbelow(1 << 30))


def play(game: int, bots: list[str], tag: bytes = b"mixed") -> dict:
    """One game with the kit's driver: the server's DRBG streams, so the same seed replays there."""
    g = kit.play(GAME, [Seat(i, f"{b}{i}", b) for i, b in enumerate(bots)], {}, b"saboteur-bench-%s-%d" % (tag, game))
    return {"history": g.state["history"], "scores": g.scores(), "decisions": len(g.steps) - 1}


def rate(won: int, played: int) -> dict:
    return {"won": won, "played": played, "rate": round(won / played, 3) if played else None}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=200)
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--pure", type=int, default=50, help="games per single-type baseline table")
    args = parser.parse_args(argv)
    as_miner = defaultdict(lambda: [0, 0])
    as_saboteur = defaultdict(lambda: [0, 0])
    by_team = defaultdict(lambda: [0, 0])  # heuristic miners in the team -> [miner wins, rounds]
    nuggets = defaultdict(int)
    seat_games = defaultdict(int)
    game_wins = defaultdict(float)
    rounds_won = {"miners": 0, "saboteurs": 0}
    started = time.monotonic()
    for g in range(args.games):
        bots = seat_bots(g, args.seats)
        result = play(g, bots)
        for h in result["history"]:
            miners_won = h["winner"] == "miners"
            rounds_won[h["winner"]] += 1
            team = sum(1 for s, r in enumerate(h["roles"]) if r == "miner" and bots[s] == "heuristic")
            by_team[team][0] += miners_won
            by_team[team][1] += 1
            for s, role in enumerate(h["roles"]):
                tally = as_miner if role == "miner" else as_saboteur
                tally[bots[s]][0] += miners_won == (role == "miner")
                tally[bots[s]][1] += 1
        board = result["scores"]
        for s in board.seats:
            nuggets[bots[s.seat]] += s.total
            seat_games[bots[s.seat]] += 1
        for w in board.winners:
            game_wins[bots[w]] += 1 / len(board.winners)
        print(f"\rsaboteur bench: game {g + 1}/{args.games}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    pure = {}
    for t in TYPES:
        won = played = 0
        for g in range(args.pure):
            history = play(g, [t] * args.seats, t.encode())["history"]
            won += sum(h["winner"] == "miners" for h in history)
            played += len(history)
            print(f"\rsaboteur bench: {t}-only game {g + 1}/{args.pure}", end="", file=sys.stderr, flush=True)
        pure[t] = rate(won, played)
    print(file=sys.stderr)
    report = {
        "games": args.games,
        "seats": args.seats,
        "seconds": round(time.monotonic() - started, 1),
        "rounds_won": rounds_won,
        "miner_rounds_won": {t: rate(*as_miner[t]) for t in TYPES},
        "saboteur_rounds_won": {t: rate(*as_saboteur[t]) for t in TYPES},
        "miner_team_win_rate_by_heuristic_miners": {str(k): rate(*by_team[k]) for k in sorted(by_team)},
        "nuggets_per_seat_game": {t: round(nuggets[t] / seat_games[t], 2) if seat_games[t] else None for t in TYPES},
        "single_type_tables_miner_rounds_won": pure,
        "game_win_share_per_seat": {t: round(game_wins[t] / seat_games[t], 3) if seat_games[t] else None
                                    for t in TYPES},
    }
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
