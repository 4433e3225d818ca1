"""Run pure tournaments to the end with results drawn by a seeded Random, so
property tests can look at every round a format produces."""
from __future__ import annotations

import random

from domain.tournament import Config, is_complete, pair_round


def config(fmt: str, k: int, **extra) -> Config:
    return Config.parse({"format": fmt, "table_size": k, **extra}, min_players=2 if k == 2 else 3, max_players=10)


def field(n: int, ratings: list[float] | None = None) -> list[dict]:
    return [{"id": f"e{i}", "rating": (ratings or [0] * n)[i], "withdrawn": False} for i in range(n)]


def finish(table: dict, rnd: random.Random, ties: bool = True) -> None:
    """A random result: a shuffled place order, sometimes with a shared place."""
    seats = table["seats"]
    places = list(range(1, len(seats) + 1))
    rnd.shuffle(places)
    if ties and rnd.random() < 0.2:
        worst = max(places)
        places = [p if p != worst else worst - 1 for p in places]
    table["result"] = {"places": dict(zip(seats, places)), "scores": {e: rnd.randrange(20) for e in seats}}


def run(cfg: Config, entrants: list[dict], seed: bytes = b"s", results: int = 0, withdraw: dict | None = None,
        max_rounds: int = 80) -> list[dict]:
    """Pair and finish rounds until the format is done; ``withdraw`` maps a round number to
    the entrants who withdraw before it is paired."""
    rnd, rounds = random.Random(results), []
    while not is_complete(cfg, entrants, rounds):
        assert len(rounds) < max_rounds, "the format never completes"
        for eid in (withdraw or {}).get(len(rounds) + 1, []):
            next(e for e in entrants if e["id"] == eid)["withdrawn"] = True
        if is_complete(cfg, entrants, rounds):
            break
        r = pair_round(cfg, entrants, rounds, seed)
        for t in r["tables"]:
            finish(t, rnd)
        rounds.append(r)
    return rounds
