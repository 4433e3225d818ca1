"""The rq job functions: plain, importable by path, JSON arguments only.

Each is a thin wrapper around the application service and idempotent: a
bot turn re-checks the version it was scheduled for, and finalisation does
nothing to a game that is not over or already finished. The service is built
once per worker process (a forked work horse inherits it; redis-py reopens
its connections after a fork) and rebuilt if the environment names another
store, which is how the tests point one process at per-test prefixes.
"""
from __future__ import annotations

import os

from events.runtime import service_from_env
from events.service import GameService

_ENV = ("REDIS_URL", "DELVE_PREFIX", "DELVE_PARTITIONS", "DELVE_SNAPSHOT_EVERY", "DELVE_STATE_CACHE", "DELVE_ADMIN_TOKEN")
_cache: dict[tuple, GameService] = {}


def service() -> GameService:
    key = tuple(os.environ.get(name) for name in _ENV)
    if key not in _cache:
        _cache.clear()
        _cache[key] = service_from_env()
    return _cache[key]


def bot_turn(game_id: str, version: int) -> dict | None:
    """Play the bot to act at ``version``; None if the game has moved on."""
    result = service().bot_turn(game_id, version)
    return None if result is None else {"version": result["version"], "terminal": result["terminal"]}


def finalize(game_id: str) -> bool:
    """Append SeedRevealed + GameFinished once the game is over (once only)."""
    return service().finalize(game_id)
