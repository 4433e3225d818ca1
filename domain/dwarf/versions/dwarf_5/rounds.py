"""The flow of a round (DW-ROUND): Mining, the selection queue (DW-SEL-1/3,
DW-SOLO-4), the Receive Help queue, resolution, the end of the round (DW-EOR) and
of the game (DW-END). ``advance`` runs everything no participant decides."""
from __future__ import annotations

from domain.dwarf.versions.dwarf_5 import mining
from domain.dwarf.versions.dwarf_5.actions import GLORY, is_andvettr
from domain.dwarf.versions.dwarf_5.resolution import begin_help, resolve
from domain.dwarf.versions.dwarf_5.state import free_places, pile_at, piles, solo
from domain.kit import Batch

OBJECTS_TO_END = 4  # DW-END-1


def selection_queue(s: dict) -> list[dict]:
    """DW-SEL-1/3: first placements clockwise from the first player, second
    placements in reverse. Solo: automaton, human, automaton, human (DW-SOLO-4)."""
    if solo(s):
        a, h = s["automaton"], 0
        return [{"player": a, "slot": "first"}, {"player": h, "slot": "first"},
                {"player": a, "slot": "second"}, {"player": h, "slot": "second"}]
    k = len(s["players"])
    order = [(s["first"] + i) % k for i in range(k)]
    return [{"player": p, "slot": "first"} for p in order] + \
        [{"player": p, "slot": "second"} for p in reversed(order)]


def special_cost(s: dict) -> dict:
    """DW-SPEC-2 option 2 (DW-AMB-1): 4 Medals unless configured otherwise."""
    return {s["options"]["special_action_cost_resource"]: s["options"]["special_action_cost_amount"]}


def special_limit_reached(s: dict, player: int) -> bool:
    """DW-SPEC-9, DW-AND-7, DW-AMB-33: 3 Special Actions against Andvettr and his father."""
    return is_andvettr(s, s["automaton"]) and s["players"][player]["specials"] >= len(GLORY)


def special_piles(s: dict, player: int) -> list[int]:
    """Non-empty piles this participant may take from now (DW-SPEC-8, DW-SOLO-6)."""
    if player == s["automaton"] or special_limit_reached(s, player):
        return []
    return [p for p in piles(s) if pile_at(s, p)]


def can_act(s: dict, head: dict) -> bool:
    p, slot = head["player"], head["slot"]
    if slot == "order":
        return True
    if slot == "extra":
        return s["extras_used"][p] < s["extras"][p] and bool(free_places(s))
    if s["unplaced"][p] < 1:
        return False
    return bool(free_places(s)) or (slot == "first" and bool(special_piles(s, p)))


def start_round(b: Batch) -> None:
    s = b.state
    b.emit("RoundStarted", round=s["round"] + 1)
    if not mining.mine(b):
        if s["options"]["empty_mountain_end"] == "immediate":
            b.emit("GameEnded", reason="mountain_empty")  # DW-END-2, DW-AMB-7
            return
        if s["end_pending"] is None:
            b.emit("EndTriggered", reason="mountain_empty")
    b.emit("SelectionStarted", queue=selection_queue(s))


def end_round(b: Batch) -> None:
    """DW-EOR-1..4, then DW-END-1 (4 Objects created, DW-AMB-23), an end triggered
    earlier, or the optional round limit (DW-AMB-6)."""
    s = b.state
    b.emit("RoundEnded", round=s["round"])
    limit = s["options"]["round_limit"]
    if any(p["created"] >= OBJECTS_TO_END for p in s["players"]):
        b.emit("GameEnded", reason="four_objects")
    elif s["end_pending"]:
        b.emit("GameEnded", reason=s["end_pending"])
    elif limit is not None and s["round"] >= limit:
        b.emit("GameEnded", reason="round_limit")
    else:
        start_round(b)


def advance(b: Batch) -> None:
    """Skip placements nobody can make (DW-AMB-43, DW-SEL-3), then move on through the
    Receive Help step, resolution and the next round until a participant must act
    (place, or order their actions in a step, DW-AMB-14)."""
    s = b.state
    for _ in range(1000):
        if s["phase"] not in ("select", "help", "order", "resolve"):
            return
        while s["queue"]:
            head = s["queue"][0]
            if can_act(s, head):
                return
            b.emit("PlacementSkipped", player=head["player"], slot=head["slot"])
        if s["phase"] == "select":
            begin_help(b)
            continue
        if not resolve(b) or s["phase"] == "over":
            return
        end_round(b)
    raise RuntimeError("advance did not settle")  # unreachable: every loop places or ends a round
