"""What a seat may see (MK-INFO-1, MK-AMB-28): one place for every secret.

Hidden: the order of the troll decks and the spell deck, the pedestal bag's
draw order (its counts are public), and during the starter draft the cards in
a player's hand (owner only) and in their deck (nobody).

The view: ``phase`` (doors | draft | play | over), ``current``, ``round``,
``turns_left`` (after the end trigger), ``options``, ``order`` (seats in turn
order), ``turn`` (step, spell cast, workshop
activation and uses left, step 2 over, hall built, spell flags, the dig's
follow-ups), ``board`` (side name; levels and features are static content),
``pieces`` (doors, tunnels, remnants, halls, with who laid them, anchors and
pedestals), ``networks`` (pieces and owning seats), ``statues``, ``workshops``,
``supply``, ``tiles``, ``halls``, ``workshop_supply``, ``pedestal_track``,
``pedestal_bag`` (counts), ``coronation``, ``horde`` (face-up slots with bribes,
pedestal and choose-pedestal marker; deck counts), ``spellbook`` (with runes),
``spell_deck`` (count), ``players`` (colour, door, roster with tokens, storage,
pedestals, pedestal score tokens, honor, recruited levels, draft) and, once
over, ``final``.
"""
from __future__ import annotations

from domain.kit import Secrecy, Secret, sizes

from . import horde, terrain
from .state import store_of


def view(s, seat: int | None) -> dict:
    if not s.get("phase"):
        return {"phase": None}
    layout = terrain.lay(s)
    out = {
        "phase": s["phase"], "current": s["current"], "round": s["round"], "turns_left": s["turns_left"],
        "board": s["board"], "teams": s["teams"], "options": s["options"], "order": s["order"], "turn": s["turn"],
        "supply": s["supply"], "tiles": s["tiles"], "halls": s["halls"], "workshop_supply": s["ws_supply"],
        "pieces": s["pieces"],
        "networks": [{"seats": sorted(n.seats), "pieces": list(n.pieces)} for n in layout.networks],
        "statues": s["statues"], "workshops": s["workshops"],
        "pedestal_track": s["ped_track"], "pedestal_bag": s["bag"], "coronation": s["coronation"],
        "horde": {
            "slots": {sl: {"card": sp["card"], "bribes": sp["bribes"], "pedestal": sp["ped"],
                           "choose_pedestal": horde.row(sl) == 3 and sp["card"] is not None}
                      for sl, sp in s["horde"]["slots"].items()},
            "decks": {lv: len(d) for lv, d in s["horde"]["decks"].items()},
        },
        "spellbook": s["spells"]["book"], "spell_deck": len(s["spells"]["deck"]),
        "players": [_player(s, p, seat) for p in range(s["n"])],
    }
    if s["phase"] == "over":
        out["final"] = s["final"]
    return out


def _player(s, p: int, viewer: int | None) -> dict:
    st = store_of(s, p)
    out = {
        "seat": p, "colour": s["colours"][p], "store": st, "door": s["door_points"][p],
        "roster": s["rosters"][p], "storage": s["stores"][st], "pedestals": s["peds"][st],
        "pedestal_tokens": s["ped_tokens"][st], "honor": s["honor"][st], "recruited_levels": s["levels"][p],
    }
    if s["draft"] is not None:
        dr = s["draft"][p]
        out["draft"] = {"placed": dr["placed"], "deck": len(dr["deck"]),
                        "hand": list(dr["hand"]) if viewer == p else len(dr["hand"])}
    return out


SECRECY = Secrecy(
    Secret("HordeDealt", ("decks",), face=sizes),             # the troll decks' order
    Secret("SpellbookRevealed", ("deck",), face=sizes),       # the spell deck's order
    Secret("StarterDecksShuffled", ("decks",), face=sizes),   # the starter decks' order
    Secret("StartersDrawn", ("cards",), seen_by=("seat",)),   # a starter hand (MK-AMB-28)
)
