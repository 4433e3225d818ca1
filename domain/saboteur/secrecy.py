"""Who sees what (SAB-INFO-1): ``view`` of the state and the events' ``SECRECY``.

Secrecy lives here only, so the canary tests have one place to prove.
"""
from __future__ import annotations

from domain.kit import Secrecy, Secret, platform
from domain.saboteur.content import CARDS, ROUNDS, TREASURE
from domain.saboteur.maze import oriented
from domain.saboteur.rounds import gold_options, gold_seat
from domain.saboteur.state import SaboteurState


def _hand(cards: list[str]) -> list[dict]:
    return [CARDS[c].to_dict() for c in cards]


def view(s: SaboteurState, seat: int | None) -> dict:
    """The table as ``seat`` sees it; None is a spectator. After the game
    everything is shown."""
    over = s["phase"] == "over" or platform.ended(s)  # a resignation or an abort ends it too
    me = seat if seat is not None and 0 <= seat < s["players"] else None
    chooser = gold_seat(s)
    maze = {
        k: {**c, "edges": oriented(c["shape"], c["rotated"])[0],
            "segments": list(oriented(c["shape"], c["rotated"])[1])}
        for k, c in s["maze"].items()
    }
    goals = {}
    for g, info in s["goals"].items():
        known = info["revealed"] or over or (me is not None and g in s["peeks"][me])
        goals[g] = {"x": info["x"], "y": info["y"], "revealed": info["revealed"],
                    "shape": info["shape"] if known else None}
    players = []
    for p in range(s["players"]):
        players.append({
            "seat": p,
            "hand_count": len(s["hands"][p]) if s["hands"] else 0,
            "broken_tools": {t: dict(v) for t, v in s["broken"][p].items()} if s["broken"] else {},
            "gold_cards": sum(len(r) for r in s["gold"][p]) if s["gold"] else 0,
            "role": s["roles"][p] if s["roles"] and (s["roles_revealed"] or over or p == me) else None,
            "hand": _hand(s["hands"][p]) if over and s["hands"] else None,
            "gold": [list(r) for r in s["gold"][p]] if over else None,
        })
    out: dict = {
        "game": "saboteur",
        "round": s["round"],
        "rounds": ROUNDS,
        "phase": s["phase"],
        "turn": s["turn"],
        "players": players,
        "maze": maze,
        "goals": goals,
        "deck_count": len(s["deck"]),
        "discard_count": len(s["discard"]),
        "discard_face_up": [d["card"] for d in s["discard"] if d["face_up"]],
        "leftover_role": s["leftover"] if (s["roles_revealed"] or over) else None,
        "history": [dict(h) for h in s["history"]],
        "gold_choice": None,
    }
    if chooser is not None:
        out["gold_choice"] = {
            "seat": chooser,
            "kind": "bundle" if s["bundle"] else "payout",
            "bundle_count": len(s["bundle"]),
            "nuggets": s["pay"] if not s["bundle"] else None,
        }
        if me == chooser:
            # SAB-AMB-25: the holder sees the bundle; SAB-AMB-18: a saboteur looks through the gold deck.
            out["gold_choice"]["cards"] = sorted(s["bundle"] if s["bundle"] else s["gold_deck"], reverse=True)
            out["gold_choice"]["options"] = gold_options(s)
    if over:
        out["treasure_goal"] = next((g for g, i in s["goals"].items() if i["shape"] == TREASURE), None)
    if me is not None:
        out["you"] = {
            "seat": me,
            "role": s["roles"][me] if s["roles"] else None,
            "hand": _hand(s["hands"][me]) if s["hands"] else [],
            "gold": [list(r) for r in s["gold"][me]] if s["gold"] else [],
            "peeks": dict(s["peeks"][me]) if s["peeks"] else {},
            "face_down_discards": [d["card"] for d in s["discard"] if not d["face_up"] and d["by"] == me],
        }
    return out


SECRECY = Secrecy(
    Secret("GoalsShuffled", ("goals",)),                                      # SAB-GRID-2: face down
    Secret("RoleDealt", ("role",), seen_by=("seat",)),                        # SAB-ROLE-2
    Secret("RoleSetAside", ("role",)),                                        # SAB-ROLE-3
    Secret("DeckShuffled", ("cards",), count="count"),
    Secret("HandDealt", ("cards",), seen_by=("seat",), count="count"),
    Secret("CardDrawn", ("card",), seen_by=("seat",)),
    Secret("CardDiscarded", ("card",), seen_by=("seat",)),                    # SAB-PASS-1: face down
    Secret("GoalPeeked", ("shape",), seen_by=("seat",)),                      # SAB-MAP-1
    Secret("GoldBundleDrawn", ("values",), seen_by=("holder",), count="count"),
    Secret("GoldKept", ("value",), seen_by=("seat",)),
    Secret("GoldBundlePassed", ("values",), seen_by=("from", "to"), count="count"),
    Secret("GoldPaid", ("values",), seen_by=("seat",), count="count"),        # SAB-GOLD-10
)
"""What ``redact`` hides (``domain.kit.secrecy``): secret fields removed, counts kept."""
