"""``evolve``: folds one event into the state. Total, deterministic, no rules checks
(``decide`` made the checks); every resource change is a ``delta`` on a participant."""
from __future__ import annotations

from domain.core import Event
from domain.dwarf.state import EXTRA_WORKERS, NORMAL_WORKERS, new_player


def _apply(s: dict, player: int, delta: dict) -> None:
    me = s["players"][player]
    for res, n in delta.items():
        me[res] += n
        if res == "object" and n > 0:
            me["created"] += n  # DW-AMB-23


def _pop(s: dict) -> None:
    if s["queue"]:
        s["queue"].pop(0)


def evolve(s: dict, ev: Event) -> dict:
    t, d = ev["type"], ev["data"]
    if t == "GameSetUp":
        s.update(options=d["options"], seats=d["seats"], automaton=d["automaton"], level=d["level"],
                 first=d["first"], players=[new_player(pid) for pid in d["players"]],
                 areas=[{"stacks": {}, "mountain": [], "piles": [[], [], []]} for _ in range(d["areas"])])
    elif t == "MineLaid":
        s["areas"][d["area"]]["stacks"] = {loc: [cid] for loc, cid in d["cards"].items()}
    elif t == "MountainShuffled":
        s["areas"][d["area"]]["mountain"] = list(d["cards"])
    elif t == "PilesDealt":
        s["areas"][d["area"]]["piles"] = [list(p) for p in d["piles"]]
    elif t == "RoundStarted":
        k = len(s["players"])
        s.update(round=d["round"], phase="mining", workers={}, queue=[], unplaced=[NORMAL_WORKERS] * k,
                 pile_workers=[0] * k, extras=[0] * k, extras_used=[0] * k, first_refs=[None] * k,
                 last_ref=None, last_mined=None, banned=None)
    elif t == "CardMined":
        area = s["areas"][d["area"]]
        area["mountain"].pop(0)
        area["stacks"][d["location"]].append(d["card"])
        s["last_mined"] = {"area": d["area"], "card": d["card"]}
    elif t == "SelectionStarted":
        s.update(phase="select", queue=[dict(q) for q in d["queue"]])
    elif t == "WorkerPlaced":
        p = d["player"]
        s["seq"] += 1
        s["workers"][d["place"]] = {"player": p, "extra": d["extra"], "seq": s["seq"], "card": d["card"],
                                    "type": d["action"], "done": False}
        if d["extra"]:
            s["extras_used"][p] += 1
        else:
            s["unplaced"][p] -= 1
        if d["slot"] == "first":
            s["first_refs"][p] = {"area": int(d["place"].split(":")[0]), "card": d["card"]}
        s["last_ref"] = {"player": p, "area": int(d["place"].split(":")[0]), "card": d["card"]}
        if d["slot"] != "instant":
            _pop(s)
    elif t == "ExtrasGranted":
        s["extras"][d["player"]] = min(EXTRA_WORKERS, s["extras"][d["player"]] + d["count"])
    elif t == "SpecialActionTaken":
        p = d["player"]
        area = s["areas"][d["pile"] // 3]
        area["piles"][d["pile"] % 3].pop(0)
        s["unplaced"][p] -= d["workers"]
        s["pile_workers"][p] += d["workers"]
        _apply(s, p, {r: -n for r, n in d["paid"].items()})
        s["players"][p]["specials"] += 1
        s["first_refs"][p] = {"area": d["pile"] // 3, "card": d["card"]}
        s["last_ref"] = {"player": p, "area": d["pile"] // 3, "card": d["card"]}
        _pop(s)
    elif t in ("Gained", "ActionResolved"):
        _apply(s, d["player"], d["delta"])
    elif t == "ThreatApplied":
        for p, delta in d["deltas"].items():
            _apply(s, int(p), delta)
        if d.get("ban_next"):
            s["ban_next"] = d["ban_next"]
    elif t == "WorkerActedEarly":
        s["workers"][d["place"]]["done"] = True
    elif t == "CardPlacedInMine":
        area, _, loc = d["place"].partition(":")
        s["areas"][int(area)]["stacks"][loc].append(d["card"])
    elif t in ("PlacementSkipped", "ExtraDeclined"):
        if t == "ExtraDeclined":
            s["extras_used"][d["player"]] += 1
        _pop(s)
    elif t == "HelpStarted":
        s.update(phase="help", queue=[dict(q) for q in d["queue"]])
    elif t == "ResolutionStarted":
        s.update(phase="resolve", queue=[])
    elif t == "MarkerPassed":
        s["first"] = d["to"]
    elif t == "ActionsBanned":
        s["banned"] = d["action"]
        if d["carried_over"]:
            s["ban_next"] = None
    elif t == "EndTriggered":
        s["end_pending"] = d["reason"]
    elif t == "RoundEnded":
        k = len(s["players"])
        s.update(phase="round_end", workers={}, queue=[], unplaced=[NORMAL_WORKERS] * k, pile_workers=[0] * k)
    elif t == "GameEnded":
        s.update(phase="over", ended=d["reason"], queue=[])
    # ActionFailed, ActionSkipped: facts for the replay; nothing to fold.
    return s
