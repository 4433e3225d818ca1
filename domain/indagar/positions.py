"""Indagar's position verbs (``domain.kit.position``): the edits its tests make most, in its words.

    indagar 2 seed=indagar
    arena                      # every figure lifted, every tile a revealed Meadow
    put ariane r4c1            # a hero or a monster onto a tile
    hide r4c2 kakonositel      # a face-down tile hiding a kind
    reveal r3c4 mountains      # a face-up tile of a kind
    outpost r4c2 1 2           # seat 1's level-2 outpost
    spent                      # every hero activated this round
    turn 0 ariane              # seat 0's turn, ariane activated (full movement; or: turn 0 ariane 1)
"""
from __future__ import annotations

from . import state as st
from .state import State


def arena(s: State) -> None:
    """Lift every figure off the board and make every face-down tile a revealed Meadow."""
    for x in [*s["heroes"].values(), *s["monsters"].values()]:
        x["tile"] = None
    for t in list(s["hidden"]):
        reveal(s, t, "meadow")


def put(s: State, figure: str, tile: str) -> None:
    (s["heroes"] if figure in s["heroes"] else s["monsters"])[figure]["tile"] = None if tile == "none" else tile


def hide(s: State, tile: str, kind: str) -> None:
    s["tiles"][tile]["type"] = None
    s["hidden"][tile] = kind


def reveal(s: State, tile: str, kind: str) -> None:
    s["tiles"][tile]["type"] = kind
    s["hidden"].pop(tile, None)


def outpost(s: State, tile: str, seat: str, level: str = "1") -> None:
    s["outposts"][tile] = {"owner": int(seat), "level": int(level), "damage": 0, "downgraded": False}


def spent(s: State) -> None:
    """Every hero has been activated this round (the round's last turn comes next)."""
    for x in s["heroes"].values():
        x["activated"] = True


def turn(s: State, seat: str, hero: str | None = None, moves: str | None = None) -> None:
    """Seat ``seat``'s turn, with ``hero`` activated (its full movement unless ``moves``)."""
    s["pending"], s["attack"], s["phase"] = [], None, "play"
    s["turn"] = {"who": f"seat:{seat}", "hero": hero, "moves": 0, "action": False, "used": [], "stopped": False,
                 "charged": False, "must_attack": False, "cleared": False}
    if hero:
        s["heroes"][hero]["activated"] = True
        s["turn"]["moves"] = st.hero_card(hero)["movement"] if moves is None else int(moves)
    s["cursor"] = s["ring"].index(f"seat:{seat}") if not s["solo"] else 1


VERBS = {"arena": arena, "put": put, "hide": hide, "reveal": reveal, "outpost": outpost, "spent": spent, "turn": turn}

# Named test positions (``Game.positions``): the conformance suite checks legality both ways at each.
POSITIONS = {
    "charge-through-reveal": """
        indagar 2 seed=indagar
        arena
        put ariane r4c1
        put helgoth r4c2
        monsters.helgoth.damage = 5
        hide r4c2 kakonositel
        turn 0 ariane
    """,
    "last-turn-of-round": """
        indagar 2 seed=indagar
        arena
        put ariane r4c1
        spent
        turn 0 ariane
    """,
    "wild-storm": """
        indagar 2 seed=indagar options={"factions": ["forest", "sect"]}
        arena
        put thorn r4c1
        put sunjun r4c4
        heroes.sunjun.damage = 3
        seats.0.tree = wild-magic
        seats.0.unlocked = {"wild-storm": "bolt"}
        seats.0.res.wood = 2
        turn 0 thorn
    """,
    "spirits-before-activation": """
        indagar 2 seed=indagar
        arena
        put ariane r4c1
        seats.0.spirits = 2
        seats.0.res = {"gold": 3, "wood": 0, "ore": 0}
        turn 0
    """,
}
