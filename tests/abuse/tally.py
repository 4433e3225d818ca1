"""Bystander latencies per attack, in milliseconds (printed by conftest.py at the end)."""
from __future__ import annotations

import statistics

TALLY: dict[str, list[float]] = {}


def record(attack: str, seconds: float) -> None:
    TALLY.setdefault(attack, []).append(seconds * 1000)


def summary() -> dict[str, dict[str, float]]:
    return {attack: {"n": len(ms), "median": round(statistics.median(ms), 1), "max": round(max(ms), 1)}
            for attack, ms in TALLY.items()}
