"""One repository for every event-sourced aggregate: games and tournament logs alike.

``load`` gives an aggregate's meta hash and its state now (this process's
cache, else the snapshot, else a fold of the log: ``events.states``), or at a
past version; ``create`` and ``append`` write a batch at the version it was
decided on (``VersionConflict`` otherwise) and cache the state it leads to.
What an aggregate is comes from its meta hash (``resolve``): a game from its
``game`` field, a tournament log always the same kind.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

from domain.core import fold
from events.envelope import domain_events
from events.states import platform_events
from events.store import RedisEventStore


class Aggregate(Protocol):
    """What the store folds: an empty state, one event at a time, and JSON for caches and snapshots.

    ``platform_events`` (optional) names the envelope types it does not fold;
    a game leaves out the platform's (``events.envelope.PLATFORM_EVENTS``).
    """

    rules_version: str

    def initial_state(self) -> Any: ...

    def evolve(self, state: Any, event: dict) -> Any: ...

    def dump_state(self, state: Any) -> dict: ...

    def load_state(self, data: dict) -> Any: ...


@dataclass
class Stored:
    """An aggregate as the repository loaded it: its kind, meta hash, state, version and head hash."""

    id: str
    kind: Aggregate
    meta: dict[str, str]
    state: Any
    version: int
    head: str


class Repository:
    """``loaded`` builds what ``load`` returns (``Stored`` or a subclass with the caller's own views)."""

    def __init__(self, store: RedisEventStore, resolve: Callable[[dict[str, str]], Aggregate],
                 loaded: type[Stored] = Stored):
        self.store, self.resolve, self.loaded = store, resolve, loaded

    def load(self, aggregate_id: str, upto: int | None = None, meta: dict[str, str] | None = None) -> Stored:
        """Now (``upto`` None, no ``meta`` given): one Redis round trip when this process holds the state."""
        if meta is None and upto is None:
            meta, (state, version, head) = self.store.open(aggregate_id, self.resolve)
            return self.loaded(aggregate_id, self.resolve(meta), meta, state, version, head)
        meta = meta if meta is not None else self.store.meta(aggregate_id)
        kind = self.resolve(meta)
        state, version, head = self.store.load(kind, aggregate_id, upto=upto)
        return self.loaded(aggregate_id, kind, meta, state, version, head)

    def create(self, aggregate_id: str, kind: Aggregate, meta: dict[str, str], events: list[dict], *,
               command_id: str, state: Any = None, idem: tuple[str, dict] | None = None) -> list[dict]:
        """Write a new aggregate (GameExists if the id is taken) and cache ``state``, its state after
        ``events`` when the caller folded it (a game still waiting for players has none yet); ``idem``
        as ``RedisEventStore.create``'s."""
        envs = self.store.create(aggregate_id, meta, events, command_id=command_id, rules_version=kind.rules_version,
                                 idem=idem)
        if state is not None:
            self.store.states.keep(kind, aggregate_id, 0, envs[-1], state)
        return envs

    def append(self, was: Stored, events: list[dict], *, command_id: str, state: Any = None,
               seat: int | None = None, command: dict | None = None, meta: dict[str, str] | None = None,
               stamp: tuple[str, ...] = (), idem: tuple[str, dict] | None = None) -> tuple[list[dict], Any]:
        """Append ``events`` decided on ``was`` (VersionConflict if the log moved since); returns the
        envelopes and the new state (``state`` when the caller folded it already), which is cached."""
        if state is None:
            state = fold(was.kind, domain_events(events, platform_events(was.kind)), was.state)
        envs = self.store.append(was.id, was.version, events, expected_head=was.head, seat=seat,
                                 command_id=command_id, command=command, rules_version=was.kind.rules_version,
                                 meta=meta, stamp=stamp, idem=idem)
        self.store.states.keep(was.kind, was.id, was.version, envs[-1], state)
        return envs, state
