"""What each seat may see (IND-FOG-1/7): face-down tiles stay unknown, the face-down
mix's order (``hidden``) never leaves the server, and an explored-but-unrevealed
tile is known to its explorer only. Reserves, PP, heroes, outposts and monsters
are public: the rulebook hides nothing else."""
from __future__ import annotations

from domain.kit import Secrecy, Secret, copy_state, platform

from . import commands, scoring
from . import state as st
from .state import State


def view(s: State, seat: int | None) -> dict:
    if not s.get("seats"):
        return {"phase": s.get("phase", "setup")}
    over = s["phase"] == "over" or platform.ended(s)  # a resignation or an abort ends it too
    out = {k: v for k, v in s.items() if k not in ("hidden", "peeks")}
    out = copy_state(out)
    out["face_down"] = sorted(t for t, x in s["tiles"].items() if x["type"] is None and t not in s["sealed"])
    if over:
        out["hidden"] = dict(s["hidden"])        # everyone sees everything after the end (DESIGN.md)
    out["known"] = dict(s["peeks"].get(str(seat), {})) if seat is not None else {}
    out["pp"] = {str(p): st.pp(s, p) for p in range(s["n"])}
    out["threshold"] = scoring.threshold(s)
    out["monster_level"] = st.monster_level(s) if s["round"] else 1
    out["waiting_on"] = commands.waiting_on(s)
    return out


SECRECY = Secrecy(
    Secret("TilesShuffled", ("hidden",), count="face_down"),   # IND-FOG-1: the face-down mix
    Secret("TilePeeked", ("kind",), seen_by=("seat",)),        # IND-FOG-7: its explorer only
)
