"""Mountain King's text board for `delve show`: the mountain one character a cell, then each
player's honor and storage (pure: a view in, lines out)."""
from __future__ import annotations

STATUES = {"fire": "f", "ice": "i", "moon": "m"}


def board(view: dict) -> list[str]:
    """Cells a piece covers by what is there (a tunnel by its seat's digit, D a door, H a hall,
    W a workshop, any other piece by its kind's initial); an open statue cell by its kind
    (f fire, i ice, m moon); · a cell no piece covers yet."""
    cells: dict[tuple[int, int], str] = {}
    for key, kind in (view.get("statues") or {}).items():
        x, y = (int(v) for v in key.split(","))
        cells[(x, y)] = STATUES.get(kind, "s")
    for piece in (view.get("pieces") or {}).values():
        mark = _mark(piece)
        for cell in piece.get("cells") or []:
            cells[(cell[0], cell[1])] = mark
    if not cells:
        return []
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    rows = [f"mountain ({view.get('board')} side; digits: a seat's tunnels; D door, H hall, W workshop; "
            "f i m open statues):", "      " + "".join(f"{x:>3}" for x in range(min(xs), max(xs) + 1))]
    for y in range(min(ys), max(ys) + 1):
        rows.append(f"  {y:>3} " + "".join(f"{cells.get((x, y), '·'):>3}" for x in range(min(xs), max(xs) + 1)))
    rows.append(f"  round {view.get('round')}, {view.get('phase')}; to act: seat {view.get('current')}")
    for p in view.get("players") or []:
        stored = ", ".join(f"{n} {k}" for k, n in sorted((p.get("storage") or {}).items()) if n) or "nothing"
        rows.append(f"  seat {p['seat']} ({p.get('colour')}): honor {p.get('honor')}, storage {stored}")
    return rows


def _mark(piece: dict) -> str:
    kind = piece.get("kind") or "?"
    if kind == "tunnel":
        return str(piece.get("seat", "t"))
    return {"door": "D", "hall": "H", "workshop": "W"}.get(kind, kind[:1].upper())
