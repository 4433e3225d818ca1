"""Run a whole bot tournament in this process: the same service, job table and
tournament log as a server, with the reactor and jobs run in-process
(workers/inprocess.py). ``delve tournament`` and the tests use it."""
from __future__ import annotations

import time
from typing import Callable

from application.service import GameService
from application.tournament_verify import verify_bundle
from application.tournaments import TournamentService
from domain.tournament.log import TournamentStatus
from errors import NotFinishing, Stalled
from workers.inprocess import InProcessDriver


def play_out(ts: TournamentService, tid: str, driver: InProcessDriver,
             on_game: Callable[[str], None] | None = None) -> dict:
    """Run the reactors and jobs until the tournament finishes: every pairing, report
    and ending is done by the jobs of the job table, as on a server. The driver must
    follow tournaments (``InProcessDriver(service, tournaments=True)``) and exist before
    the tournament is created, so its reactors see its first log entry."""

    def finished(kind: str, key: str, result: object) -> None:
        if on_game and kind == "finalize" and result:
            on_game(key)

    try:
        driver.run_until(lambda: ts.status(tid) == TournamentStatus.FINISHED, on_job=finished)
    except Stalled as exc:
        raise NotFinishing(f"tournament {tid} is {ts.status(tid)} and does not advance; "
                           f"failed jobs: {driver.errors or 'none'}") from exc
    return ts.get(tid)


def run(service: GameService, body: dict, on_game: Callable[[str], None] | None = None) -> dict:
    """Create the tournament ``body`` (as POST /v1/tournaments takes it), play it out, verify
    its bundle; returns ``{tournament, seconds, games, games_per_s, verify_seconds, verified}``."""
    ts = TournamentService(service)
    started = time.monotonic()
    with InProcessDriver(service, tournaments=True) as driver:
        created = ts.create(body)
        final = play_out(ts, created["id"], driver, on_game=on_game)
    seconds = time.monotonic() - started
    games = sum(len(r["tables"]) for r in final["rounds"])
    checked = time.monotonic()
    verdict = verify_bundle(list(ts.bundle(final["id"])))
    return {"tournament": final, "seconds": round(seconds, 3), "games": games,
            "games_per_s": round(games / seconds, 3) if seconds else None,
            "verify_seconds": round(time.monotonic() - checked, 3), "verified": verdict.ok,
            "problems": verdict.problems[:5]}


def format_result(result: dict) -> str:
    """Standings and timings as a table for a terminal."""
    t = result["tournament"]
    names = {e["id"]: e["name"] for e in t["entrants"]}
    tiebreaks = list(t["standings"][0]["tiebreaks"]) if t["standings"] else []
    lines = [f"{t['name']}: {t['game']} {t['format']} at {t['table_size']}-seat tables, "
             f"{len(t['entrants'])} entrants, {len(t['rounds'])} rounds, {result['games']} games",
             f"{'place':>5}  {'entrant':<24}{'points':>8}  " + "  ".join(f"{n:>17}" for n in tiebreaks)]
    for s in t["standings"]:
        lines.append(f"{s['place']:>5}  {names[s['entrant']][:23]:<24}{s['points']:>8g}  "
                     + "  ".join(f"{s['tiebreaks'][n]:>17g}" for n in tiebreaks))
    lines.append(f"{result['seconds']} s, {result['games_per_s']} games/s; bundle verified in "
                 f"{result['verify_seconds']} s: {'OK' if result['verified'] else 'NOT OK ' + str(result['problems'])}")
    return "\n".join(lines)
