"""Phase 3, action resolution (DW-RES-1..7): Receive Help, Mine, Forge, Defend and
threats, with the first-player passes of DW-FP-2/3 (DW-AMB-5)."""
from __future__ import annotations

from domain.dwarf.versions.dwarf_5 import content, ordering
from domain.dwarf.versions.dwarf_5.actions import carry_out, gain_medals, times_for
from domain.dwarf.versions.dwarf_5.grid import places
from domain.dwarf.versions.dwarf_5.state import EXTRA_WORKERS, solo, top, top_effect
from domain.kit import Batch


def begin_help(b: Batch) -> None:
    """DW-RES-2: each player with a normal worker on Receive Help (also one acted
    early, DW-AMB-18) may place up to 2 extras (DW-AMB-12), in the order the Receive
    Help workers were placed, 3rd workers first, then 4th (DW-EX-7). The solo
    automaton placed its extras already (DW-SOLO-5)."""
    s = b.state
    helped = sorted((w for w in s["workers"].values() if w["type"] == "help" and not w["extra"]),
                    key=lambda w: w["seq"])
    order: list[int] = []
    for w in helped:
        if w["player"] not in order and s["extras"][w["player"]] < EXTRA_WORKERS:
            order.append(w["player"])
    for p in order:
        b.emit("ExtrasGranted", player=p, count=EXTRA_WORKERS - s["extras"][p])
    b.emit("HelpStarted", queue=[{"player": p, "slot": "extra"} for _ in range(EXTRA_WORKERS) for p in order])


def _clockwise(s: dict) -> list[int]:
    """DW-AMB-14: players are processed clockwise from the first player."""
    k = len(s["players"])
    return [(s["first"] + i) % k for i in range(k)]


def _begin(b: Batch, step: str) -> None:
    """Open a step of DW-RES-1 (the state remembers it, so a step that waits for a
    player's order resumes there); an Orc Raiders check may forbid it (DW-AMB-2)."""
    b.emit("StepStarted", step=step)
    if step in ("mine", "forge"):
        _orc_raiders(b, step)


def _step(b: Batch, action: str) -> bool:
    """DW-RES-3 / DW-RES-4: every worker on a location of this type acts, player by
    player, normal workers before extras (DW-AMB-13); workers that acted early are
    skipped (DW-RES-7). A seat whose order changes the outcome chooses it first
    (DW-AMB-14): False means the step waits for that choice."""
    s = b.state
    if s["banned"] == action:
        return True
    for p in _clockwise(s):
        todo = ordering.pending(s, p, action)
        if len(todo) > 1 and p != s["automaton"] and ordering.matters(s, p, todo):
            b.emit("OrderRequested", player=p, step=action, places=todo)
            return False
        for where in todo:
            carry_out(b, p, where)
    return True


def _orc_raiders(b: Batch, action: str) -> None:
    """DW-GLOS-4, DW-AMB-2: an undefended Orc Raiders, checked at the start of the
    step it forbids (option ``orc_raiders_forbids``), stops that step this round, or
    next round with ``orc_raiders_timing = next_round``."""
    s = b.state
    if s["options"]["orc_raiders_forbids"] != action:
        return
    if s["options"]["orc_raiders_timing"] == "next_round":
        if s["ban_next"] == action:
            b.emit("ActionsBanned", action=action, place=None, card=None, carried_over=True)
        return
    for where in places(len(s["areas"])):
        if content.effect_of(top(s, where)).id == "orc_raiders" and where not in s["workers"]:
            b.emit("ActionsBanned", action=action, place=where, card=top(s, where), carried_over=False)
            return


def _pass_marker(b: Batch, kind: str) -> None:
    """DW-FP-2/3 (DW-AMB-5): if the current holder carried out an action of ``kind`` this round
    (one it could not pay for was not carried out, DW-RES-6),
    the marker goes to the next player clockwise. Never in solo (DW-FP-4, DW-SOLO-3)."""
    s = b.state
    option = "receive_help" if kind == "help" else kind
    if solo(s) or option not in s["options"]["first_player_pass_types"]:
        return
    holder = s["first"]
    banned = kind == "forge" and s["banned"] == "forge"  # DW-GLOS-4: only Forges done early were carried out
    did = any(w["player"] == holder and w["type"] == kind and not (kind == "help" and w["extra"])
              and not w.get("failed") and (w["done"] or not banned)
              for w in s["workers"].values())   # «Si el ... realizó una acción»
    if did:
        b.emit("MarkerPassed", **{"from": holder}, to=(holder + 1) % len(s["players"]), why=kind)


def _penalty(threat: str, player: dict) -> dict:
    """DW-GLOS-5..8; a penalty takes what the player has and never makes debt (DW-AMB-16)."""
    if threat == "knockers":
        return {"iron": -min(1, player["iron"])}
    if threat == "dragon":
        return {"gold": -min(1, player["gold"])}
    if threat == "great_dragon":
        return {"gold": -player["gold"]}
    if threat == "sidhe":
        n = min(2, player["gold"])
        return {"gold": -n, "iron": n}
    return {}


def _defend_step(b: Batch) -> None:
    """DW-RES-5, DW-AMB-3, DW-AMB-16: Reward for Valour for every defender first
    (not for a worker left by DW-SPEC-6, DW-AMB-17), then every undefended threat in
    reading order, applied to all players (DW-GLOS-11)."""
    s = b.state
    defend = [where for where in places(len(s["areas"])) if top_effect(s, where).type == "defend"]
    for where in defend:
        w = s["workers"].get(where)
        if w and not w["done"] and gain_medals(b, w["player"], times_for(s, w["player"], "defend"), "valour"):
            return
    for where in defend:
        effect = top_effect(s, where)
        if where in s["workers"] or not effect.threat:
            continue
        if effect.id == "orc_raiders":
            if s["options"]["orc_raiders_timing"] == "next_round":
                b.emit("ThreatApplied", place=where, card=top(s, where), threat=effect.id, deltas={},
                       ban_next=s["options"]["orc_raiders_forbids"])
            continue
        deltas = {str(i): {r: n for r, n in _penalty(effect.id, p).items() if n}
                  for i, p in enumerate(s["players"])}
        b.emit("ThreatApplied", place=where, card=top(s, where), threat=effect.id,
               deltas={i: d for i, d in deltas.items() if d})


STEPS = ("help", "mine", "forge", "defend")  # DW-RES-1, in order


def run_step(b: Batch, step: str) -> bool:
    """One step of DW-RES-1 on its own, on whatever position ``b`` holds (a test's, a
    tool's): Receive Help's marker check, Mine, Forge and its marker check, or Defend and
    its marker check -- not the steps around it, and no end-of-round. False while a seat
    must order its actions (DW-AMB-14). ``resolve`` runs the steps in turn."""
    if step == "help":
        _pass_marker(b, "help")
        return True
    if step in ("mine", "forge"):
        if b.state["step"] != step:
            _begin(b, step)
        if not _step(b, step):
            return False
        if step == "forge":
            _pass_marker(b, "forge")
        return True
    if step != "defend":
        raise ValueError(f"no resolution step {step!r}; the steps are {', '.join(STEPS)}")
    _defend_step(b)
    if b.state["phase"] != "over":
        _pass_marker(b, "defend")
    return True


def resolve(b: Batch) -> bool:
    """DW-RES-1: Receive Help's marker check, Mine, Forge (and its marker check),
    Defend. Returns False while a seat orders its actions (DW-AMB-14); called again
    after the order, it goes on in the step that waited."""
    s = b.state
    if s["phase"] == "help":
        b.emit("ResolutionStarted")
        run_step(b, "help")
        _begin(b, "mine")
    for step, after in (("mine", "forge"), ("forge", "defend")):
        if s["step"] == step:
            if not run_step(b, step):
                return False
            _begin(b, after)
    return run_step(b, "defend")
