"""Mountain King's position verbs (``domain.kit.position``): the edits its tests make most.

    mountain-king 4 seed=seed
    opening                      # doors and draft, each seat taking its first legal choice
    empty_trolls 0               # seat 0's troll tokens back to the supply
    storage 0 iron=2 coin=1      # exactly this in seat 0's storage (the rest back to the supply)
    door 0 9,2                   # seat 0's door on a space
    tunnel t1 0 8,1 8,2          # a tunnel piece of seat 0 on spaces (or: ... anchor=8,2 pedestal=fire)
    hall hall-of-echoes 0 12,3 12,4 12,5 altar=12,4
    only_doors 0=12,2 1=3,15     # just these doors on the board, no statues
    workshop 9,2 stone_mill
    statue 9,3 fire
    troll 0 1,1 magenta-5 01     # a troll on seat 0's roster, tokens on its second symbol
    troll 0 1,1 stone+cart:fire  # the horde troll with these symbols
    roster 0 2,1 2,2             # level-1 trolls on these roster positions
    horde B1 coin+cart:fire      # this card in a horde slot (or: deck:3, the last card of level 3's deck)
    empty_horde B5               # every horde slot empty but B5
    tiles_left D2                # no tunnel tile left in the supply but D2
    bribes B4 coin=2             # bribes on a horde slot, from the supply
    spell troll_lure             # a spell in the spell book (slot 0, no runes; or: spell earth_ritual 1 2)
    step halls                   # seat 0's turn past its step 2, now in this step
    new_turn 2                   # seat 2 at step 1 of a fresh turn
"""
from __future__ import annotations

from domain.core import Drbg
from domain.kit import Batch

from . import commands, content, setup
from .catalog import top_row
from .evolve import evolve


def _cell(text: str) -> list[int]:
    r, c = text.split(",")
    return [int(r), int(c)]


def opening(s: dict) -> None:
    """Doors and the starter draft, each time the lowest seat to act taking its first legal command."""
    for _ in range(200):
        if s["phase"] not in ("doors", "draft"):
            return
        seat = min(p for p in range(s["n"]) if setup.drafting(s, p)) if s["phase"] == "draft" else s["current"]
        b = Batch(s, evolve)
        commands.dispatch(b.state, seat, commands.legal(s, seat)[0], Drbg(b"test", "t"), b.add)
        s.clear()
        s.update(b.state)
    raise ValueError("the opening did not end")


def empty_trolls(s: dict, seat: str) -> None:
    for troll in s["rosters"][int(seat)].values():
        for i, sym in enumerate(top_row(troll["card"])):
            if troll["held"][i]:
                troll["held"][i] = False
                s["supply"][sym.split(":")[0]] += 1


def storage(s: dict, seat: str, *counts: str) -> None:
    """Exactly ``res=n ...`` in the seat's storage, through the supply."""
    store = s["stores"][s["store_of"][int(seat)]]
    for res in list(store):
        s["supply"][res] += store[res]
        store[res] = 0
    for res, n in (c.split("=") for c in counts):
        s["supply"][res] -= int(n)
        store[res] = int(n)


def door(s: dict, seat: str, cell: str) -> None:
    s["pieces"][f"door:{seat}"]["cells"] = [_cell(cell)]


def _named(words: tuple[str, ...]) -> tuple[list[str], dict[str, str]]:
    """Plain words and ``key=value`` words apart."""
    return [w for w in words if "=" not in w], dict(w.split("=", 1) for w in words if "=" in w)


def tunnel(s: dict, piece: str, seat: str, *words: str) -> None:
    """A tunnel piece named ``piece``. It counts as dug, past any ``t<n>`` name it takes, so a dig
    afterwards never reuses its id (digs name their tunnels ``t1``, ``t2``... in order)."""
    cells, named = _named(words)
    number = piece[1:] if piece.startswith("t") and piece[1:].isdigit() else "0"
    s["tunnels_dug"] = max(s["tunnels_dug"] + 1, int(number))
    s["pieces"][piece] = {"kind": "tunnel", "cells": [_cell(c) for c in cells], "seat": int(seat), "tile": "X",
                          "anchor": _cell(named["anchor"]) if "anchor" in named else None,
                          "pedestal": named.get("pedestal")}


def hall(s: dict, hall_id: str, seat: str, *words: str) -> None:
    cells, named = _named(words)
    s["pieces"][f"hall:{hall_id}"] = {"kind": "hall", "cells": [_cell(c) for c in cells], "seat": int(seat),
                                      "hall": hall_id, "altar": _cell(named["altar"])}


def only_doors(s: dict, *doors: str) -> None:
    """Just these doors (``seat=r,c``) on the board and no statues: nothing else scores or connects."""
    s["pieces"] = {}
    for d in doors:
        seat, cell = d.split("=")
        s["pieces"][f"door:{seat}"] = {"kind": "door", "cells": [_cell(cell)], "seat": int(seat)}
    s["statues"] = {}


def _card(s: dict, name: str) -> str:
    """A card id, the horde troll whose symbols are ``a+b+...``, or ``deck:N``: the last card of level N's deck."""
    if name.startswith("deck:"):
        return s["horde"]["decks"][name.removeprefix("deck:")].pop()
    if "+" not in name:
        return name
    return next(t.id for t in content.horde_trolls() if t.symbols == tuple(name.split("+")))


def troll(s: dict, seat: str, pos: str, card: str, held: str = "") -> None:
    """A troll on a roster position; ``held``: one 0/1 per top-row symbol (tokens are not taken from the supply)."""
    card = _card(s, card)
    s["rosters"][int(seat)][pos] = {"card": card, "held": [c == "1" for c in held] or [False] * len(top_row(card))}


FILLER = "L1-05"  # a level-1 troll, where only how many trolls a roster holds matters


def roster(s: dict, seat: str, *positions: str) -> None:
    for pos in positions:
        troll(s, seat, pos, FILLER)


def horde(s: dict, slot: str, card: str) -> None:
    s["horde"]["slots"][slot]["card"] = None if card == "none" else _card(s, card)


def empty_horde(s: dict, *keep: str) -> None:
    """Every horde slot empty but the ``keep`` slots: nothing (or only those) to recruit."""
    for slot, spot in s["horde"]["slots"].items():
        if slot not in keep:
            spot["card"] = None


def tiles_left(s: dict, *kinds: str) -> None:
    """No tunnel tile left in the supply but the ``kinds`` (their counts kept)."""
    s["tiles"] = {t: (n if t in kinds else 0) for t, n in s["tiles"].items()}


def bribes(s: dict, slot: str, *counts: str) -> None:
    """Bribes on a horde slot, taken from the supply."""
    spot = s["horde"]["slots"][slot]["bribes"]
    for res, n in (c.split("=") for c in counts):
        s["supply"][res] -= int(n)
        spot[res] = spot.get(res, 0) + int(n)


def spell(s: dict, spell_id: str, slot: str = "0", runes: str = "0") -> None:
    """A spell into a slot of the spell book: out of the deck, or moved within the book; the card it
    displaces goes to the bottom of the deck (17 cards stay 17)."""
    book, k = s["spells"]["book"], int(slot)
    held = next((i for i, c in enumerate(book) if c["id"] == spell_id), None)
    if held is not None:
        book[held], book[k] = book[k], book[held]
    else:
        s["spells"]["deck"] = [c for c in s["spells"]["deck"] if c != spell_id] + [book[k]["id"]]
    book[k] = {"id": spell_id, "runes": int(runes)}


def workshop(s: dict, cell: str, kind: str) -> None:
    s["workshops"][cell] = kind


def statue(s: dict, cell: str, clan: str) -> None:
    s["statues"][cell] = clan


def step(s: dict, name: str) -> None:
    s["turn"].update(step=name, acted=True)


def new_turn(s: dict, seat: str = "0") -> None:
    """``seat`` at step 1 of a fresh turn in the same round: one turn's history set aside."""
    s["current"] = int(seat)
    s["turn"] = {"seat": int(seat), "step": "spells", "spell": False, "ws": None, "acted": False, "hall": False,
                 "flags": [], "dug": None}


VERBS = {"opening": opening, "empty_trolls": empty_trolls, "storage": storage, "door": door, "tunnel": tunnel,
         "hall": hall, "only_doors": only_doors, "workshop": workshop, "statue": statue, "troll": troll,
         "roster": roster, "horde": horde, "empty_horde": empty_horde, "bribes": bribes, "spell": spell,
         "tiles_left": tiles_left, "step": step, "new_turn": new_turn}

POSITIONS = {
    "first-turn-bare": """
        mountain-king 4 seed=seed
        opening
        empty_trolls 0
        storage 0 stone=4 coin=2 hammer=1
    """,
}
