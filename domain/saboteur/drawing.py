"""Saboteur's text board for `delve show`: the maze one character a cell, each player's tools,
and the viewing seat's role and hand (pure: a view in, lines out)."""
from __future__ import annotations

# A Saboteur path card by the edges it opens (N up, as domain/saboteur/maze.py's DIRS).
GLYPHS = {"": "·", "N": "╵", "E": "╶", "S": "╷", "W": "╴", "NS": "│", "EW": "─", "NE": "└", "ES": "┌", "SW": "┐",
          "NW": "┘", "NES": "├", "NSW": "┤", "ESW": "┬", "NEW": "┴", "NESW": "┼"}


def board(view: dict) -> list[str]:
    """The maze, one character a cell by the edges its card opens (S the start; a goal face down
    by its letter, and what it is beside it where the view shows it, as to a seat that looked at
    it with a map; once turned $ for the treasure, G for a stone), then each player's tools, and
    the viewing seat's role and hand."""
    cells: dict[tuple[int, int], str] = {}
    for key, card in view.get("maze", {}).items():
        x, y = (int(v) for v in key.split(","))
        edges = "".join(d for d in "NESW" if d in (card.get("edges") or ""))
        cells[(x, y)] = "S" if card.get("card") == "start" else GLYPHS.get(edges, "?")
    for name, goal in view.get("goals", {}).items():
        face = "$" if goal.get("shape") == "treasure" else "G"
        if goal.get("revealed"):
            cells[(goal["x"], goal["y"])] = face
        else:
            cells.setdefault((goal["x"], goal["y"]), name + (face if goal.get("shape") else ""))
    if not cells:
        return []
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    rows = [("maze (S start; A B C goals face down, A$ or AG one this seat saw to be gold or stone; "
             "$ gold, G stone once revealed):"),
            "      " + "".join(f"{x:>2}" for x in range(min(xs), max(xs) + 1))]
    for y in range(min(ys), max(ys) + 1):
        rows.append(f"  {y:>3} " + "".join(f"{cells.get((x, y), ' '):>2}" for x in range(min(xs), max(xs) + 1)))
    for p in view.get("players", []):
        broken = ", ".join(sorted(p.get("broken_tools") or {})) or "none"
        rows.append(f"  seat {p['seat']}: {p.get('hand_count', '?')} cards, broken tools: {broken}"
                    + (f", role {p['role']}" if p.get("role") else "") + (f", gold {p['gold']}" if p.get("gold") else ""))
    you = view.get("you") or {}
    if you:
        rows.append(f"  you (seat {you.get('seat')}): role {you.get('role')}, hand "
                    + ", ".join(c["card"] if isinstance(c, dict) else str(c) for c in you.get("hand") or []))
    return rows
