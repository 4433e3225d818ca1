"""Human labels of DWARF's commands (``BaseGame.label``) and of the solo automaton's steps
(``rules_actor_label``). Everything on the table is public (DW-CARD-3): a location is named by
the effect on top of its stack, a Special Action pile by its top card's special side (DW-AMB-19)."""
from __future__ import annotations

from itertools import takewhile

from domain.dwarf.versions.dwarf_5 import content
from domain.dwarf.versions.dwarf_5.grid import split
from domain.kit import wording


def _where(state: dict, place: dict) -> str:
    """``Gold Vein at 12`` (``in Mine 1`` when the table has two play areas: the views number them 0, 1)."""
    mine = place.get("mine", 0)
    stack = state["areas"][mine]["stacks"].get(place["location"], [])
    name = f"{content.effect_of(stack[-1]).name} at " if stack else ""
    second = f" in Mine {mine}" if len(state["areas"]) > 1 else ""
    return f"{name}{place['location']}{second}"


def _trade(effect: content.Effect) -> str:
    """``3 steel -> 1 object``: what an effect costs and gives."""
    cost = f"{wording.bag(effect.cost)} -> " if effect.cost else ""
    return f"{cost}{wording.bag(effect.gain)}"


def _recipe(state: dict, place: dict) -> str:
    """`` (3 steel -> 1 object)``: what the action on top costs and gives, so a player sees what a
    Forge or Mine action needs before placing there (an action it cannot pay fails, DW-RES-6)."""
    stack = state["areas"][place.get("mine", 0)]["stacks"].get(place["location"], [])
    if not stack:
        return ""
    effect = content.effect_of(stack[-1])
    if effect.type not in ("mine", "forge") or not (effect.cost or effect.gain):
        return ""
    return f" ({_trade(effect)})"


def label(state: dict, command: dict) -> str:
    kind = command["type"]
    if kind == "place":
        return f"Place a worker on {_where(state, command)}{_recipe(state, command)}"
    if kind == "special":
        pile = state["areas"][command["pile"] // 3]["piles"][command["pile"] % 3]
        special = content.special_of(pile[0]) if pile else None
        # The face's effect too, so a Special Action is not chosen blind ("Heirloom: 2 iron -> 1 object").
        face = f"{special.name}{f': {_trade(special)}' if special.gain else ''}" if special else f"pile {command['pile']}"
        how = "pay and place one worker" if command.get("pay") else "both workers"
        second = f" in Mine {command['pile'] // 3}" if len(state["areas"]) > 1 else ""  # two copies deal alike piles
        return f"Special Action {face}{second} ({how})"
    if kind == "order":
        return "Act in order: " + ", then ".join(_where(state, p) for p in command["locations"])
    if kind == "pass":
        return "Pass: leave the worker unplaced"
    raise ValueError(f"no label for {kind!r}")


def _placed(state: dict, where: str) -> str:
    """A worker's place (``"0:21"``) as a placement's label names it."""
    mine, loc = split(where)
    place = {"mine": mine, "location": loc}
    return f"{_where(state, place)}{_recipe(state, place)}"


def automaton(state: dict, events: list[dict]) -> str | None:
    """The solo automaton's placement (DW-SOLO-4), from the events of its step, which open with it:
    its worker, and the extras its Receive Help places at once (DW-SOLO-5); or no worker, when
    nothing is usable for Andvettr's father (DW-FAD-2)."""
    me = state["automaton"]
    if not events or events[0]["data"].get("player") != me:
        return None
    if events[0]["type"] == "PlacementSkipped":
        return "Pass: leave the worker unplaced (no usable location)"
    own = takewhile(lambda e: e["type"] in ("WorkerPlaced", "ExtrasGranted") and e["data"]["player"] == me, events)
    first, *extras = [_placed(state, e["data"]["place"]) for e in own if e["type"] == "WorkerPlaced"]
    more = f", and its extra worker{'s' * (len(extras) > 1)} on {' and '.join(extras)}" if extras else ""
    return f"Place a worker on {first}{more}"
