"""Recruiting and horde upkeep, decide side (MK-REC, MK-HORDE, MK-CASC, MK-END-1..3).

Helpers here take a scratch state and an ``emit`` that appends an event and
folds it into that scratch, so each step sees the effects of the previous one.
"""
from __future__ import annotations

from domain.core import event, require

from . import horde
from .economy import plan_payment, spendable
from .roster import FULL, activation, cascade, placements


def bribe_cost(s, seat: int, slot: str) -> int:
    """Coins a recruit from ``slot`` costs now: 0 for the bottom row (MK-REC-1) and under Silver Tongue."""
    if "no_bribes" in s["turn"]["flags"]:
        return 0
    return len(horde.bribe_slots(s, slot))


def can_recruit(s, seat: int) -> bool:
    """MK-AMB-2: roster below 10 and some horde troll's bribes affordable."""
    if len(s["rosters"][seat]) >= FULL:
        return False
    coins = spendable(s, seat).get("coin", 0)
    return any(s["horde"]["slots"][sl]["card"] is not None and bribe_cost(s, seat, sl) <= coins
               for sl in horde.SLOTS)


def check_recruit(s, seat: int, cmd: dict) -> dict:
    """Validate a recruit command; returns the planned payment."""
    require(len(s["rosters"][seat]) < FULL, "roster_full", "MK-ACT-2", "your roster already holds 10 trolls")
    slot = cmd["slot"]
    require(s["horde"]["slots"][slot]["card"] is not None, "empty_slot", "MK-AMB-5", "that horde slot is empty")
    pos = cmd["position"]
    require(pos in placements(s["rosters"][seat]), "bad_position", "MK-CASC-2",
            "the recruit must rest on two of your trolls")
    ped = cmd.get("pedestal")
    if horde.row(slot) == 3:
        require(ped is None or s["bag"].get(ped, 0) > 0, "no_such_pedestal", "MK-REC-9",
                "the bag holds no pedestal of that clan")
    else:
        require(ped is None, "no_pedestal_choice", "MK-REC-9", "only a top-row recruit chooses a pedestal")
    coins = bribe_cost(s, seat, slot)
    return plan_payment(s, seat, {"coin": coins} if coins else {}, "MK-REC-4", cmd.get("sources"))


def recruit(s, seat: int, cmd: dict, rng, emit) -> None:
    paid = check_recruit(s, seat, cmd)
    slot, pos = cmd["slot"], cmd["position"]
    spot = s["horde"]["slots"][slot]
    bribed = [] if "no_bribes" in s["turn"]["flags"] else horde.bribe_slots(s, slot)
    emit(event("TrollRecruited", seat=seat, slot=slot, card=spot["card"], position=pos, paid=paid,
               bribed=bribed, collected=dict(spot["bribes"]), pedestal=spot["ped"]))
    if horde.row(slot) == 3 and cmd.get("pedestal"):
        emit(event("PedestalTaken", seat=seat, clan=cmd["pedestal"], source="bag"))  # MK-REC-9
    refill(s, slot, rng, emit, new_pedestal=horde.row(slot) == 2)  # MK-REC-6
    retire(s, rng, emit)  # MK-REC-10
    emit(event("TrollsActivated", seat=seat, filled=activation(s, seat, cascade(*pos))))  # MK-REC-11
    if len(s["rosters"][seat]) == FULL:
        crown(s, seat, emit)  # MK-REC-12


def refill(s, slot: str, rng, emit, new_pedestal: bool) -> None:
    """MK-HORDE-1/2/3: top card of the slot's deck (with fallback); a middle-row
    slot emptied by a recruit also gets a pedestal drawn blind, none once the bag
    is empty (MK-HORDE-3.1)."""
    deck, card = horde.next_card(s, slot)
    ped = horde.draw_pedestal(s["bag"], rng) if new_pedestal and card is not None else None
    emit(event("HordeRefilled", slot=slot, card=card, deck=deck, pedestal=ped))


def retire(s, rng, emit) -> None:
    """MK-HORDE-4 / MK-AMB-8: every troll with 4+ bribes retires, then refills."""
    gone = horde.retiring(s)
    for slot in gone:
        emit(event("TrollRetired", slot=slot, card=s["horde"]["slots"][slot]["card"],
                   bribes=dict(s["horde"]["slots"][slot]["bribes"])))
    for slot in gone:
        refill(s, slot, rng, emit, new_pedestal=False)


def crown(s, seat: int, emit) -> None:
    """MK-END-1..3: coronation tokens go to the first pyramids completed; the last
    token triggers the end: finish the round, then two more rounds (MK-END-4/5)."""
    if not s["coronation"]["left"]:
        return  # MK-END-7: nothing for a pyramid completed after both tokens
    token = s["coronation"]["left"][0]
    emit(event("CoronationTaken", seat=seat, token=token))
    if not s["coronation"]["left"]:
        place = s["order"].index(seat)
        emit(event("EndTriggered", seat=seat, turns_left=(s["n"] - 1 - place) + 2 * s["n"]))

