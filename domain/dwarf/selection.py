"""Phase 2, action selection (DW-SEL, DW-SPEC), the Receive Help placements
(DW-RES-2) and the order of a player's own actions in a resolution step
(DW-AMB-14): what a participant may do now, and the events of doing it."""
from __future__ import annotations

from domain.core import Command, Illegal, require
from domain.dwarf import automaton, content, ordering
from domain.dwarf.actions import GLORY, carry_out, gain_medals, is_andvettr, net
from domain.dwarf.grid import LOCATIONS, place, split
from domain.dwarf.rounds import special_cost, special_limit_reached, special_piles
from domain.dwarf.state import (
    available,
    card_place,
    free_places,
    has,
    pile_at,
    top,
    top_effect,
)
from domain.kit import Batch


def head(s: dict) -> dict | None:
    return s["queue"][0] if s["phase"] in ("select", "help", "order") and s["queue"] else None


def located(where: str) -> dict:
    """A place as the commands name it: ``{"mine": 0, "location": "23"}``."""
    area, loc = split(where)
    return {"mine": area, "location": loc}


def legal(s: dict, player: int) -> list[Command]:
    h = head(s)
    if h is None or h["player"] != player:
        return []
    if h["slot"] == "order":
        return [{"type": "order", "locations": [located(w) for w in o]}
                for o in ordering.orders(s, player, h["places"])]
    out: list[Command] = [{"type": "place", **located(where)} for where in free_places(s)]
    if h["slot"] == "first":
        both = s["unplaced"][player] >= 2
        pay = has(s, player, special_cost(s))
        for pile in special_piles(s, player):
            if both:
                out.append({"type": "special", "pile": pile, "pay": False})
            if pay:
                out.append({"type": "special", "pile": pile, "pay": True})
    else:
        out.append({"type": "pass"})  # DW-AMB-11 / DW-AMB-12: optional placements
    return out


def place_worker(b: Batch, player: int, where: str, slot: str) -> None:
    """A worker on an available location (DW-SEL-2, DW-CARD-7). The solo automaton's
    Receive Help brings its two extras at once (DW-SOLO-5, DW-ELD-5)."""
    s = b.state
    effect = top_effect(s, where)
    extra = slot in ("extra", "instant")
    b.emit("WorkerPlaced", player=player, place=where, card=top(s, where), action=effect.type,
           extra=extra, slot=slot)
    if player == s["automaton"] and effect.type == "help" and not extra and s["extras"][player] == 0:
        b.emit("ExtrasGranted", player=player, count=2)
        for spot in automaton.extras(s, player, s["level"], where):
            place_worker(b, player, spot, "instant")


def take_special(b: Batch, player: int, pile: int, pay: bool) -> None:
    """DW-SPEC-2..7: pay (both workers, or one worker and the cost), resolve the face
    side at once, then put the Mine side into its copy's Mine (DW-COMB-6); a worker
    standing there first carries out the card it was placed on (DW-SPEC-6, DW-AMB-18),
    once: a worker already covered this round «no se ejecuta de nuevo en esta ronda»."""
    s = b.state
    cid = pile_at(s, pile)[0]
    b.emit("SpecialActionTaken", player=player, pile=pile, card=cid, workers=1 if pay else 2,
           paid=special_cost(s) if pay else {})
    face = content.special_of(cid)
    if has(s, player, face.cost):
        b.emit("Gained", player=player, delta=net(face, 1), why="special", card=cid)
    else:
        b.emit("ActionFailed", player=player, place=None, card=cid, effect=face.id, reason="cannot_pay")
    if is_andvettr(s, s["automaton"]) and \
            gain_medals(b, s["automaton"], GLORY[s["players"][player]["specials"] - 1], "glory"):
        return  # DW-AND-6, DW-AND-8
    where = card_place(cid, pile // 3)
    worker = s["workers"].get(where)
    if worker is not None and not worker["done"]:
        carry_out(b, worker["player"], where, worker["card"])
        b.emit("WorkerActedEarly", place=where, player=worker["player"])
        if s["phase"] == "over":
            return
    b.emit("CardPlacedInMine", place=where, card=cid)


def _where(command: Command, s: dict) -> str:
    mine, loc = command.get("mine", 0), command.get("location")
    require(isinstance(mine, int) and not isinstance(mine, bool) and 0 <= mine < len(s["areas"]),
            "no_such_location", "DW-COMB-1", f"mine must be 0{' or 1' if len(s['areas']) > 1 else ''}")
    require(loc in LOCATIONS, "no_such_location", "DW-GRID-1",
            "location is 'rc' with row and column 1-3, e.g. '23'")
    return place(mine, loc)


def decide(b: Batch, player: int, command: Command) -> None:
    """Check and carry out a seat's command; raises Illegal with the broken rule."""
    s = b.state
    h = head(s)
    require(h is not None and h["player"] == player, "not_your_turn", "DW-SEL-1",
            "it is not your placement; see active_seats")
    kind = command.get("type")
    if h["slot"] == "order":
        require(kind == "order", "order_required", "DW-AMB-14",
                "order your actions of this step first (see legal-actions)")
        order_actions(b, player, h, [_where(x, s) for x in command["locations"]])
    elif kind == "order":
        raise Illegal("order_not_now", "DW-AMB-14", "an order is asked only in a resolution step where yours can matter")
    elif kind == "place":
        where = _where(command, s)
        require(available(s, where), "location_occupied", "DW-CARD-7", "a worker already stands there")
        place_worker(b, player, where, h["slot"])
    elif kind == "special":
        require(h["slot"] == "first", "special_not_now",
                "DW-RES-2" if h["slot"] == "extra" else "DW-AMB-11",
                "a Special Action replaces the first placement only")
        require(not special_limit_reached(s, player), "special_limit", "DW-AND-7",
                "no more than 3 Special Actions against Andvettr")
        pile, pay = command.get("pile"), command.get("pay", False)
        require(isinstance(pile, int) and not isinstance(pile, bool) and 0 <= pile < 3 * len(s["areas"]),
                "no_such_pile", "DW-SPEC-3", f"pile is 0-{3 * len(s['areas']) - 1}")
        require(isinstance(pay, bool), "bad_command", "DW-SPEC-2", "pay is true or false")
        require(bool(pile_at(s, pile)), "pile_empty", "DW-SPEC-8", "that Special Action pile is empty")
        if pay:
            require(has(s, player, special_cost(s)), "cannot_pay", "DW-SPEC-2",
                    f"a Special Action with one worker costs {special_cost(s)}")
        take_special(b, player, pile, pay)
    elif kind == "pass":
        require(h["slot"] != "first", "placement_required", "DW-AMB-11",
                "the first placement is a worker or a Special Action")
        if h["slot"] == "extra":
            b.emit("ExtraDeclined", player=player)
        else:
            b.emit("PlacementSkipped", player=player, slot=h["slot"], declined=True)
    else:
        raise Illegal("unknown_command", None, f"unknown command type {kind!r}; use place, special, pass or order")


def order_actions(b: Batch, player: int, h: dict, chosen: list[str]) -> None:
    """DW-AMB-14: carry out the player's waiting actions of this step in their order,
    which names each of them once, normal workers first (DW-AMB-13)."""
    s = b.state
    require(sorted(chosen) == sorted(h["places"]), "bad_order", "DW-AMB-14",
            f"name each of your workers waiting in the {h['step']} step once: {h['places']}")
    require(chosen in ordering.orders(s, player, h["places"]), "bad_order", "DW-AMB-13",
            "normal workers act before extra workers")
    b.emit("ActionsOrdered", player=player, step=h["step"], places=chosen)
    for where in chosen:
        carry_out(b, player, where)


def automaton_step(b: Batch) -> None:
    """The solo automaton's placement (DW-SOLO-4, DW-ELD-2/3, DW-AND-2, DW-FAD-2)."""
    s = b.state
    h = head(s)
    player = s["automaton"]
    if h["slot"] == "first":
        ref = s["last_mined"]
    else:
        ref = s["first_refs"][0]
    where = automaton.choose(s, player, s["level"], h["slot"] == "second", ref)
    if where is None:
        b.emit("PlacementSkipped", player=player, slot=h["slot"], declined=True)
    else:
        place_worker(b, player, where, h["slot"])
