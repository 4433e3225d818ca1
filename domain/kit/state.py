"""The one state convention: a game's state is a plain JSON-ready dict.

Lists, dicts with string keys, str/int/bool/None only, so a snapshot is the
state itself and ``dump_state``/``load_state`` are copies (``copy_state``). The key
``"platform"`` is the kit's (concessions, an abort): games never use it.

``evolve`` is built from one handler per event type, the one idiom of every
kit game (``Handlers``)::

    handlers = Handlers()

    @handlers.on("CardDrawn")
    def _card_drawn(s, d): s["hands"][d["seat"]].append(d["card"])

    evolve = handlers.evolver()

An event type without a handler raises ``UnknownEvent``: a replay that meets an event
its rules do not know was recorded under other rules, and must fail loudly
rather than fold it away and diverge later. Platform envelopes
(``GameCreated``, ``SeedRevealed``, ``GameFinished``) never reach ``evolve``.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Mapping

import orjson

from domain.core import Event, event
from domain.kit.platform import HANDLERS as PLATFORM_HANDLERS

State = dict[str, Any]
Handler = Callable[[State, dict], None]


class UnknownEvent(ValueError):
    """``evolve`` met an event type the game has no handler for."""


def copy_state(state: State) -> State:
    """A private deep copy of a JSON-ready state.

    A JSON round trip: faster than ``copy.deepcopy`` on such data, and it
    normalises what JSON would change anyway (an int dict key becomes a
    string), so a copy never differs from what a snapshot restores. orjson
    makes the same round trip several times faster (every ``decide`` copies
    the state: issue 13); what it refuses (integers past 64 bits) takes the
    standard library's."""
    return copier(state)()


def copier(state: State) -> Callable[[], State]:
    """A maker of private deep copies of one state, each as ``copy_state`` makes it: the state is
    serialised once, and each copy only parses (a bot that tries many commands on one position)."""
    try:
        frozen = orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        text = json.dumps(state)
        return lambda: json.loads(text)
    return lambda: orjson.loads(frozen)


class Handlers:
    """A game's event handlers, one per event type, registered with ``@handlers.on``.

    The kit's own events (a seat conceding, an abort: ``domain.kit.platform``)
    are folded for every game, so any game's evolve understands them.
    """

    def __init__(self) -> None:
        self.table: dict[str, Handler] = dict(PLATFORM_HANDLERS)

    def on(self, *types: str) -> Callable[[Handler], Handler]:
        """Register the decorated function as the handler of ``types``; a type
        handled twice is a mistake and raises at import."""
        def register(fn: Handler) -> Handler:
            for t in types:
                if t in self.table:
                    raise ValueError(f"event {t!r} already has a handler")
                self.table[t] = fn
            return fn
        return register

    @property
    def types(self) -> frozenset[str]:
        """Every event type this game folds (its own and the kit's)."""
        return frozenset(self.table)

    def evolver(self) -> Callable[[State, Event], State]:
        """``evolve(state, event)`` over the handlers (those registered after this call too)."""
        return evolver(self.table)


def evolver(handlers: Mapping[str, Handler]) -> Callable[[State, Event], State]:
    """``evolve`` over a ready ``{event type: handler}`` table plus the kit's own events.

    The frozen rules versions (``domain/<game>/versions/``) were written with it
    and are never edited; a current game registers its handlers with ``Handlers``."""
    table = handlers if PLATFORM_HANDLERS.keys() <= handlers.keys() else {**PLATFORM_HANDLERS, **handlers}

    def evolve(state: State, ev: Event) -> State:
        handler = table.get(ev["type"])
        if handler is None:
            raise UnknownEvent(f"no handler for event {ev['type']!r}")
        handler(state, ev["data"])
        return state

    return evolve


class Batch:
    """The events of one ``decide``, each folded at once onto a private copy.

    Later steps of one decision see the effects of earlier ones exactly as
    ``evolve`` will on replay; the caller's state is never touched::

        b = Batch(state, evolve)
        b.emit("CardDrawn", seat=2, card="P17")
        if b.state["deck"]: ...
        return b.events
    """

    def __init__(self, state: State, evolve: Callable[[State, Event], State]):
        self.state = copy_state(state)
        self.events: list[Event] = []
        self._evolve = evolve

    def emit(self, type_: str, **data: Any) -> Event:
        """Append ``event(type_, **data)`` and fold it."""
        return self.add(event(type_, **data))

    def add(self, ev: Event) -> Event:
        """Append a ready-made event and fold it (usable as an ``emit(ev)`` callback)."""
        self.events.append(ev)
        self.state = self._evolve(self.state, ev)
        return ev
