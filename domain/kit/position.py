"""Positions as text: a few readable lines that set up a state, like a FEN.

The first line names the game, the table and how it started; each line after it
changes one thing of the state that ``start`` produced::

    indagar 2 seed=rules options={"monster_start": "skipRound1"}
    # a comment
    heroes.ariane.tile = r4c1          # a path into the state, a value
    seats.0.spirits = 2                # list items by index; JSON values, bare words are strings
    seats.0.res = {"gold": 3, "wood": 0, "ore": 0}
    turn.must_attack = true
    pending += {"kind": "cache", "seat": 0}   # append to a list
    hidden -= r3c4                     # drop a key of a dict (or an item of a list)
    put zhuan r4c2                     # a verb the game declares (``Game.position_verbs``)
    given heroes.ariane.movement = 6   # a content table replaced for this position (``Game.content_tables``)

Paths and values are the game's own state keys, so the format needs nothing
per game; a game may declare verbs (``position_verbs``: name -> function of
(state, *words)) for the edits its tests make most, in its own words. Pure:
``parse`` returns the start options and the edits, ``apply`` makes them on a
state (tests/support/positions.py builds the started table and applies them).
``given`` lines replace entries of the game's content tables (``domain.kit.tables``)
for this position only; ``tables`` reads them into the replaced tables.
"""
from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .tables import as_data

Verb = Callable[..., None]
_EDIT = re.compile(r"^(?P<path>[\w.\-:]+)\s*(?P<op>\+=|-=|=)\s*(?P<value>.*)$")


@dataclass(frozen=True)
class Position:
    """A parsed position: the table (game, seats, seed, options) and the edits to make on it."""

    game: str
    seats: int
    seed: str = "position"
    options: dict = field(default_factory=dict)
    edits: tuple[tuple[str, ...], ...] = ()
    given: tuple[tuple[str, str], ...] = ()


class BadPosition(ValueError):
    """A position text that cannot be read, with the line it failed on."""


def parse(text: str) -> Position:
    lines = [_strip(line) for line in text.strip().splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        raise BadPosition("a position starts with '<game> <seats> [seed=...] [options={...}]'")
    head, _, options = lines[0].partition("options=")
    words = head.split()
    if len(words) < 2 or not words[1].isdigit():
        raise BadPosition(f"line 1: {lines[0]!r}: start with '<game> <seats>'")
    seed = next((w.removeprefix("seed=") for w in words[2:] if w.startswith("seed=")), "position")
    try:
        opts = json.loads(options) if options.strip() else {}
    except json.JSONDecodeError as exc:
        raise BadPosition(f"line 1: options are a JSON object ({exc})") from exc
    edits = _edits(lines[1:], 2)
    given = tuple((e[1], e[2]) for e in edits if e[0] == "given")
    return Position(words[0], int(words[1]), seed, opts, tuple(e for e in edits if e[0] != "given"), given)


def parse_edits(text: str) -> tuple[tuple[str, ...], ...]:
    """The edit lines alone (no first line): more edits on a state a test has already played to."""
    return _edits([_strip(line) for line in text.strip().splitlines()], 1)


def _edits(lines: list[str], first: int) -> tuple[tuple[str, ...], ...]:
    edits = []
    for n, line in enumerate(lines, first):
        if not line:
            continue
        m = _EDIT.match(line.removeprefix("given ").strip())
        if line.startswith("given "):
            if not m or m["op"] != "=":
                raise BadPosition(f"line {n}: {line!r}: 'given <table>.<id>[.<field>...] = <JSON value>'")
            edits.append(("given", m["path"], m["value"].strip()))
        elif m:
            edits.append((m["op"], m["path"], m["value"].strip()))
        else:
            try:
                edits.append(("verb", *shlex.split(line)))
            except ValueError as exc:
                raise BadPosition(f"line {n}: {line!r}: {exc}") from exc
    return tuple(edits)


def apply(state: dict, position: Position, verbs: Mapping[str, Verb] | None = None) -> dict:
    """Make the position's edits on ``state`` (in place) and return it."""
    verbs = verbs or {}
    for edit in position.edits:
        if edit[0] == "verb":
            name, *args = edit[1:]
            if name not in verbs:
                raise BadPosition(f"{name!r} is no path edit and no verb of {position.game} "
                                  f"(its verbs: {', '.join(sorted(verbs)) or 'none'})")
            verbs[name](state, *args)
            continue
        op, path, raw = edit
        holder, last = _walk(state, path)
        if op == "=":
            _set(holder, last, value(raw))
        elif op == "+=":
            _get(holder, last, path).append(value(raw))
        else:
            target = _get(holder, last, path)
            item = value(raw)
            if isinstance(target, dict):
                target.pop(str(item), None)
            elif item in target:
                target.remove(item)
            else:
                raise BadPosition(f"{path}: no {item!r} to remove")
    return state


def tables(position: Position, content: Mapping[str, Any]) -> dict[str, dict]:
    """The content tables ``position``'s ``given`` lines replace: each a copy of the game's own
    table (``content``: name -> ``domain.kit.tables.Table``) with the given entries or fields."""
    out: dict[str, dict] = {}
    for path, raw in position.given:
        name, _, rest = path.partition(".")
        if name not in content:
            raise BadPosition(f"given {path}: {position.game} has no content table {name!r} "
                              f"(its tables: {', '.join(sorted(content)) or 'none'})")
        key, _, field = rest.partition(".")
        table = out.setdefault(name, dict(content[name].own()))
        if not field:
            table[key] = _read(content[name], key, value(raw), path)
            continue
        if key not in table:
            raise BadPosition(f"given {path}: no {key!r} in {name}")
        entry = as_data(table[key])
        holder, last = _walk(entry, field)
        _set(holder, last, value(raw))
        table[key] = _read(content[name], key, entry, path)
    return out


def _read(table: Any, key: str, entry: Any, path: str) -> Any:
    """``table.read(key, entry)``, an entry the table cannot read named by its ``given`` line."""
    try:
        return table.read(key, entry)
    except (KeyError, TypeError, ValueError) as e:
        raise BadPosition(f"given {path}: {e}") from None


def value(raw: str) -> Any:
    """A JSON value, or the bare word as a string (``r4c1``, ``ariane``)."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def _strip(line: str) -> str:
    """The line without a trailing ``# comment`` (a ``#`` inside a JSON string stays, after an
    escaped quote too)."""
    out, quoted, escaped = [], False, False
    for ch in line:
        if escaped:
            escaped = False
        elif quoted and ch == "\\":
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            break
        out.append(ch)
    return "".join(out).strip()


def _walk(state: Any, path: str) -> tuple[Any, str]:
    node = state
    steps = path.split(".")
    for step in steps[:-1]:
        node = _get(node, step, path)
    return node, steps[-1]


def _get(node: Any, step: str, path: str) -> Any:
    try:
        return node[int(step)] if isinstance(node, list) else node[step]
    except (KeyError, IndexError, ValueError, TypeError) as exc:
        raise BadPosition(f"{path}: no {step!r} in the state") from exc


def _set(node: Any, step: str, v: Any) -> None:
    if isinstance(node, list):
        node[int(step)] = v
    else:
        node[step] = v
