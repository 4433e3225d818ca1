"""Small formatters the games' move labels share (``BaseGame.label``), so every
game writes a place, a resource mix or an id the same way."""
from __future__ import annotations

from typing import Iterable, Mapping


def at(cell: Iterable[int]) -> str:
    """``[10, 3]`` -> ``(10,3)``."""
    return "(" + ",".join(str(v) for v in cell) + ")"


def cells(spaces: Iterable[Iterable[int]]) -> str:
    """``[[10, 3], [11, 3]]`` -> ``(10,3)-(11,3)``."""
    return "-".join(at(c) for c in spaces)


def bag(amounts: Mapping[str, int]) -> str:
    """``{"coin": 3, "hammer": 1, "ore": 0}`` -> ``3 coin + 1 hammer`` (zeros left out)."""
    return " + ".join(f"{n} {name}" for name, n in amounts.items() if n) or "nothing"


def titled(ident: str) -> str:
    """``coin_press`` / ``coin-press`` -> ``Coin Press`` (ids without a display name)."""
    return ident.replace("_", " ").replace("-", " ").title()
