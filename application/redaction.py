"""What a seat may see: its view of a state and its share of the events.

Views are computed once per version (``Computed``): a version is named by its
head hash, which names every event before it, so its answers never change.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable

from domain.core import Game
from application.access import ADMIN
from application.loaded import Loaded
from events.envelope import PLATFORM_EVENTS

COMPUTED_KEPT = 2048  # views and legal-command lists kept per process


class Computed:
    """Answers computed once per key (views, legal commands, past states, move lists), LRU-bounded;
    callers must not mutate what it returns (they serialize it)."""

    def __init__(self, kept: int = COMPUTED_KEPT):
        self.kept = kept
        self._answers: OrderedDict[tuple, Any] = OrderedDict()

    def once(self, key: tuple, compute: Callable[[], Any]) -> Any:
        hit = self._answers.get(key)
        if hit is None:
            hit = self._answers[key] = compute()
            while len(self._answers) > self.kept:
                self._answers.popitem(last=False)
        else:
            self._answers.move_to_end(key)
        return hit

    def view(self, g: Loaded, seat: int | None) -> dict:
        """``seat``'s view of the game now (the admin's is the whole state)."""
        if seat == ADMIN:
            return {"admin": True, "state": g.game.dump_state(g.state)}
        return self.once(("view", g.version, g.head, seat), lambda: g.game.view(g.state, seat))


def redacted(game: Game, envs: list[dict], seat: int | None, finished: bool) -> list[dict]:
    """What ``seat`` may see of these envelopes.

    After the end (or for the admin) everything is public. Before it, the
    hashes are withheld too: a hash over a low-entropy secret (one card of
    forty) could be brute-forced, so it would leak what redaction hides.
    """
    if finished or seat == ADMIN:
        return envs
    out = []
    for env in envs:
        if env["type"] in PLATFORM_EVENTS:
            ev = {"type": env["type"], "data": env["data"]}
        else:
            ev = game.redact({"type": env["type"], "data": env["data"]}, seat)
        if ev is None:
            continue
        out.append({"seq": env["seq"], "type": ev["type"], "data": ev["data"], "seat": env["seat"],
                    "command_id": env["command_id"] if env["seat"] == seat else None,
                    "command": env["command"] if env["seat"] == seat and seat is not None else None,
                    "at": env["at"]})
    return out
