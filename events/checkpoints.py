"""A game's past states for replays (``GET /states/{v}``), folded once per process.

A viewer scrubbing through a finished game asks for version after version; folding
each from the start cost a full replay per request. :class:`Checkpoints` holds the
envelopes read so far and the state every ``EVERY`` versions (as JSON bytes), so any
version is one checkpoint parsed plus at most ``EVERY - 1`` events folded. The store
extends it with the events appended since, after checking that Redis still holds
its last one (a rollback rebuilds it).
"""
from __future__ import annotations

import json
from typing import Any

import orjson

from domain.core import Game, State, fold, kept_bytes
from domain.kit import BaseGame
from events.envelope import GENESIS, domain_events

EVERY = 25


class Checkpoints:
    def __init__(self, game: Game, every: int = EVERY):
        self.game, self.every = game, every
        self.envs: list[dict] = []  # seq n at index n - 1
        self._state = game.initial_state()
        self._states: dict[int, bytes] = {0: dumps(dumped(game, self._state))}

    @property
    def version(self) -> int:
        return len(self.envs)

    @property
    def head(self) -> str:
        return self.envs[-1]["hash"] if self.envs else GENESIS

    def extend(self, envs: list[dict]) -> None:
        """Fold the envelopes that follow the last one held (seq ``version + 1`` on)."""
        for env in envs:
            self._state = fold(self.game, domain_events([env]), self._state)
            self.envs.append(env)
            if env["seq"] % self.every == 0:
                self._states[env["seq"]] = dumps(dumped(self.game, self._state))

    def at(self, version: int) -> State:
        """A private copy of the state at ``version`` (0 <= version <= ``self.version``)."""
        base = version - version % self.every
        state = own(self.game, orjson.loads(self._states[base]))
        return fold(self.game, domain_events(self.envs[base:version]), state)


def own(game: Game, data: dict) -> State:
    """A state from freshly parsed JSON. The kit's ``load_state`` only copies, and this copy
    is private already, so it is used as it is; any other game loads it its own way."""
    return data if type(game).load_state is BaseGame.load_state else game.load_state(data)


def dumped(game: Game, state: State) -> Any:
    """What to serialize of ``state``: the kit's ``dump_state`` is a copy, which serializing makes anyway."""
    return state if type(game).dump_state is BaseGame.dump_state else game.dump_state(state)


def dumps(value: Any) -> bytes:
    """JSON bytes of a state for caches and snapshots (not hashed, so any spelling will do):
    orjson, right-sized since they are kept (``kept_bytes``), or the standard library for what
    orjson refuses (integers past 64 bits)."""
    try:
        return kept_bytes(orjson.dumps(value))
    except TypeError:
        return json.dumps(value).encode()
