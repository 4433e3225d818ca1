"""``evolve``: one handler per event type (``domain.kit.evolver``); no rules checks
(``decide`` made them); every resource change is a ``delta`` on a participant."""
from __future__ import annotations

from domain.dwarf.versions.dwarf_1.state import EXTRA_WORKERS, NORMAL_WORKERS, initial, new_player
from domain.kit import Batch, evolver


def _apply(s: dict, player: int, delta: dict) -> None:
    me = s["players"][player]
    for res, n in delta.items():
        me[res] += n
        if res == "object" and n > 0:
            me["created"] += n  # DW-AMB-23


def _pop(s: dict) -> None:
    if s["queue"]:
        s["queue"].pop(0)


def _set_up(s: dict, d: dict) -> None:
    s.update(initial())
    s.update(options=d["options"], seats=d["seats"], automaton=d["automaton"], level=d["level"],
             first=d["first"], players=[new_player(pid) for pid in d["players"]],
             areas=[{"stacks": {}, "mountain": [], "piles": [[], [], []]} for _ in range(d["areas"])])


def _mine_laid(s: dict, d: dict) -> None:
    s["areas"][d["area"]]["stacks"] = {loc: [cid] for loc, cid in d["cards"].items()}


def _mountain_shuffled(s: dict, d: dict) -> None:
    s["areas"][d["area"]]["mountain"] = list(d["cards"])


def _piles_dealt(s: dict, d: dict) -> None:
    s["areas"][d["area"]]["piles"] = [list(p) for p in d["piles"]]


def _round_started(s: dict, d: dict) -> None:
    k = len(s["players"])
    s.update(round=d["round"], phase="mining", workers={}, queue=[], unplaced=[NORMAL_WORKERS] * k,
             pile_workers=[0] * k, extras=[0] * k, extras_used=[0] * k, first_refs=[None] * k,
             last_ref=None, last_mined=None, banned=None)


def _card_mined(s: dict, d: dict) -> None:
    area = s["areas"][d["area"]]
    area["mountain"].pop(0)
    area["stacks"][d["location"]].append(d["card"])
    s["last_mined"] = {"area": d["area"], "card": d["card"]}


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


def _extras_granted(s: dict, d: dict) -> None:
    s["extras"][d["player"]] = min(EXTRA_WORKERS, s["extras"][d["player"]] + d["count"])


def _special_taken(s: dict, d: dict) -> None:
    p, area = d["player"], d["pile"] // 3
    s["areas"][area]["piles"][d["pile"] % 3].pop(0)
    s["unplaced"][p] -= d["workers"]
    s["pile_workers"][p] += d["workers"]
    _apply(s, p, {r: -n for r, n in d["paid"].items()})
    s["players"][p]["specials"] += 1
    s["first_refs"][p] = {"area": area, "card": d["card"]}
    s["last_ref"] = {"player": p, "area": area, "card": d["card"]}
    _pop(s)


def _gained(s: dict, d: dict) -> None:
    _apply(s, d["player"], d["delta"])


def _threat(s: dict, d: dict) -> None:
    for p, delta in d["deltas"].items():
        _apply(s, int(p), delta)
    if d.get("ban_next"):
        s["ban_next"] = d["ban_next"]


def _acted_early(s: dict, d: dict) -> None:
    s["workers"][d["place"]]["done"] = True


def _card_placed(s: dict, d: dict) -> None:
    area, _, loc = d["place"].partition(":")
    s["areas"][int(area)]["stacks"][loc].append(d["card"])


def _declined(s: dict, d: dict) -> None:
    s["extras_used"][d["player"]] += 1
    _pop(s)


def _banned(s: dict, d: dict) -> None:
    s["banned"] = d["action"]
    if d["carried_over"]:
        s["ban_next"] = None


def _round_ended(s: dict, d: dict) -> None:
    k = len(s["players"])
    s.update(phase="round_end", workers={}, queue=[], unplaced=[NORMAL_WORKERS] * k, pile_workers=[0] * k)


def _nothing(s: dict, d: dict) -> None:
    """A fact for the replay (an action that could not be paid); no state changes."""


HANDLERS = {
    "GameSetUp": _set_up,
    "MineLaid": _mine_laid,
    "MountainShuffled": _mountain_shuffled,
    "PilesDealt": _piles_dealt,
    "RoundStarted": _round_started,
    "CardMined": _card_mined,
    "SelectionStarted": lambda s, d: s.update(phase="select", queue=[dict(q) for q in d["queue"]]),
    "WorkerPlaced": _worker_placed,
    "ExtrasGranted": _extras_granted,
    "SpecialActionTaken": _special_taken,
    "Gained": _gained,
    "ActionResolved": _gained,
    "ActionFailed": _nothing,
    "ThreatApplied": _threat,
    "WorkerActedEarly": _acted_early,
    "CardPlacedInMine": _card_placed,
    "PlacementSkipped": lambda s, d: _pop(s),
    "ExtraDeclined": _declined,
    "HelpStarted": lambda s, d: s.update(phase="help", queue=[dict(q) for q in d["queue"]]),
    "ResolutionStarted": lambda s, d: s.update(phase="resolve", queue=[]),
    "MarkerPassed": lambda s, d: s.update(first=d["to"]),
    "ActionsBanned": _banned,
    "EndTriggered": lambda s, d: s.update(end_pending=d["reason"]),
    "RoundEnded": _round_ended,
    "GameEnded": lambda s, d: s.update(phase="over", ended=d["reason"], queue=[]),
}
evolve = evolver(HANDLERS)


def batch(state: dict) -> Batch:
    """A kit Batch folding with DWARF's evolve."""
    return Batch(state, evolve)
