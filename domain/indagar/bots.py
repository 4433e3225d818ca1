"""Bot policies: pure ``policy(game, state, seat, rng) -> command`` over what the seat may see.

``random`` is the kit's uniform policy; ``greedy`` looks one ply ahead on PP,
resources and threats (see ``greedy``).
"""
from __future__ import annotations

from domain.core import Drbg

from . import state as st


_ORDER = {"attack": 6, "build": 7, "upgrade": 7, "gather": 8, "level_bonus": 1}


def greedy(game, state: dict, seat: int, rng: Drbg) -> dict:
    """One ply: prefer gathering, building and upgrading (PP and income), attacks on what
    it can hurt, moves toward resource tiles and the Source; buy PP with spare spirits."""
    legal = game.legal_commands(state, seat)
    if len(legal) == 1:
        return legal[0]
    best, score = legal[0], float("-inf")
    for cmd in legal:
        value = _value(state, seat, cmd) + rng.randbelow(100) / 1000
        if value > score:
            best, score = cmd, value
    return best


def _value(s: dict, seat: int, cmd: dict) -> float:
    kind = cmd["type"]
    if kind == "spirit":
        return 9 if cmd["use"] == "pp" else (2 if cmd["use"] in ("dice", "ignore") else -5)
    if kind in ("build", "upgrade", "gather"):
        return _ORDER[kind]
    if kind == "attack":
        from .combat import attack_pool, defence_pool
        hero = s["turn"]["hero"]
        edge = attack_pool(s, ("hero", hero), cmd["tile"]) - defence_pool(s, cmd["tile"])
        return 3 + edge
    if kind == "move":
        return 2 + _pull(s, seat, cmd["to"])
    if kind == "explore":
        return 1.5
    if kind == "activate":
        return -s["heroes"][cmd["hero"]]["damage"]
    if kind == "reveal":
        return 1 if cmd["show"] else 0
    if kind == "outpost":
        return {"capture": 3, "destroy": 2, "leave": 0}[cmd["choice"]]
    if kind == "charge_through":
        return 1 if cmd["go"] else 0
    if kind == "use_ability":
        return 0.5
    if kind == "level_bonus":
        return 1 if cmd["side"] == "sword" else 0.9
    if kind == "exchange":
        return -3
    if kind == "fall_back":
        return -_pull(s, seat, cmd["to"])
    return 0  # pass, end_turn


def _pull(s: dict, seat: int, tile: str) -> float:
    """How attractive a tile is to stand on: an unbuilt resource tile or the Source with spirits."""
    kind = st.tile_type(s, tile)
    if kind in st.RESOURCE_TILES and tile not in s["outposts"] and not s["tiles"][tile]["destroyed"]:
        return 3
    if tile == st.board(s).source and s["source"]:
        return 3
    lay = st.board(s)
    return -0.1 * lay.distance(tile, lay.source)

