"""Strategy boards (section 20): declaring the tree in play each round (IND-ROUND-7,
IND-STR-4), unlocking one of its abilities with a strategy token (IND-STR-6/8), and
the power's one-off effects on declaring (income, PP: IND-PP-4, IND-STR-10)."""
from __future__ import annotations

from domain.core import event

from . import content
from . import state as st
from .state import Emit, State

TOKENS = ("coin", "bolt")


def declarations(s: State, seat: int) -> list[dict]:
    """Every declaration: a tree of the seat's board, optionally unlocking one of its locked
    abilities with a token side (IND-AMB-34: unlocking is optional)."""
    me = s["seats"][seat]
    out = []
    for tree in content.boards()[me["faction"]]["trees"]:
        out.append({"type": "declare", "tree": tree["id"]})
        for ab in tree["abilities"]:
            if ab["id"] not in me["unlocked"]:
                out += [{"type": "declare", "tree": tree["id"], "unlock": ab["id"], "token": tok} for tok in TOKENS]
    return out


def declare(s: State, emit: Emit, seat: int, cmd: dict) -> bool:
    """P1 for ``seat``; True when it was the last declaration (the first turn may start)."""
    tree = cmd["tree"]
    emit(event("TreeDeclared", seat=seat, tree=tree, unlock=cmd.get("unlock"), token=cmd.get("token")))
    power = content.trees()[tree]["power"]
    if "income" in power:
        emit(event("ResourcesGained", seat=seat, res=power["income"], reason=tree))
    if "pp_if_outposts" in power and st.outposts_of(s, seat) >= power["pp_if_outposts"]:
        emit(event("PrimacyGained", seat=seat, category="strategy", n=1, reason=tree))
    return not s["pending"]


def ask(s: State, emit: Emit) -> None:
    """P1 for every player in play order; the first turn waits for the last declaration."""
    for p in st.play_order(s):
        emit(event("DecisionAsked", kind="declare", seat=p))
