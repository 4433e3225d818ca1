"""Event handlers (``domain.kit.Handlers``): each mutates the state in place.

Total by construction for events ``decide`` produced: every check happened in
``decide``; these functions only move tokens and cards.
"""
from __future__ import annotations

from domain.kit import Handlers

from . import terrain
from .catalog import level, top_row
from .content import RESOURCES
from .economy import add, apply_payment, to_store
from .roster import fill
from .state import STEPS, key, store_of

handlers = Handlers()


# --- setup -----------------------------------------------------------------

@handlers.on("TableSet")
def _table_set(s, d):
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


@handlers.on("HordeDealt")
def _horde_dealt(s, d):
    s["horde"] = {"slots": {sl: {"card": c, "bribes": {}, "ped": None} for sl, c in d["slots"].items()},
                  "decks": {lv: list(cards) for lv, cards in d["decks"].items()}}


@handlers.on("PedestalsDrawn")
def _pedestals_drawn(s, d):
    for sl, clan in d["slots"].items():
        s["horde"]["slots"][sl]["ped"] = clan
    s["bag"] = dict(d["bag"])


@handlers.on("WorkshopsRevealed")
def _workshops_revealed(s, d):
    s["ws_supply"] = list(d["kinds"])


@handlers.on("SpellbookRevealed")
def _spellbook_revealed(s, d):
    s["spells"] = {"book": [{"id": c, "runes": 0} for c in d["book"]], "deck": list(d["deck"])}


@handlers.on("StatuesPlaced")
def _statues_placed(s, d):
    terrain.place_statues(s, d["statues"])


@handlers.on("StarterDecksShuffled")
def _starter_decks_shuffled(s, d):
    s["draft"] = [{"deck": list(deck), "hand": [], "placed": {}} for deck in d["decks"]]


@handlers.on("PhaseBegan")
def _phase_began(s, d):
    s["phase"] = d["phase"]
    s["current"] = d.get("seat")


@handlers.on("DoorPlaced")
def _door_placed(s, d):
    terrain.place_door(s, d["seat"], d["point"])
    s["door_points"][d["seat"]] = d["point"]
    s["current"] = d["next"]


# --- starter draft (MK-PSETUP-4..8) ----------------------------------------

@handlers.on("StartersDrawn")
def _starters_drawn(s, d):
    dr = s["draft"][d["seat"]]
    for _ in range(d["count"]):
        dr["hand"].append(dr["deck"].pop(0))


@handlers.on("StarterPlaced")
def _starter_placed(s, d):
    dr = s["draft"][d["seat"]]
    dr["hand"].remove(d["card"])
    dr["placed"][str(d["slot"])] = d["card"]
    s["rosters"][d["seat"]][key((1, d["slot"]))] = {"card": d["card"], "held": [False] * len(top_row(d["card"]))}


@handlers.on("StartingResourcesTaken")
def _starting_resources_taken(s, d):
    to_store(s, d["seat"], d["resources"])


@handlers.on("DraftFinished")
def _draft_finished(s, d):
    s["draft"] = None  # MK-PSETUP-8: unplaced starters go back to the box


# --- turns -----------------------------------------------------------------

@handlers.on("TurnStarted")
def _turn_started(s, d):
    s["phase"] = "play"
    s["current"] = d["seat"]
    s["round"] = d["round"]
    # acted: step 2 is over -- recruited, dug or skipped (MK-ACT-4); it never comes back (MK-TURN-3)
    s["turn"] = {"seat": d["seat"], "step": "spells", "spell": False, "ws": None, "acted": False,
                 "hall": False, "flags": [], "dug": None}


@handlers.on("StepBegan")
def _step_began(s, d):
    s["turn"]["step"] = d["step"]
    if STEPS.index(d["step"]) > 0 and s["turn"]["ws"] is not None:
        s["turn"]["ws"]["left"] = 0  # MK-TURN-3: the activation is over
    if STEPS.index(d["step"]) > STEPS.index("action"):
        s["turn"]["acted"] = True  # step 2 is over, done or skipped (MK-TURN-3)


@handlers.on("TurnEnded")
def _turn_ended(s, d):
    s["turn"] = None
    s["turns_played"] += 1
    if s["turns_left"] is not None:
        s["turns_left"] -= 1


@handlers.on("EndTriggered")
def _end_triggered(s, d):
    s["turns_left"] = d["turns_left"] + 1  # the trigger turn itself ends first


@handlers.on("GameEnded")
def _game_ended(s, d):
    s["phase"] = "over"
    s["current"] = None
    s["final"] = d["scores"]


# --- resources ---------------------------------------------------------------

@handlers.on("Traded")
def _traded(s, d):
    add(s["supply"], apply_payment(s, d["seat"], d["paid"]))
    to_store(s, d["seat"], d["gained"])


@handlers.on("ResourcesExchanged")
def _resources_exchanged(s, d):
    _traded(s, d)


@handlers.on("ResourcesGained")
def _resources_gained(s, d):
    to_store(s, d["seat"], d["resources"])


@handlers.on("TokensStored")
def _tokens_stored(s, d):
    seat = d["seat"]
    roster = s["rosters"][seat]
    store = s["stores"][store_of(s, seat)]
    for pos, i in d["tokens"]:
        roster[pos]["held"][i] = False
        res = top_row(roster[pos]["card"])[i].split(":")[0]
        store[res] += 1  # a clan cart in storage is wild (MK-CART-4)


@handlers.on("TurnFlagSet")
def _turn_flag_set(s, d):
    s["turn"]["flags"].append(d["flag"])


# --- spells ----------------------------------------------------------------

@handlers.on("SpellCast")
def _spell_cast(s, d):
    apply_payment(s, d["seat"], d["paid"])  # the rune goes onto the card (MK-RES-3)
    s["turn"]["spell"] = True
    if s["turn"]["ws"] is not None:
        s["turn"]["ws"]["left"] = 0  # MK-AMB-16: the activation block is over
    for card in s["spells"]["book"]:
        if card["id"] == d["spell"]:
            card["runes"] = d["runes"]


@handlers.on("SpellDisintegrated")
def _spell_disintegrated(s, d):
    book = s["spells"]["book"]
    idx = next(i for i, c in enumerate(book) if c["id"] == d["spell"])
    s["supply"]["rune"] += book[idx]["runes"]
    deck = s["spells"]["deck"] + [d["spell"]]
    book[idx] = {"id": deck.pop(0), "runes": 0}
    s["spells"]["deck"] = deck


# --- horde -----------------------------------------------------------------

@handlers.on("BribesPlaced")
def _bribes_placed(s, d):
    spot = s["horde"]["slots"][d["slot"]]
    if d["paid"] is None:
        add(s["supply"], d["resources"], -1)
    else:
        apply_payment(s, d["seat"], d["paid"])
    add(spot["bribes"], d["resources"])


@handlers.on("BribesCollected")
def _bribes_collected(s, d):
    spot = s["horde"]["slots"][d["slot"]]
    add(s["stores"][store_of(s, d["seat"])], d["resources"])
    spot["bribes"] = {}


@handlers.on("PedestalTaken")
def _pedestal_taken(s, d):
    s["bag"][d["clan"]] -= 1
    s["peds"][store_of(s, d["seat"])][d["clan"]] += 1


@handlers.on("TrollRecruited")
def _troll_recruited(s, d):
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


@handlers.on("HordeRefilled")
def _horde_refilled(s, d):
    spot = s["horde"]["slots"][d["slot"]]
    spot["card"] = d["card"]
    spot["bribes"] = {}
    if d["deck"] is not None:
        s["horde"]["decks"][d["deck"]].pop(0)
    if d["pedestal"]:
        s["bag"][d["pedestal"]] -= 1
        spot["ped"] = d["pedestal"]


@handlers.on("TrollRetired")
def _troll_retired(s, d):
    spot = s["horde"]["slots"][d["slot"]]
    add(s["supply"], spot["bribes"])  # MK-HORDE-4.2
    s["horde"]["decks"][str(level(d["card"]))].append(d["card"])  # bottom of its printed level (MK-AMB-6)
    spot["card"] = None
    spot["bribes"] = {}


@handlers.on("TrollsActivated")
def _trolls_activated(s, d):
    fill(s, d["seat"], d["filled"])


@handlers.on("CoronationTaken")
def _coronation_taken(s, d):
    s["coronation"]["left"].remove(d["token"])
    s["coronation"]["taken"][str(d["token"])] = d["seat"]


# --- workshops ---------------------------------------------------------------

@handlers.on("WorkshopActivated")
def _workshop_activated(s, d):
    s["turn"]["ws"] = {"space": d["space"], "left": d["uses"]}


@handlers.on("WorkshopUsed")
def _workshop_used(s, d):
    seat = d["seat"]
    if "move" in d:
        r, i, idx = d["move"]
        _tokens_stored(s, {"seat": seat, "tokens": [[key((r, i)), idx]]})
    else:
        _traded(s, d)
    s["turn"]["ws"]["left"] -= 1


@handlers.on("WorkshopEstablished")
def _workshop_established(s, d):
    s["ws_supply"].remove(d["kind"])
    terrain.establish(s, d["space"], d["kind"])


# --- digging, halls, statues -----------------------------------------------------

@handlers.on("TunnelDug")
def _tunnel_dug(s, d):
    seat = d["seat"]
    add(s["supply"], apply_payment(s, seat, d["paid"]))
    s["honor"][store_of(s, seat)] += d["honor"]
    s["tiles"][d["tile"]] -= 1
    terrain.dig(s, seat, d)
    s["turn"]["acted"] = True
    s["turn"]["step"] = "followup"
    s["turn"]["dug"] = {"anchor": d["anchor"], "level": d["level"], "cells": d["cells"],
                        "workshops": d["workshops"], "pedestal": False}


@handlers.on("PedestalPlaced")
def _pedestal_placed(s, d):
    s["peds"][store_of(s, d["seat"])][d["clan"]] -= 1
    token = s["ped_track"].pop(f"{d['level']}:{d['clan']}")
    s["ped_tokens"][store_of(s, d["seat"])].append(token)
    terrain.place_pedestal(s, d["cell"], d["clan"])
    s["turn"]["dug"]["pedestal"] = True


@handlers.on("GreatHallBuilt")
def _great_hall_built(s, d):
    # free and no honor now (MK-HALL-4); statues keep their spaces (MK-HALL-5)
    s["halls"].remove(d["hall"])
    terrain.build_hall(s, d["seat"], d)
    s["turn"]["hall"] = True
    s["turn"]["step"] = "hall"


@handlers.on("StatueMoved")
def _statue_moved(s, d):
    if d["paid"] is not None:
        add(s["supply"], apply_payment(s, d["seat"], d["paid"]))
    terrain.move_statue(s, d["from"], d["to"])


evolve = handlers.evolver()
"""Apply one event to the state in place and return it (an unknown type raises, ``domain.kit.state``)."""
