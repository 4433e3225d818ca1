"""Event appliers: ``APPLY[type](state, data)`` mutates the state in place.

Total by construction for events ``decide`` produced: every check happened in
``decide``; these functions only move tokens and cards. Each applier is named
after the event type it applies.
"""
from __future__ import annotations

from domain.kit import evolver

from . import terrain
from .catalog import level, top_row
from .content import RESOURCES
from .economy import add, apply_payment, to_store
from .roster import fill
from .state import STEPS, key, store_of

APPLY = {}


def applies(fn):
    APPLY[fn.__name__] = fn
    return fn


# --- setup -----------------------------------------------------------------

@applies
def TableSet(s, d):
    s.update({
        "n": d["players"], "board": d["board"], "options": dict(d["options"]), "teams": d["teams"],
        "store_of": d["store_of"],
        "colours": d["colours"], "order": list(d["order"]),
        "supply": dict(d["supply"]), "tiles": dict(d["tiles"]), "halls": list(d["halls"]),
        "ped_track": dict(d["ped_track"]),
        "coronation": {"left": list(d["coronation"]), "taken": {}},
        "stores": [{r: 0 for r in RESOURCES} for _ in range(max(d["store_of"]) + 1)],
        "peds": [{"fire": 0, "ice": 0, "moon": 0} for _ in range(max(d["store_of"]) + 1)],
        "ped_tokens": [[] for _ in range(max(d["store_of"]) + 1)],
        "honor": [0] * (max(d["store_of"]) + 1),
        "rosters": [{} for _ in range(d["players"])],
        "levels": [0] * d["players"],
        "phase": "setup", "current": None, "round": 0, "turns_left": None,
        "turn": None, "turns_played": 0, "door_points": [None] * d["players"],
    })
    terrain.setup(s)
    return s


@applies
def HordeDealt(s, d):
    s["horde"] = {"slots": {sl: {"card": c, "bribes": {}, "ped": None} for sl, c in d["slots"].items()},
                  "decks": {lv: list(cards) for lv, cards in d["decks"].items()}}


@applies
def PedestalsDrawn(s, d):
    for sl, clan in d["slots"].items():
        s["horde"]["slots"][sl]["ped"] = clan
    s["bag"] = dict(d["bag"])


@applies
def WorkshopsRevealed(s, d):
    s["ws_supply"] = list(d["kinds"])


@applies
def SpellbookRevealed(s, d):
    s["spells"] = {"book": [{"id": c, "runes": 0} for c in d["book"]], "deck": list(d["deck"])}


@applies
def StatuesPlaced(s, d):
    terrain.place_statues(s, d["statues"])


@applies
def StarterDecksShuffled(s, d):
    s["draft"] = [{"deck": list(deck), "hand": [], "placed": {}} for deck in d["decks"]]


@applies
def PhaseBegan(s, d):
    s["phase"] = d["phase"]
    s["current"] = d.get("seat")


@applies
def DoorPlaced(s, d):
    terrain.place_door(s, d["seat"], d["point"])
    s["door_points"][d["seat"]] = d["point"]
    s["current"] = d["next"]


# --- starter draft (MK-PSETUP-4..8) ----------------------------------------

@applies
def StartersDrawn(s, d):
    dr = s["draft"][d["seat"]]
    for _ in range(d["count"]):
        dr["hand"].append(dr["deck"].pop(0))


@applies
def StarterPlaced(s, d):
    dr = s["draft"][d["seat"]]
    dr["hand"].remove(d["card"])
    dr["placed"][str(d["slot"])] = d["card"]
    s["rosters"][d["seat"]][key((1, d["slot"]))] = {"card": d["card"], "held": [False] * len(top_row(d["card"]))}


@applies
def StartingResourcesTaken(s, d):
    to_store(s, d["seat"], d["resources"])


@applies
def DraftFinished(s, d):
    s["draft"] = None  # MK-PSETUP-8: unplaced starters go back to the box


# --- turns -----------------------------------------------------------------

@applies
def TurnStarted(s, d):
    s["phase"] = "play"
    s["current"] = d["seat"]
    s["round"] = d["round"]
    # acted: step 2 is over -- recruited, dug or skipped (MK-ACT-4); it never comes back (MK-TURN-3)
    s["turn"] = {"seat": d["seat"], "step": "spells", "spell": False, "ws": None, "acted": False,
                 "hall": False, "flags": [], "dug": None}


@applies
def StepBegan(s, d):
    s["turn"]["step"] = d["step"]
    if STEPS.index(d["step"]) > 0 and s["turn"]["ws"] is not None:
        s["turn"]["ws"]["left"] = 0  # MK-TURN-3: the activation is over
    if STEPS.index(d["step"]) > STEPS.index("action"):
        s["turn"]["acted"] = True  # step 2 is over, done or skipped (MK-TURN-3)


@applies
def TurnEnded(s, d):
    s["turn"] = None
    s["turns_played"] += 1
    if s["turns_left"] is not None:
        s["turns_left"] -= 1


@applies
def EndTriggered(s, d):
    s["turns_left"] = d["turns_left"] + 1  # the trigger turn itself ends first


@applies
def GameEnded(s, d):
    s["phase"] = "over"
    s["current"] = None
    s["final"] = d["scores"]


# --- resources ---------------------------------------------------------------

@applies
def Traded(s, d):
    add(s["supply"], apply_payment(s, d["seat"], d["paid"]))
    to_store(s, d["seat"], d["gained"])


@applies
def ResourcesExchanged(s, d):
    Traded(s, d)


@applies
def ResourcesGained(s, d):
    to_store(s, d["seat"], d["resources"])


@applies
def TokensStored(s, d):
    seat = d["seat"]
    roster = s["rosters"][seat]
    store = s["stores"][store_of(s, seat)]
    for pos, i in d["tokens"]:
        roster[pos]["held"][i] = False
        res = top_row(roster[pos]["card"])[i].split(":")[0]
        store[res] += 1  # a clan cart in storage is wild (MK-CART-4)


@applies
def TurnFlagSet(s, d):
    s["turn"]["flags"].append(d["flag"])


# --- spells ----------------------------------------------------------------

@applies
def SpellCast(s, d):
    apply_payment(s, d["seat"], d["paid"])  # the rune goes onto the card (MK-RES-3)
    s["turn"]["spell"] = True
    if s["turn"]["ws"] is not None:
        s["turn"]["ws"]["left"] = 0  # MK-AMB-16: the activation block is over
    for card in s["spells"]["book"]:
        if card["id"] == d["spell"]:
            card["runes"] = d["runes"]


@applies
def SpellDisintegrated(s, d):
    book = s["spells"]["book"]
    idx = next(i for i, c in enumerate(book) if c["id"] == d["spell"])
    s["supply"]["rune"] += book[idx]["runes"]
    deck = s["spells"]["deck"] + [d["spell"]]
    book[idx] = {"id": deck.pop(0), "runes": 0}
    s["spells"]["deck"] = deck


# --- horde -----------------------------------------------------------------

@applies
def BribesPlaced(s, d):
    spot = s["horde"]["slots"][d["slot"]]
    if d["paid"] is None:
        add(s["supply"], d["resources"], -1)
    else:
        apply_payment(s, d["seat"], d["paid"])
    add(spot["bribes"], d["resources"])


@applies
def BribesCollected(s, d):
    spot = s["horde"]["slots"][d["slot"]]
    add(s["stores"][store_of(s, d["seat"])], d["resources"])
    spot["bribes"] = {}


@applies
def PedestalTaken(s, d):
    s["bag"][d["clan"]] -= 1
    s["peds"][store_of(s, d["seat"])][d["clan"]] += 1


@applies
def TrollRecruited(s, d):
    seat = d["seat"]
    apply_payment(s, seat, d["paid"])
    slots = s["horde"]["slots"]
    for sl in d["bribed"]:
        add(slots[sl]["bribes"], {"coin": 1})
    spot = slots[d["slot"]]
    add(s["stores"][store_of(s, seat)], d["collected"])  # MK-REC-7
    if d["pedestal"]:
        s["peds"][store_of(s, seat)][d["pedestal"]] += 1  # MK-REC-8
    spot.update({"card": None, "bribes": {}, "ped": None})
    s["rosters"][seat][key(d["position"])] = {"card": d["card"], "held": [False] * len(top_row(d["card"]))}
    s["levels"][seat] += level(d["card"])
    s["turn"]["acted"] = True
    s["turn"]["step"] = "hall"


@applies
def HordeRefilled(s, d):
    spot = s["horde"]["slots"][d["slot"]]
    spot["card"] = d["card"]
    spot["bribes"] = {}
    if d["deck"] is not None:
        s["horde"]["decks"][d["deck"]].pop(0)
    if d["pedestal"]:
        s["bag"][d["pedestal"]] -= 1
        spot["ped"] = d["pedestal"]


@applies
def TrollRetired(s, d):
    spot = s["horde"]["slots"][d["slot"]]
    add(s["supply"], spot["bribes"])  # MK-HORDE-4.2
    s["horde"]["decks"][str(level(d["card"]))].append(d["card"])  # bottom of its printed level (MK-AMB-6)
    spot["card"] = None
    spot["bribes"] = {}


@applies
def TrollsActivated(s, d):
    fill(s, d["seat"], d["filled"])


@applies
def CoronationTaken(s, d):
    s["coronation"]["left"].remove(d["token"])
    s["coronation"]["taken"][str(d["token"])] = d["seat"]


# --- workshops ---------------------------------------------------------------

@applies
def WorkshopActivated(s, d):
    s["turn"]["ws"] = {"space": d["space"], "left": d["uses"]}


@applies
def WorkshopUsed(s, d):
    seat = d["seat"]
    if "move" in d:
        r, i, idx = d["move"]
        TokensStored(s, {"seat": seat, "tokens": [[key((r, i)), idx]]})
    else:
        Traded(s, d)
    s["turn"]["ws"]["left"] -= 1


@applies
def WorkshopEstablished(s, d):
    s["ws_supply"].remove(d["kind"])
    terrain.establish(s, d["space"], d["kind"])


# --- digging, halls, statues -----------------------------------------------------

@applies
def TunnelDug(s, d):
    seat = d["seat"]
    add(s["supply"], apply_payment(s, seat, d["paid"]))
    s["honor"][store_of(s, seat)] += d["honor"]
    s["tiles"][d["tile"]] -= 1
    terrain.dig(s, seat, d)
    s["turn"]["acted"] = True
    s["turn"]["step"] = "followup"
    s["turn"]["dug"] = {"anchor": d["anchor"], "level": d["level"], "cells": d["cells"],
                        "workshops": d["workshops"], "pedestal": False}


@applies
def PedestalPlaced(s, d):
    s["peds"][store_of(s, d["seat"])][d["clan"]] -= 1
    token = s["ped_track"].pop(f"{d['level']}:{d['clan']}")
    s["ped_tokens"][store_of(s, d["seat"])].append(token)
    terrain.place_pedestal(s, d["cell"], d["clan"])
    s["turn"]["dug"]["pedestal"] = True


@applies
def GreatHallBuilt(s, d):
    # free and no honor now (MK-HALL-4); statues keep their spaces (MK-HALL-5)
    s["halls"].remove(d["hall"])
    terrain.build_hall(s, d["seat"], d)
    s["turn"]["hall"] = True
    s["turn"]["step"] = "hall"


@applies
def StatueMoved(s, d):
    if d["paid"] is not None:
        add(s["supply"], apply_payment(s, d["seat"], d["paid"]))
    terrain.move_statue(s, d["from"], d["to"])


evolve = evolver(APPLY)
"""Apply one event to the state in place and return it (an unknown type raises, ``domain.kit.state``)."""
