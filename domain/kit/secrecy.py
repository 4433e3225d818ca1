"""Secrecy as data: which fields of which events are secret, who sees them whole,
and what everyone else sees instead.

A game declares its ``secrecy`` once; ``BaseGame.redact`` applies it and the
conformance canary (tests/conformance) reads the same description, so what
is hidden and what is proven hidden cannot drift apart::

    secrecy = Secrecy(
        Secret("HandDealt", ("cards",), seen_by=("seat",), count="count"),  # others: {seat, count}
        Secret("GoalPeeked", ("shape",), seen_by=("seat",)),                 # others: no shape
        Secret("HordeDealt", ("decks",), face=sizes),                         # nobody: the sizes
    )

An event type not declared is public. A view of the state is the game's own
(``view``); the canary checks it never shows a declared secret a seat has not
been shown.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from domain.core import Event


@dataclass(frozen=True)
class Secret:
    """The secret part of one event type.

    ``fields``: the secret fields. ``seen_by``: data fields naming the seats
    that see the whole event (none = nobody, spectators never). Everyone else
    sees the event without the secret fields, plus either ``count`` (the
    number of items of the first secret field, under that name) or, in place
    of each secret field, ``face(value)`` (a public face of it: its sizes, the
    top card's back)."""

    event: str
    fields: tuple[str, ...]
    seen_by: tuple[str, ...] = ()
    count: str | None = None
    face: Callable[[Any], Any] | None = None

    def sees(self, data: dict, seat: int | None) -> bool:
        """Does ``seat`` see this event whole?"""
        return seat is not None and any(data[f] == seat for f in self.seen_by)

    def public(self, data: dict) -> dict:
        """The event's data as those who do not see it whole see it."""
        if self.face is not None:
            return {k: self.face(v) if k in self.fields else v for k, v in data.items()}
        out = {k: v for k, v in data.items() if k not in self.fields}
        if self.count is not None:
            out[self.count] = len(data[self.fields[0]])
        return out


class Secrecy:
    """A game's secrets, one ``Secret`` per event type."""

    def __init__(self, *secrets: Secret):
        self.by_event = {s.event: s for s in secrets}
        if len(self.by_event) != len(secrets):
            raise ValueError("one Secret per event type")

    def __iter__(self) -> Iterable[Secret]:
        return iter(self.by_event.values())

    def redact(self, ev: Event, seat: int | None) -> Event:
        """``ev`` as ``seat`` (None = a spectator) may see it."""
        secret = self.by_event.get(ev["type"])
        if secret is None or secret.sees(ev["data"], seat):
            return ev
        return {"type": ev["type"], "data": secret.public(ev["data"])}

    def hidden(self, ev: Event, seat: int | None) -> dict:
        """The secret fields of ``ev`` that ``seat`` does not see (``{}`` if none)."""
        secret = self.by_event.get(ev["type"])
        if secret is None or secret.sees(ev["data"], seat):
            return {}
        return {f: ev["data"][f] for f in secret.fields}


def sizes(value: Any) -> Any:
    """A face that shows how many, not which: a dict of lists -> its lengths by key,
    a list of lists -> their lengths, a list -> its length."""
    if isinstance(value, dict):
        return {k: len(v) for k, v in value.items()}
    if value and isinstance(value[0], list):
        return [len(v) for v in value]
    return len(value)
