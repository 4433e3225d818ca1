"""Drive Saboteur without the platform: start, fold, command, and stage positions.

Staging helpers move cards between the deck, hands and the maze by swapping,
so the card-conservation invariant still holds in staged states.
"""
from __future__ import annotations

import json

from domain import kit
from domain.core import Drbg, Seat, fold
from domain.saboteur.content import CARDS
from domain.saboteur.maze import key
from domain.saboteur.rules import GAME

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

    # -- staging -------------------------------------------------------------
    def _take(self, card: str, replacement_from: list[str] | None = None) -> None:
        """Remove ``card`` from deck or hand; a hand gets a deck card back."""
        s = self.state
        if card in s["deck"]:
            s["deck"].remove(card)
            return
        for hand in s["hands"]:
            if card in hand:
                hand[hand.index(card)] = s["deck"].pop()
                return
        raise AssertionError(f"{card} is neither in the deck nor in a hand")

    def free(self, pred) -> str:
        """A card matching ``pred`` still in the deck or a hand (deck first)."""
        s = self.state
        for c in list(s["deck"]) + [c for h in s["hands"] for c in h]:
            if pred(CARDS[c]):
                return c
        raise AssertionError("no such card left")

    def give(self, seat: int, *cards: str) -> None:
        """Make ``cards`` part of ``seat``'s hand, keeping its size."""
        hand = self.state["hands"][seat]
        for card in cards:
            if card in hand:
                continue
            slot = next(i for i, c in enumerate(hand) if c not in cards)
            old = hand[slot]
            if card in self.state["deck"]:
                self.state["deck"][self.state["deck"].index(card)] = old
            else:
                other = next(h for h in self.state["hands"] if card in h)
                other[other.index(card)] = old
            hand[slot] = card

    def place(self, shape: str, x: int, y: int, rotated: bool = False, by: int | None = 0) -> str:
        card = self.free(lambda c: c.shape == shape)
        self._take(card)
        self.state["maze"][key(x, y)] = {"card": card, "shape": shape, "rotated": rotated, "by": by}
        return card

    def place_ew(self, x: int, y: int, by: int | None = 0) -> str:
        """Any card with a W-E tunnel (there are only 3 straight ones)."""
        card = self.free(lambda c: c.shape in ("straight-ew", "tee-new", "cross"))
        self._take(card)
        self.state["maze"][key(x, y)] = {"card": card, "shape": CARDS[card].shape, "rotated": False, "by": by}
        return card

    def set_goals(self, **shapes: str) -> None:
        for g, shape in shapes.items():
            self.state["goals"][g]["shape"] = shape

    def set_roles(self, roles: str) -> None:
        """``"MSMMS"``: one letter per seat, M miner, S saboteur."""
        self.state["roles"] = ["miner" if r == "M" else "saboteur" for r in roles]

    def empty_deck(self) -> None:
        self.state["discard"] += [{"card": c, "face_up": True, "by": None} for c in self.state["deck"]]
        self.state["deck"] = []

    def set_turn(self, seat: int) -> None:
        self.state["turn"] = seat


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
        keep = hand[:1] if seat == last else []
        t.state["discard"] += [{"card": c, "face_up": True, "by": None} for c in hand if c not in keep]
        t.state["hands"][seat] = keep
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
