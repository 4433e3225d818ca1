"""Verification speed per game on stored exports: ``python -m benchmarks.verify_speed [FILE...]``.

`delve bench` measures verification on the bot games it has just played (one game, the
HTTP runs' sample); this measures ``application.replay.verify`` on fixed records, every
game and rules version the files hold (default: the exports in ``tests/data``), so a change
can be compared before and after on the same input. Each file is verified ``--repeat`` times
and its fastest CPU time kept (``time.process_time``: on a shared machine wall time says more
about the neighbours). JSON on stdout; every record must verify.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

from application.replay import verify
from benchmarks.bench import TARGETS

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def measure(paths: list[Path], repeat: int = 5) -> dict:
    per_game: dict[str, dict] = defaultdict(lambda: {"files": 0, "events": 0, "cpu_s": 0.0})
    for path in paths:
        lines = path.read_bytes().splitlines()
        best, verdict = None, None
        for _ in range(repeat):
            started = time.process_time()
            verdict = verify(lines)
            spent = time.process_time() - started
            best = spent if best is None else min(best, spent)
        if not verdict.ok:
            raise SystemExit(f"{path} does not verify: {verdict.problems}")
        row = per_game[f"{verdict.game} ({verdict.rules_version})"]
        row["files"] += 1
        row["events"] += verdict.events
        row["cpu_s"] += best
    for row in per_game.values():
        row["events_per_cpu_s"] = round(row["events"] / row["cpu_s"])
        row["cpu_s"] = round(row["cpu_s"], 4)
    events, cpu = sum(r["events"] for r in per_game.values()), sum(r["cpu_s"] for r in per_game.values())
    return {"load_average": [round(x, 2) for x in os.getloadavg()], "repeat": repeat,
            "per_game": dict(sorted(per_game.items())),
            "all": {"events": events, "cpu_s": round(cpu, 4), "events_per_cpu_s": round(events / cpu)},
            "target_events_per_cpu_s": TARGETS["verify_events_per_s"]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="exports (default: tests/data/*.ndjson)")
    parser.add_argument("--repeat", type=int, default=5, help="verifications of each file; the fastest counts")
    args = parser.parse_args(argv)
    paths = args.files or sorted(DATA.glob("*.ndjson"))
    for path in paths:  # the first verification of a game imports its rules: not part of the figure
        verify(path.read_bytes().splitlines())
    json.dump(measure(paths, args.repeat), sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
