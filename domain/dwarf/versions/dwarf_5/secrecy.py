"""Who sees what. Everything on the table is public (DW-CARD-3); hidden are the
Mountain's order (DW-CARD-3 engine note) and, of the Special Action piles, all but
the special side of each top card (DW-AMB-19). Secrecy lives here only."""
from __future__ import annotations

from domain.dwarf.versions.dwarf_5 import content
from domain.dwarf.versions.dwarf_5.grid import LOCATIONS, place
from domain.dwarf.versions.dwarf_5.scoring import majorities
from domain.kit import Secrecy, Secret


def _pile(cards: list[str]) -> dict:
    face = content.card(cards[0]).special if cards else None
    return {"count": len(cards), "top_special": face}


def view(s: dict, seat: int | None) -> dict:
    """The same for every seat and spectators: the game has no private hands."""
    areas = []
    for a, area in enumerate(s["areas"]):
        mine = {}
        for loc in LOCATIONS:
            stack = area["stacks"].get(loc, [])
            w = s["workers"].get(place(a, loc))
            mine[loc] = {"stack": list(stack), "top": stack[-1] if stack else None,
                         "effect": content.effect_of(stack[-1]).id if stack else None,
                         "worker": dict(w) if w else None}
        areas.append({"mine": mine, "mountain_count": len(area["mountain"]),
                      "piles": [_pile(p) for p in area["piles"]]})
    table = majorities(s["players"]) if s["players"] else []
    players = []
    for i, p in enumerate(s["players"]):
        players.append({**{k: p[k] for k in ("id", "iron", "gold", "steel", "object", "medal", "created",
                                             "specials")},
                        "index": i,
                        "normal_workers_left": s["unplaced"][i] if s["unplaced"] else 0,
                        "on_piles": s["pile_workers"][i] if s["pile_workers"] else 0,
                        "extras": s["extras"][i] if s["extras"] else 0,
                        "majorities": table[i]})
    head = s["queue"][0] if s["queue"] else None
    return {"game": "dwarf", "round": s["round"], "phase": s["phase"], "first_player": s["first"],
            "automaton": s["automaton"], "solo_level": s["level"], "to_place": head,
            "last_mined": s["last_mined"], "mines": areas, "players": players, "ended": s["ended"],
            "banned": s["banned"], "you": seat}


SECRECY = Secrecy(
    Secret("MountainShuffled", ("cards",), count="count"),                     # the Mountain's order
    Secret("PilesDealt", ("piles",), face=lambda piles: [_pile(p) for p in piles]),  # DW-AMB-19
)
