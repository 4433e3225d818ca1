"""The solo race against Andvettr (DW-END-1 against DW-AND-8), as a win chance for the search.

Against Andvettr the player wins only if the game ends by Objects (DW-END-1; his 4th Object
ends it too) or an empty Mountain (DW-END-2) and then on the scores (DW-SCORE), before he
holds 13 Medals (DW-AND-8, DW-AMB-32). He earns a Medal on every Defend location one of his
workers stands on (DW-RES-5; 2 under rules dwarf-3's reading, DW-AND-5, DW-AMB-31), and
Medals for the player's Special Actions (DW-AND-6). A round's end table
says how close each side is: the Medals he lacks, the Defend locations showing, the
player's Objects, the Objects the holdings pay for now (the recipes on offer) or later, and
the leads in Steel and Gold that the scores will count.

``chance`` is a logistic model of the player's win over these features. Its weights were
fitted (``python -m benchmarks.dwarf_race 800``) to the 21063 round ends of 1600 solo games
of the ``greedy`` bot under rules dwarf-4, 800 against each Andvettr (the player won 80 %; area
under the ROC curve 0.81 on the quarter of the games held out). The features overlap (Objects, rounds and holdings grow together), so
single weights mean little; the whole ranks tables.
"""
from __future__ import annotations

from domain.dwarf.versions.dwarf_5 import content
from domain.dwarf.versions.dwarf_5.actions import is_andvettr
from domain.dwarf.versions.dwarf_5.grid import places
from domain.dwarf.versions.dwarf_5.rounds import special_limit_reached
from domain.dwarf.versions.dwarf_5.state import pile_at, piles, top_effect
from domain.kit import squash

FEATURES = ("bias", "medals_lacking", "defends", "objects", "ready", "units", "medals", "specials",
            "his_objects", "steel_lead", "gold_lead", "round")
WEIGHTS = (-3.915, 0.467, -0.513, 0.931, 0.269, 0.172, 0.297, 0.232, -0.008, 0.611, 0.242, 0.143)
UNITS_PER_OBJECT = 4.0  # every Forge recipe costs about four units (DW-GLOS-3; Steel is 1.5 Iron)


def tops(s: dict) -> list[content.Effect]:
    """The effect each location shows (DW-CARD-2), in reading order."""
    return [top_effect(s, w) for w in places(len(s["areas"]))]


def defends(s: dict, showing: list[content.Effect] | None = None) -> int:
    """How many locations show a Defend card (DW-RES-5): where his workers earn Medals."""
    return sum(1 for e in showing or tops(s) if e.type == "defend")


def recipes(s: dict, seat: int, showing: list[content.Effect] | None = None) -> list[dict]:
    """The costs of the Objects on offer: each Forge card showing in the Mine (DW-RES-4) and each
    Special Action on a pile's top that makes one (DW-AMB-19), while the player may still take
    one (DW-SPEC-9)."""
    out = [e.cost for e in showing or tops(s) if e.type == "forge"]
    if not special_limit_reached(s, seat):
        for i in piles(s):
            pile = pile_at(s, i)
            face = content.special_of(pile[0]) if pile else None
            if face is not None and face.gain.get("object"):
                out.append(face.cost)
    return out


def units(player: dict) -> float:
    """The Objects a player's holdings come to, at about four units an Object."""
    return (player["iron"] + player["gold"] + 1.5 * player["steel"]) / UNITS_PER_OBJECT


def ready(held: dict, costs: list[dict], most: int) -> int:
    """How many of ``costs`` (each once) ``held`` pays together, up to ``most``."""
    best = 0
    for i, cost in enumerate(costs):
        if best >= most:
            break
        if cost in costs[:i]:
            continue  # the same recipe again: tried already
        if all(held[r] >= n for r, n in cost.items()):
            rest = dict(held)
            for r, n in cost.items():
                rest[r] -= n
            best = max(best, 1 + ready(rest, costs[i + 1:], most - 1))
    return best


def features(s: dict, seat: int) -> tuple[float, ...]:
    """The round-end table as ``FEATURES`` for ``seat`` against the automaton."""
    me, him = s["players"][seat], s["players"][s["automaton"]]
    showing = tops(s)
    return (1.0, s["options"]["andvettr_medal_win_threshold"] - him["medal"], min(defends(s, showing), 3),
            me["created"], ready(me, recipes(s, seat, showing), max(0, 4 - me["created"])),
            units(me), me["medal"] / 4, me["specials"],
            him["created"], (me["steel"] - him["steel"]) / 4, (me["gold"] - him["gold"]) / 4, s["round"] / 4)


def chance(s: dict, seat: int) -> float | None:
    """The player's chance to win from the round-end table ``s``; None when not playing against
    Andvettr or his father."""
    auto = s["automaton"]
    if auto is None or not is_andvettr(s, auto):
        return None
    x = sum(w * f for w, f in zip(WEIGHTS, features(s, seat)))
    return squash(max(-30.0, min(30.0, x)))

