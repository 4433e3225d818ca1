"""Content tables a test may replace: cards, boards, heroes given to one test position.

A game's content module wraps each replaceable table in a ``Table`` (a read-only
mapping by id). Inside ``given(game, tables)`` the named tables read as given;
everywhere else, and after the block, they read as the game's own data. The
replacement is scoped to the call (a ``ContextVar``, reset on the way out), so
nothing module-level is patched and two tests never see each other's content;
the domain stays pure: the same state, command and content give the same events.

A test position says what to replace in lines of its own (``domain.kit.position``)::

    indagar 2 seed=x
    given heroes.ariane.movement = 6      # one field of one entry, in the data file's form
    given halls.the-rift = {...}          # a whole entry

and ``with_content`` gives the test a game whose every call sees those tables.
"""
from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_GIVEN: ContextVar[Mapping[tuple[str, str], Mapping[str, Any]]] = ContextVar("given_content", default={})


replaced = _GIVEN.get
"""``replaced()``: the tables a test's ``given`` block replaces (empty outside one). A game's
hottest lookups keep an index of their own table and read the table itself only when this
is not empty (Mountain King's troll rows: some 90,000 a search move)."""


class Table(Mapping):
    """One content table of a game (id -> entry): the game's own, or the one a test gave.

    ``read`` turns an entry in data-file form (JSON values) into the table's entry type."""

    def __init__(self, game: str, name: str, load: Callable[[], Mapping[str, Any]],
                 read: Callable[[str, Any], Any] = lambda _key, entry: entry):
        self.game, self.name, self._load, self.read = game, name, load, read
        self._own: Mapping[str, Any] | None = None

    def _data(self) -> Mapping[str, Any]:
        given = _GIVEN.get()  # empty outside a test's ``given`` block
        table = given.get((self.game, self.name)) if given else None
        return self.own() if table is None else table

    def own(self) -> Mapping[str, Any]:
        """The game's own table, whatever a test gave (loaded once: content never changes)."""
        if self._own is None:
            self._own = self._load()
        return self._own

    def __getitem__(self, key: str) -> Any:
        if _GIVEN.get():  # inside a test's ``given`` block
            return self._data()[key]
        return (self._own if self._own is not None else self.own())[key]  # the rules' hot path

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())


def as_data(entry: Any) -> Any:
    """An entry in data-file form (a dataclass as a dict, tuples as lists), a copy to edit."""
    if dataclasses.is_dataclass(entry):
        entry = dataclasses.asdict(entry)
    return copy.deepcopy(entry)


@contextmanager
def given(game: str, tables: Mapping[str, Mapping[str, Any]]) -> Iterator[None]:
    """Within the block, ``game``'s tables named in ``tables`` read as given."""
    merged = dict(_GIVEN.get())
    merged.update({(game, name): table for name, table in tables.items()})
    token = _GIVEN.set(merged)
    try:
        yield
    finally:
        _GIVEN.reset(token)


class WithContent:
    """A game whose every call (start, decide, evolve, legal_commands, view, ...) runs with
    some of its content tables replaced: what a test position with ``given`` lines hands back."""

    def __init__(self, game: Any, tables: Mapping[str, Mapping[str, Any]]):
        self._game, self._tables = game, tables

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._game, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            with given(self._game.id, self._tables):
                return attr(*args, **kwargs)
        return call

    def given(self):
        """The block in which direct calls into the game's modules see this game's tables."""
        return given(self._game.id, self._tables)
