"""Saboteur's position verbs (``domain.kit.position``): the edits its tests make most, in its words.

Cards move between the deck, the hands and the maze by swapping, so every playing card
stays exactly once somewhere (the conservation the rules rely on)::

    saboteur 5 seed=x
    give 0 A12 shape:cross repair:pick:lantern   # into seat 0's hand: an id, or a free card of a shape / an action
    path straight-ew 1,0                  # a free card of that shape laid in the maze (or: 1,0 rotated by=2)
    broken 2 pick by=4                    # seat 2's pick broken by seat 4 (a free Break card, or: broken 2 pick A02)
    goals A=stone-nw B=treasure C=stone-ne
    roles MSMMS                           # one letter per seat: Miner, Saboteur
    empty_deck                            # the draw pile onto the discard pile, face up
    discard_hand 1 P07                    # seat 1's hand onto the discard pile but P07
    turned A stone-nw                     # goal card A face up where it lies (a path reached it)
"""
from __future__ import annotations

from collections.abc import Collection

from .content import CARDS, GOAL_CELLS
from .maze import key


def _fits(card: str, want: str) -> bool:
    """``want`` describes ``card``: its id, ``shape:<shape>``, or ``<kind>[:<tool>...]`` (an action
    card showing exactly those tools)."""
    kind, *tools = want.split(":")
    c = CARDS[card]
    return card == want or (kind == "shape" and c.shape == tools[0]) or (
        kind != "shape" and c.kind == kind and (not tools or list(c.tools) == tools))


def _free(s: dict, want: str, taken: Collection[str] = ()) -> str:
    """The first card ``want`` describes, from the deck first, then the hands."""
    for card in list(s["deck"]) + [c for hand in s["hands"] for c in hand]:
        if card not in taken and _fits(card, want):
            return card
    raise ValueError(f"no free card {want!r} in the deck or a hand")


def give(s: dict, seat: str, *cards: str) -> None:
    """Make ``cards`` part of ``seat``'s hand, keeping every hand's size: a card already in the hand
    stays; another swaps places with a card of the hand that is not wanted."""
    hand = s["hands"][int(seat)]
    wanted: list[str] = []
    for want in cards:
        card = next((c for c in hand if c not in wanted and _fits(c, want)), None) or _free(s, want, wanted)
        wanted.append(card)
        if card in hand:
            continue
        slot = next(i for i, c in enumerate(hand) if c not in wanted)
        holder = s["deck"] if card in s["deck"] else next(h for h in s["hands"] if card in h)
        holder[holder.index(card)], hand[slot] = hand[slot], card


def _take(s: dict, card: str) -> None:
    """Take ``card`` out of the deck or a hand; a hand gets the deck's top card in its place."""
    if card in s["deck"]:
        s["deck"].remove(card)
        return
    hand = next(h for h in s["hands"] if card in h)
    hand[hand.index(card)] = s["deck"].pop()


def path(s: dict, shape: str, cell: str, *words: str) -> None:
    """A free card of ``shape`` laid on ``cell`` (``x,y``), ``rotated`` 180 degrees or not, laid ``by=`` a
    seat (by seat 0 unless said; ``by=none``: part of the layout)."""
    card = _free(s, f"shape:{shape}")
    _take(s, card)
    by = next((w.removeprefix("by=") for w in words if w.startswith("by=")), "0")
    x, y = (int(v) for v in cell.split(","))
    s["maze"][key(x, y)] = {"card": card, "shape": shape, "rotated": "rotated" in words,
                            "by": None if by == "none" else int(by)}


def broken(s: dict, seat: str, tool: str, *words: str) -> None:
    """``seat``'s ``tool`` broken by a Break card (the one named, else a free one showing that
    tool) laid ``by=`` a seat (``by=none`` unless said)."""
    card = next((w for w in words if "=" not in w), None) or _free(s, f"break:{tool}")
    _take(s, card)
    by = next((w.removeprefix("by=") for w in words if w.startswith("by=")), "none")
    s["broken"][int(seat)][tool] = {"card": card, "by": None if by == "none" else int(by)}


def turned(s: dict, goal: str, shape: str | None = None) -> None:
    """Goal card ``goal`` turned face up where it lies (a path reached it), showing ``shape``
    (its dealt shape unless said)."""
    x, y = GOAL_CELLS[goal]
    s["maze"][key(x, y)] = {"card": f"goal-{goal}", "shape": shape or s["goals"][goal]["shape"], "rotated": False,
                            "by": None}
    s["goals"][goal]["revealed"] = True


def discard_hand(s: dict, seat: str, *keep: str) -> None:
    """``seat``'s hand onto the discard pile, face up, but the ``keep`` cards."""
    hand = s["hands"][int(seat)]
    s["discard"] += [{"card": c, "face_up": True, "by": None} for c in hand if c not in keep]
    s["hands"][int(seat)] = [c for c in hand if c in keep]


def goals(s: dict, *shapes: str) -> None:
    for g, shape in (w.split("=") for w in shapes):
        s["goals"][g]["shape"] = shape


def roles(s: dict, letters: str) -> None:
    """``MSMMS``: one letter per seat, M miner, S saboteur."""
    s["roles"] = ["miner" if r == "M" else "saboteur" for r in letters]


def empty_deck(s: dict) -> None:
    s["discard"] += [{"card": c, "face_up": True, "by": None} for c in s["deck"]]
    s["deck"] = []


VERBS = {"give": give, "path": path, "broken": broken, "turned": turned, "discard_hand": discard_hand,
         "goals": goals, "roles": roles, "empty_deck": empty_deck}
