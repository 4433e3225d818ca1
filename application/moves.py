"""Moves: the one numbering users see. Move n is the n-th command the game accepted.

A seat's command, a game-driven actor's step and a platform command (resign,
timeout, forfeit, abort) are each one move; the batches that only set the
table (creation, seats taken, the deal) or close it (seed revealed, game
finished) are not. Each move keeps the sequence numbers of the events it
caused (``first_seq``..``last_seq``), so ``/states/{last_seq}`` and
``?move=n`` name the same position, the position after the move.

The label is the game's own words for the command (``Game.label``), decided
on the state the command was decided in; an actor's step, whose command names
only the actor, is worded from the events it caused (``Game.actor_label``).
When a seat's command set more going than itself in its batch (the last player
picks a monster's target, and the monster moves and attacks), the game words
that too (``Game.what_followed``), after the command's label and a semicolon.
The API, the viewer, ``delve show`` and the judge's report all number and
label moves through this module.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from domain.core import Game, fold
from domain.kit import ACTOR_STEP
from events.envelope import domain_events


@dataclass
class Move:
    n: int
    seat: int | None
    actor: str | None
    command: dict
    command_id: str
    label: str
    at: str
    first_seq: int
    last_seq: int
    events: list[dict]

    def to_dict(self, with_events: bool = False) -> dict:
        out = {"move": self.n, "seat": self.seat, "actor": self.actor, "label": self.label, "at": self.at,
               "first_seq": self.first_seq, "last_seq": self.last_seq, "command_id": self.command_id,
               "command": self.command, "types": [e["type"] for e in self.events]}
        if with_events:
            out["events"] = self.events
        return out


def batches(envs: Iterable[dict]) -> list[list[dict]]:
    """Envelopes grouped by the command (``command_id``) that appended them together."""
    out: list[list[dict]] = []
    for env in envs:
        if out and out[-1][0].get("command_id") == env.get("command_id"):
            out[-1].append(env)
        else:
            out.append([env])
    return out


def label_of(game: Game, state, seat: int | None, command: dict, public: bool = True,
             events: list[dict] = ()) -> str:
    """The game's label of ``command`` in ``state`` (an actor's step: of the ``events`` it caused); a
    plain spelling where the game (or a frozen rules version written before labels) has none, or
    cannot word this command."""
    actor = command.get("actor", "the game")
    try:
        if command.get("type") == ACTOR_STEP:
            return game.actor_label(state, actor, list(events), public=public)
        label = game.label(state, seat, command, public=public)
    except (AttributeError, KeyError, TypeError, ValueError, IndexError, NotImplementedError):
        return f"{actor} plays" if command.get("type") == ACTOR_STEP else plain(command)
    followed = what_followed(game, state, seat, command, events, public)
    return f"{label}; {followed}" if followed else label


def what_followed(game: Game, state, seat: int | None, command: dict, events: list[dict], public: bool) -> str | None:
    """The game's words for what the command's batch did beyond the command, or None: a game (or a
    frozen rules version) without the hook, or that cannot word these events, adds nothing."""
    hook = getattr(game, "what_followed", None)
    if hook is None or not events:
        return None
    try:
        return hook(state, seat, command, list(events), public=public) or None
    except (AttributeError, KeyError, TypeError, ValueError, IndexError, NotImplementedError):
        return None


def plain(command: dict) -> str:
    rest = ", ".join(f"{k} {v}" for k, v in command.items() if k != "type")
    return f"{command.get('type', '?')}" + (f" ({rest})" if rest else "")


def moves(game: Game, envs: list[dict], public: bool = True, viewer: int | None = None) -> list[Move]:
    """Every move of a full record (unredacted envelopes), labelled on the state it was decided in.

    ``public``: the labels name only what every seat may see (a spectator's list), but
    for the ``viewer`` seat's own moves; an export of a finished game is public, so
    ``delve show`` passes False."""
    out: list[Move] = []
    state = None
    for batch in batches(envs):
        head = batch[0]
        command = head.get("command")
        mine = list(domain_events(batch))
        if isinstance(command, dict) and state is not None:
            seat = head.get("seat")
            out.append(Move(
                n=len(out) + 1, seat=seat, actor=command.get("actor") if command.get("type") == ACTOR_STEP else None,
                command=command, command_id=head.get("command_id", ""),
                label=label_of(game, state, seat, command, events=mine,
                               public=public and not (viewer is not None and seat == viewer)),
                at=head.get("at", ""), first_seq=head["seq"], last_seq=batch[-1]["seq"], events=batch))
        if mine or state is not None:
            state = fold(game, mine, state)
    return out


def states(game: Game, envs: list[dict]) -> Iterable[tuple[int, object]]:
    """(last seq, state) after each batch that changed the game's own state, in order."""
    state = None
    for batch in batches(envs):
        mine = list(domain_events(batch))
        if mine or state is not None:
            state = fold(game, mine, state)
            yield batch[-1]["seq"], state


def nearest_held(held: list[int], version: int) -> tuple[int | None, int | None]:
    """The held versions (positions a game rested at) just before and just after ``version``."""
    before = max((v for v in held if v < version), default=None)
    after = min((v for v in held if v > version), default=None)
    return before, after
