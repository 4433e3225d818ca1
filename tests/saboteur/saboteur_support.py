"""Drive Saboteur without the platform: start, fold, command, and stage positions.

Staging helpers move cards between the deck, hands and the maze by swapping,
so the card-conservation invariant still holds in staged states.
"""
from __future__ import annotations

import json

from domain import kit
from domain.core import Drbg, Seat, fold
from domain.saboteur.content import CARDS
from domain.saboteur.rules import GAME
from tests.support.positions import edit

SEED = b"saboteur-test-seed"


class Table:
    """A game in progress: ``state`` plus every (unredacted) event so far."""

    def __init__(self, players: int = 5, seed: bytes = SEED, **options):
        self.seed = seed
        self.seats = [Seat(i, f"p{i}") for i in range(players)]
        self.events = GAME.start(options, self.seats, Drbg(seed, "start"))
        self.state = fold(GAME, self.events)
        self.version = len(self.events)

    def do(self, seat: int, command: dict) -> list[dict]:
        evs = GAME.decide(self.state, seat, command, Drbg(self.seed, f"v{self.version}"))
        self.state = fold(GAME, evs, self.state)
        self.events += evs
        self.version += len(evs)
        return evs

    def finish(self, bots, on_step=None, max_steps: int = 3000) -> None:
        """Play on to the end with the kit's driver (the server's DRBG streams: the
        server's version is this table's plus GameCreated); ``bots`` per seat, a
        bot name or a policy."""
        policies = {i: GAME.bots[b] if isinstance(b, str) else b for i, b in enumerate(bots)}
        g = kit.run(kit.Played(GAME, self.seats, {}, self.seed, state=self.state, version=self.version + 1),
                    policies=policies, on_step=on_step, max_steps=max_steps)
        for step in g.steps:
            self.events += step.events
        self.state, self.version = g.state, g.version - 1

    @property
    def turn(self) -> int:
        (seat,) = GAME.active_seats(self.state)
        return seat

    def types(self, evs: list[dict]) -> list[str]:
        return [e["type"] for e in evs]

    # -- staging: Saboteur's position verbs (domain/saboteur/positions.py) -------
    def free(self, pred) -> str:
        """A card matching ``pred`` still in the deck or a hand (deck first)."""
        s = self.state
        for c in list(s["deck"]) + [c for h in s["hands"] for c in h]:
            if pred(CARDS[c]):
                return c
        raise AssertionError("no such card left")

    def give(self, seat: int, *cards: str) -> None:
        """Make ``cards`` part of ``seat``'s hand, keeping its size."""
        edit(GAME, self.state, f"give {seat} {' '.join(cards)}")

    def place(self, shape: str, x: int, y: int, rotated: bool = False, by: int | None = 0) -> str:
        """Lay a free card of ``shape`` on (x, y); returns the card laid."""
        edit(GAME, self.state, f"path {shape} {x},{y} {'rotated' if rotated else ''} by={'none' if by is None else by}")
        return self.state["maze"][f"{x},{y}"]["card"]

    def place_ew(self, x: int, y: int, by: int | None = 0) -> str:
        """Any card with a W-E tunnel (there are only 3 straight ones)."""
        shape = CARDS[self.free(lambda c: c.shape in ("straight-ew", "tee-new", "cross"))].shape
        return self.place(shape, x, y, by=by)

    def set_goals(self, **shapes: str) -> None:
        edit(GAME, self.state, "goals " + " ".join(f"{g}={shape}" for g, shape in shapes.items()))

    def set_roles(self, roles: str) -> None:
        """``"MSMMS"``: one letter per seat, M miner, S saboteur."""
        edit(GAME, self.state, f"roles {roles}")

    def empty_deck(self) -> None:
        edit(GAME, self.state, "empty_deck")

    def set_turn(self, seat: int) -> None:
        edit(GAME, self.state, f"turn = {seat}")


def path_card(shape: str):
    return lambda c: c.shape == shape


def action_card(kind: str, *tools: str):
    return lambda c: c.kind == kind and (not tools or tuple(c.tools) == tools)


def all_cards(state) -> list[str]:
    """Every playing card wherever it is: hands, deck, maze, discard, in front of players."""
    out = [c for h in state["hands"] for c in h] + list(state["deck"])
    out += [c["card"] for c in state["maze"].values() if c["card"] in CARDS]
    out += [d["card"] for d in state["discard"]]
    out += [b["card"] for p in state["broken"] for b in p.values()]
    return out


def dumps(value) -> str:
    return json.dumps(value, sort_keys=True)


def card_for(t: Table, seat: int, pred) -> str:
    """A free card matching ``pred``, put into ``seat``'s hand."""
    card = t.free(pred)
    t.give(seat, card)
    return card


def play(t: Table, shape: str, x: int, y: int, rotated: bool = False, seat: int = 0) -> list[dict]:
    card = card_for(t, seat, path_card(shape))
    return t.do(seat, {"type": "play_path", "card": card, "x": x, "y": y, "rotated": rotated})


def treasure_found_by(t: Table, finder: int) -> list[dict]:
    """Stage a tunnel to (6,0) with the treasure at B; ``finder`` completes it at (7,0)."""
    t.set_goals(A="stone-nw", B="treasure", C="stone-ne")
    for x in range(1, 7):
        t.place_ew(x, 0)
    t.set_turn(finder)
    # Any card open west and east will do: earlier staging may have used up the straights.
    card = card_for(t, finder, lambda c: c.shape in ("straight-ew", "tee-new", "cross"))
    return t.do(finder, {"type": "play_path", "card": card, "x": 7, "y": 0, "rotated": False})


def cards_run_out(t: Table, last: int) -> list[dict]:
    """Empty the pile and every hand but one card of ``last``, who then discards it."""
    t.empty_deck()
    for seat, hand in enumerate(t.state["hands"]):
        edit(GAME, t.state, f"discard_hand {seat} {' '.join(hand[:1]) if seat == last else ''}")
    t.set_turn(last)
    return t.do(last, {"type": "pass", "card": t.state["hands"][last][0]})


def data(evs: list[dict], type_: str) -> list[dict]:
    """The data of every event of one type."""
    return [e["data"] for e in evs if e["type"] == type_]


def reach_stone_goal_a(t: Table) -> list[dict]:
    """A tunnel up from the start and east along y=-2; seat 0 completes it onto stone goal A."""
    t.set_goals(A="stone-nw", B="treasure", C="stone-ne")
    t.place("straight-ns", 0, -1)
    t.place("curve-nw", 0, -2, rotated=True)  # S, E
    for x in range(1, 7):
        t.place_ew(x, -2)
    return play(t, "straight-ew", 7, -2)
