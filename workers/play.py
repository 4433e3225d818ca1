"""Bot-vs-bot matches (`delve play`): create games, wait for them, sum them up.

Who plays the games is the caller's choice: the in-process driver, or the
reactor and rq workers of a running platform (``wait_finished`` only watches).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable

from domain.core import Game, Illegal
from application.service import GameService
from application.status import GameStatus


@dataclass
class Outcome:
    id: str
    status: str
    events: int
    seconds: float | None
    winners: list[int] = field(default_factory=list)
    error: str | None = None


def default_bot(game: Game) -> str:
    if not game.bots:
        raise Illegal("no_bots", None, f"{game.title} has no bots to play it")
    return "random" if "random" in game.bots else sorted(game.bots)[0]


def create_games(service: GameService, game: Game, n: int, seats: int, bot: str, options: dict) -> list[str]:
    table = [{"name": f"{bot}-{i}", "bot": bot} for i in range(seats)]
    return [service.create(game.id, table, options)["id"] for _ in range(n)]


def wait_finished(service: GameService, ids: list[str], timeout: float,
                  on_finished: Callable[[str], None] | None = None, poll: float = 0.1) -> set[str]:
    """Watch the games until all finished or ``timeout`` passed; returns the unfinished ones."""
    remaining = set(ids)
    deadline = time.monotonic() + timeout
    while remaining and time.monotonic() < deadline:
        statuses = service.store.reads.meta_field(sorted(remaining), "status")
        for gid, status in statuses.items():
            if status == GameStatus.FINISHED:
                remaining.discard(gid)
                if on_finished:
                    on_finished(gid)
        if remaining:
            time.sleep(poll)
    return remaining


def outcome(service: GameService, gid: str, error: str | None = None) -> Outcome:
    meta = service.store.meta(gid)
    version = int(meta["version"])
    seconds = None
    if meta.get("finished_at"):
        seconds = (_when(meta["finished_at"]) - _when(meta["created_at"])).total_seconds()
    last = service.store.read(gid, after=version - 1)
    winners = last[0]["data"]["scores"]["winners"] if last and last[0]["type"] == "GameFinished" else []
    return Outcome(gid, meta["status"], version, seconds, winners, error)


def summarize(game: Game, seats: int, outcomes: list[Outcome], wall_seconds: float) -> dict:
    done = [o for o in outcomes if o.status == GameStatus.FINISHED]
    wins = {str(s): 0 for s in range(seats)}
    for o in done:
        for s in o.winners:
            wins[str(s)] += 1
    return {
        "game": game.id, "games": len(outcomes), "finished": len(done),
        "finish_rate": round(len(done) / len(outcomes), 4) if outcomes else 0.0,
        "avg_events": round(sum(o.events for o in outcomes) / len(outcomes), 2) if outcomes else 0.0,
        "avg_seconds": round(sum(o.seconds for o in done) / len(done), 3) if done else None,
        "wins_by_seat": wins, "wall_seconds": round(wall_seconds, 3),
        "errors": {o.id: o.error for o in outcomes if o.error},
        "unfinished": [o.id for o in outcomes if o.status != GameStatus.FINISHED and not o.error],
    }


def format_summary(s: dict) -> str:
    rows = [
        ("game", s["game"]),
        ("games", s["games"]),
        ("finished", f"{s['finished']} ({s['finish_rate']:.1%})"),
        ("avg events", f"{s['avg_events']:.1f}"),
        ("avg time", "-" if s["avg_seconds"] is None else f"{s['avg_seconds']:.3f} s per game"),
        ("wins by seat", "  ".join(f"{seat}: {n}" for seat, n in s["wins_by_seat"].items())),
        ("wall time", f"{s['wall_seconds']:.2f} s"),
    ]
    if s["errors"]:
        rows.append(("errors", f"{len(s['errors'])} (first: {next(iter(s['errors'].values()))})"))
    if s["unfinished"]:
        rows.append(("unfinished", " ".join(s["unfinished"][:5]) + (" ..." if len(s["unfinished"]) > 5 else "")))
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows) + "\n(a shared first place counts as a win for each seat in it)"


def _when(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))
