"""How each event changes the state. Total for every event ``decide`` emits."""
from __future__ import annotations


from domain.kit import Handlers
from domain.saboteur.content import GOAL_CELLS, GOLD, ROUNDS, START_CELL, START_SHAPE
from domain.saboteur.maze import key
from domain.saboteur.state import SaboteurState

S = SaboteurState


handlers = Handlers()


@handlers.on("GameSetUp")
def _game_set_up(s: S, d: dict) -> None:
    s["players"] = d["players"]
    s["options"] = dict(d["options"])
    s["gold"] = [[[] for _ in range(ROUNDS)] for _ in range(s["players"])]
    s["gold_deck"] = sorted(GOLD)


@handlers.on("RoundStarted")
def _round_started(s: S, d: dict) -> None:
    """SAB-NEXT-1/2: a fresh layout, empty hands and no broken tools."""
    n = s["players"]
    s["round"] = d["round"]
    s["phase"] = "setup"
    s["turn"] = None
    s["maze"] = {key(*START_CELL): {"card": "start", "shape": START_SHAPE, "rotated": False, "by": None}}
    s["goals"] = {g: {"x": x, "y": y, "shape": None, "revealed": False} for g, (x, y) in GOAL_CELLS.items()}
    s["roles"] = [None] * n
    s["leftover"] = None
    s["roles_revealed"] = False
    s["hands"] = [[] for _ in range(n)]
    s["deck"] = []
    s["discard"] = []
    s["broken"] = [{} for _ in range(n)]
    s["peeks"] = [{} for _ in range(n)]
    s["bundle"], s["holder"], s["payees"], s["pay"] = [], None, [], 0
    s["last_player"] = None


@handlers.on("GoalsShuffled")
def _goals_shuffled(s: S, d: dict) -> None:
    for g, shape in d["goals"].items():
        s["goals"][g]["shape"] = shape


@handlers.on("RoleDealt")
def _role_dealt(s: S, d: dict) -> None:
    s["roles"][d["seat"]] = d["role"]


@handlers.on("RoleSetAside")
def _role_set_aside(s: S, d: dict) -> None:
    s["leftover"] = d["role"]


@handlers.on("DeckShuffled")
def _deck_shuffled(s: S, d: dict) -> None:
    s["deck"] = list(d["cards"])


@handlers.on("HandDealt")
def _hand_dealt(s: S, d: dict) -> None:
    dealt = set(d["cards"])
    s["hands"][d["seat"]] = list(d["cards"])
    s["deck"] = [c for c in s["deck"] if c not in dealt]


@handlers.on("TurnStarted")
def _turn_started(s: S, d: dict) -> None:
    s["phase"] = "play"
    s["turn"] = d["seat"]


def _play(s: S, seat: int, card: str) -> None:
    s["hands"][seat].remove(card)
    s["last_player"] = seat


@handlers.on("PathPlaced")
def _path_placed(s: S, d: dict) -> None:
    _play(s, d["seat"], d["card"])
    s["maze"][key(d["x"], d["y"])] = {
        "card": d["card"], "shape": d["shape"], "rotated": d["rotated"], "by": d["seat"],
    }


@handlers.on("ToolBroken")
def _tool_broken(s: S, d: dict) -> None:
    _play(s, d["seat"], d["card"])
    s["broken"][d["target"]][d["tool"]] = {"card": d["card"], "by": d["seat"]}


@handlers.on("ToolRepaired")
def _tool_repaired(s: S, d: dict) -> None:
    _play(s, d["seat"], d["card"])
    del s["broken"][d["target"]][d["tool"]]
    s["discard"] += [
        {"card": d["card"], "face_up": True, "by": d["seat"]},
        {"card": d["broken_card"], "face_up": True, "by": d["seat"]},
    ]


@handlers.on("PathCollapsed")
def _path_collapsed(s: S, d: dict) -> None:
    _play(s, d["seat"], d["card"])
    del s["maze"][key(d["x"], d["y"])]
    s["discard"] += [
        {"card": d["card"], "face_up": True, "by": d["seat"]},
        {"card": d["removed"], "face_up": True, "by": d["seat"]},
    ]


@handlers.on("GoalPeeked")
def _goal_peeked(s: S, d: dict) -> None:
    _play(s, d["seat"], d["card"])
    s["peeks"][d["seat"]][d["goal"]] = d["shape"]
    s["discard"].append({"card": d["card"], "face_up": True, "by": d["seat"]})


@handlers.on("CardDiscarded")
def _card_discarded(s: S, d: dict) -> None:
    _play(s, d["seat"], d["card"])
    s["discard"].append({"card": d["card"], "face_up": False, "by": d["seat"]})


@handlers.on("TurnPassed")
def _turn_passed(s: S, d: dict) -> None:
    s["turn"] = None


@handlers.on("CardDrawn")
def _card_drawn(s: S, d: dict) -> None:
    s["deck"].remove(d["card"])
    s["hands"][d["seat"]].append(d["card"])


@handlers.on("GoalRevealed")
def _goal_revealed(s: S, d: dict) -> None:
    g = s["goals"][d["goal"]]
    g["revealed"] = True
    s["maze"][key(g["x"], g["y"])] = {
        "card": f"goal-{d['goal']}", "shape": d["shape"], "rotated": d["rotated"], "by": None,
    }


@handlers.on("RoundEnded")
def _round_ended(s: S, d: dict) -> None:
    s["phase"] = "gold"
    s["turn"] = None
    s["history"].append({k: d[k] for k in ("round", "reason", "winner", "finder")})


@handlers.on("RolesRevealed")
def _roles_revealed(s: S, d: dict) -> None:
    s["roles_revealed"] = True
    s["history"][-1].update(roles=list(d["roles"]), leftover=d["leftover"])


@handlers.on("GoldBundleDrawn")
def _gold_bundle_drawn(s: S, d: dict) -> None:
    for v in d["values"]:
        s["gold_deck"].remove(v)
    s["bundle"] = list(d["values"])
    s["holder"] = d["holder"]


@handlers.on("GoldKept")
def _gold_kept(s: S, d: dict) -> None:
    s["bundle"].remove(d["value"])
    s["gold"][d["seat"]][s["round"] - 1].append(d["value"])
    if not s["bundle"]:
        s["holder"] = None


@handlers.on("GoldBundlePassed")
def _gold_bundle_passed(s: S, d: dict) -> None:
    s["holder"] = d["to"]


@handlers.on("GoldPayoutDue")
def _gold_payout_due(s: S, d: dict) -> None:
    s["payees"] = list(d["payees"])
    s["pay"] = d["nuggets"]


@handlers.on("GoldPaid")
def _gold_paid(s: S, d: dict) -> None:
    for v in d["values"]:
        s["gold_deck"].remove(v)
    s["gold"][d["seat"]][s["round"] - 1].extend(d["values"])
    s["payees"].remove(d["seat"])


@handlers.on("GoldRevealed")
def _gold_revealed(s: S, d: dict) -> None:
    s["phase"] = "over"


evolve = handlers.evolver()
"""Apply one event to the state in place and return it (an unknown type raises, ``domain.kit.state``)."""
