"""What the fault tests saw, summed over the run (printed by conftest.py at the end)."""
from __future__ import annotations

import json

from events.envelope import seal
from application.replay import verify

TALLY = {"games_finished": 0, "exports_verified": 0, "exports_failed": 0, "acknowledged_moves": 0,
         "acknowledged_moves_lost": 0, "duplicates": 0, "stuck_games": 0, "poisoned_games": 0,
         "longest_stall_s": 0.0, "stalls_over_5s": 0, "deadlines_fired": 0, "deadlines_missed": 0,
         "deadline_late_p99_s": 0.0, "deadline_late_max_s": 0.0, "costs": {}}
_late: list[float] = []  # seconds each deadline fired after its time (outside an outage)


def count(**seen: int) -> None:
    for name, n in seen.items():
        TALLY[name] += n


def stall(seconds: float) -> None:
    TALLY["longest_stall_s"] = round(max(TALLY["longest_stall_s"], seconds), 2)
    TALLY["stalls_over_5s"] += int(seconds > 5)


def deadlines(late_s: list[float], missed: int = 0) -> None:
    """Deadlines that fired, each ``late_s`` after its time (judged from the log), and those that never did."""
    _late.extend(late_s)
    ranked = sorted(_late)
    TALLY["deadlines_fired"] = len(ranked)
    TALLY["deadlines_missed"] += missed
    if ranked:
        TALLY["deadline_late_p99_s"] = round(ranked[min(len(ranked) - 1, int(0.99 * len(ranked)))], 3)
        TALLY["deadline_late_max_s"] = round(ranked[-1], 3)


def cost(fault: str, **measured: float) -> None:
    """What one fault cost, measured (docs/reliability.md quotes these)."""
    TALLY["costs"].setdefault(fault, {}).update({k: round(v, 3) for k, v in measured.items()})


def check_export(lines: list[str], acknowledged: list[str], seed: str | None = None) -> dict:
    """Verify an export and check every acknowledged command id is in it exactly once.

    ``seed``: the export of a game still running, replayed with the seed the
    server holds (as if revealed now), so a poisoned log shows before the end.
    """
    envs = [env for env in map(json.loads, lines) if "seq" in env]  # without the signature lines
    if seed is not None:
        envs += seal([{"type": "SeedRevealed", "data": {"seed": seed}}], game_id=envs[-1]["game_id"],
                     first_seq=len(envs) + 1, prev_hash=envs[-1]["hash"], seat=None, command_id="fault-audit",
                     command=None, at=envs[-1]["at"], rules_version=envs[-1]["rules_version"])
    verdict = verify(json.dumps(e) for e in envs).to_dict()
    if seed is not None:  # a running game sealed with its seed has no GameFinished: incomplete by design
        verdict["ok"] = verdict["chain_ok"] and verdict["replay_ok"] and not verdict["problems"]
    ids = [e.get("command_id") for e in envs if e.get("command") is not None]
    lost = [c for c in acknowledged if c not in ids]
    dupes = len(ids) - len(set(ids))
    count(exports_verified=int(verdict["ok"]), exports_failed=int(not verdict["ok"]),
          acknowledged_moves=len(acknowledged), acknowledged_moves_lost=len(lost), duplicates=dupes,
          poisoned_games=int(not verdict["replay_ok"]))
    return {"verdict": verdict, "lost": lost, "duplicates": dupes}
