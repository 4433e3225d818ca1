"""``evolve``: one handler per event type (``domain.kit.Handlers``); no rules checks
(``decide`` made them); every resource change is a ``delta`` on a participant."""
from __future__ import annotations

from domain.dwarf.versions.dwarf_5.state import EXTRA_WORKERS, NORMAL_WORKERS, initial, new_player
from domain.kit import Batch, Handlers


handlers = Handlers()


def _apply(s: dict, player: int, delta: dict) -> None:
    me = s["players"][player]
    for res, n in delta.items():
        me[res] += n
        if res == "object" and n > 0:
            me["created"] += n  # DW-AMB-23


def _pop(s: dict) -> None:
    if s["queue"]:
        s["queue"].pop(0)


@handlers.on("GameSetUp")
def _set_up(s: dict, d: dict) -> None:
    s.update(initial())
    s.update(options=d["options"], seats=d["seats"], automaton=d["automaton"], level=d["level"],
             first=d["first"], players=[new_player(pid) for pid in d["players"]],
             areas=[{"stacks": {}, "mountain": [], "piles": [[], [], []]} for _ in range(d["areas"])])


@handlers.on("MineLaid")
def _mine_laid(s: dict, d: dict) -> None:
    s["areas"][d["area"]]["stacks"] = {loc: [cid] for loc, cid in d["cards"].items()}


@handlers.on("MountainShuffled")
def _mountain_shuffled(s: dict, d: dict) -> None:
    s["areas"][d["area"]]["mountain"] = list(d["cards"])


@handlers.on("PilesDealt")
def _piles_dealt(s: dict, d: dict) -> None:
    s["areas"][d["area"]]["piles"] = [list(p) for p in d["piles"]]


@handlers.on("RoundStarted")
def _round_started(s: dict, d: dict) -> None:
    k = len(s["players"])
    s.update(round=d["round"], phase="mining", workers={}, queue=[], unplaced=[NORMAL_WORKERS] * k,
             pile_workers=[0] * k, extras=[0] * k, extras_used=[0] * k, first_refs=[None] * k,
             last_ref=None, last_mined=None, banned=None, step=None)


@handlers.on("CardMined")
def _card_mined(s: dict, d: dict) -> None:
    area = s["areas"][d["area"]]
    area["mountain"].pop(0)
    area["stacks"][d["location"]].append(d["card"])
    s["last_mined"] = {"area": d["area"], "card": d["card"]}


@handlers.on("WorkerPlaced")
def _worker_placed(s: dict, d: dict) -> None:
    p, area = d["player"], int(d["place"].split(":")[0])
    s["seq"] += 1
    s["workers"][d["place"]] = {"player": p, "extra": d["extra"], "seq": s["seq"], "card": d["card"],
                                "type": d["action"], "done": False}
    if d["extra"]:
        s["extras_used"][p] += 1
    else:
        s["unplaced"][p] -= 1
    if d["slot"] == "first":
        s["first_refs"][p] = {"area": area, "card": d["card"]}
    s["last_ref"] = {"player": p, "area": area, "card": d["card"]}
    if d["slot"] != "instant":
        _pop(s)


@handlers.on("ExtrasGranted")
def _extras_granted(s: dict, d: dict) -> None:
    s["extras"][d["player"]] = min(EXTRA_WORKERS, s["extras"][d["player"]] + d["count"])


@handlers.on("SpecialActionTaken")
def _special_taken(s: dict, d: dict) -> None:
    p, area = d["player"], d["pile"] // 3
    s["areas"][area]["piles"][d["pile"] % 3].pop(0)
    s["unplaced"][p] -= d["workers"]
    s["pile_workers"][p] += d["workers"]
    _apply(s, p, {r: -n for r, n in d["paid"].items()})
    s["players"][p]["specials"] += 1
    s["first_refs"][p] = {"area": area, "card": d["card"]}
    s["last_ref"] = {"player": p, "area": area, "card": d["card"]}
    s["in_hand"] = {"area": area, "card": d["card"]}  # until its Mine side is placed (DW-SPEC-5)
    _pop(s)


@handlers.on("Gained")
def _gained(s: dict, d: dict) -> None:
    _apply(s, d["player"], d["delta"])


def _acted(s: dict, d: dict) -> dict | None:
    """A worker whose action came up is done for the round, so a step that
    waited for a player's order (DW-AMB-14) resumes after it (DW-RES-7 alike)."""
    w = s["workers"].get(d["place"]) if d["place"] else None
    if w is not None and w["player"] == d["player"]:
        w["done"] = True
        return w
    return None


@handlers.on("ActionFailed")
def _failed(s: dict, d: dict) -> None:
    """An action that could not be paid was not carried out (DW-RES-6): it passes no marker (DW-FP-2/3)."""
    w = _acted(s, d)
    if w is not None:
        w["failed"] = True


@handlers.on("ActionResolved")
def _resolved(s: dict, d: dict) -> None:
    _apply(s, d["player"], d["delta"])
    _acted(s, d)


@handlers.on("OrderRequested")
def _order_requested(s: dict, d: dict) -> None:
    s.update(phase="order", queue=[{"player": d["player"], "slot": "order", "step": d["step"],
                                    "places": list(d["places"])}])


@handlers.on("ThreatApplied")
def _threat(s: dict, d: dict) -> None:
    for p, delta in d["deltas"].items():
        _apply(s, int(p), delta)
    if d.get("ban_next"):
        s["ban_next"] = d["ban_next"]


@handlers.on("WorkerActedEarly")
def _acted_early(s: dict, d: dict) -> None:
    s["workers"][d["place"]]["done"] = True


@handlers.on("CardPlacedInMine")
def _card_placed(s: dict, d: dict) -> None:
    area, _, loc = d["place"].partition(":")
    s["areas"][int(area)]["stacks"][loc].append(d["card"])
    s["in_hand"] = None


@handlers.on("ExtraDeclined")
def _declined(s: dict, d: dict) -> None:
    s["extras_used"][d["player"]] += 1
    _pop(s)


@handlers.on("ActionsBanned")
def _banned(s: dict, d: dict) -> None:
    s["banned"] = d["action"]
    if d["carried_over"]:
        s["ban_next"] = None


@handlers.on("RoundEnded")
def _round_ended(s: dict, d: dict) -> None:
    k = len(s["players"])
    s.update(phase="round_end", workers={}, queue=[], unplaced=[NORMAL_WORKERS] * k, pile_workers=[0] * k)


@handlers.on("SelectionStarted")
def _selection_started(s: dict, d: dict) -> None:
    s.update(phase="select", queue=[dict(q) for q in d["queue"]])


@handlers.on("PlacementSkipped")
def _placement_skipped(s: dict, d: dict) -> None:
    _pop(s)


@handlers.on("HelpStarted")
def _help_started(s: dict, d: dict) -> None:
    s.update(phase="help", queue=[dict(q) for q in d["queue"]])


@handlers.on("ResolutionStarted")
def _resolution_started(s: dict, d: dict) -> None:
    s.update(phase="resolve", queue=[], step=None)


@handlers.on("StepStarted")
def _step_started(s: dict, d: dict) -> None:
    s.update(step=d["step"])


@handlers.on("ActionsOrdered")
def _actions_ordered(s: dict, d: dict) -> None:
    s.update(phase="resolve", queue=[])


@handlers.on("MarkerPassed")
def _marker_passed(s: dict, d: dict) -> None:
    s.update(first=d["to"])


@handlers.on("EndTriggered")
def _end_triggered(s: dict, d: dict) -> None:
    s.update(end_pending=d["reason"])


@handlers.on("GameEnded")
def _game_ended(s: dict, d: dict) -> None:
    s.update(phase="over", ended=d["reason"], queue=[])


evolve = handlers.evolver()


def batch(state: dict) -> Batch:
    """A kit Batch folding with DWARF's evolve."""
    return Batch(state, evolve)
