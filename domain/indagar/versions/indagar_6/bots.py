"""Bot policies: pure ``policy(game, state, seat, rng) -> command`` over what the seat may see.

``random`` is the kit's uniform policy; ``greedy`` looks one ply ahead on PP,
resources and threats (see ``greedy``).
"""
from __future__ import annotations

from domain.core import Drbg

from . import combat, content
from . import state as st


_ORDER = {"attack": 6, "build": 7, "upgrade": 7, "gather": 8, "level_bonus": 1}


def greedy(game, state: dict, seat: int, rng: Drbg) -> dict:
    """One ply: prefer gathering, building and upgrading (PP and income), attacks on what
    it can hurt, moves toward resource tiles and the Source; buy PP with spare spirits
    (in its turn or a response window); declare the tree whose power scores."""
    legal = game.legal_commands(state, seat)
    if len(legal) == 1:
        return legal[0]
    best, score = legal[0], float("-inf")
    pulls: dict[str, float] = {}  # tile -> _pull: the state is the same for every command weighed
    for cmd in legal:
        value = _value(state, seat, cmd, pulls) + rng.randbelow(100) / 1000
        if value > score:
            best, score = cmd, value
    return best


def _value(s: dict, seat: int, cmd: dict, pulls: dict[str, float]) -> float:
    kind = cmd["type"]
    if kind == "declare":
        return _tree_value(s, seat, cmd)
    if kind == "spirit":
        return 9 if cmd["use"] == "pp" else (2 if cmd["use"] in ("dice", "ignore") else -5)
    if kind in ("build", "upgrade", "gather"):
        return _ORDER[kind]
    if kind == "attack":
        hero = s["turn"]["hero"]
        edge = combat.attack_pool(s, ("hero", hero), cmd["tile"]) - combat.defence_pool(s, cmd["tile"])
        return 3 + edge
    if kind == "move":
        return 2 + _pulled(s, seat, cmd["to"], pulls)
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
        return 4 if _exchange_builds(s, seat, cmd) else -3
    if kind == "fall_back":
        return -_pulled(s, seat, cmd["to"], pulls)
    if kind == "redeploy":
        return _pulled(s, seat, cmd["tile"], pulls)
    return 0  # pass, end_turn


def _tree_value(s: dict, seat: int, cmd: dict) -> float:
    """Round start (IND-STR-4/6): the tree whose power scores a PP now (IND-PP-4), or PP for
    every outpost burnt, else one that pays every round, else a fighting power; unlock an
    ability whenever allowed."""
    power = content.trees()[cmd["tree"]]["power"]
    if "pp_if_outposts" in power:
        value = 5 if st.outposts_of(s, seat) >= power["pp_if_outposts"] else 0.5
    elif "pp_per_burn" in power:
        value = 3
    else:
        value = 2 if "income" in power else 1
    return value + (0.5 if "unlock" in cmd else 0)


def _exchange_builds(s: dict, seat: int, cmd: dict) -> bool:
    """An exchange for the gold that lets the active hero build where it stands."""
    hero = s["turn"]["hero"] if s.get("turn") else None
    if not hero or cmd["get"] != "gold" or cmd["give"]["gold"] or st.has_rule(hero, "burn-not-build"):
        return False
    tile = s["heroes"][hero]["tile"]
    res = s["seats"][seat]["res"]
    return (tile is not None and st.tile_type(s, tile) in st.RESOURCE_TILES and tile not in s["outposts"]
            and not s["turn"]["action"] and res["gold"] == 1)


def _goals(s: dict, seat: int, hero: str) -> set[str]:
    """Tiles worth walking to: an unbuilt resource tile the hero may build on, the Source
    while spirits lie there, an enemy outpost for a hero that only burns; else the fog."""
    out = set()
    if s["source"]:
        out.add(st.board(s).source)
    builds = not st.has_rule(hero, "burn-not-build")
    for t, x in s["tiles"].items():
        if builds and x["type"] in st.RESOURCE_TILES and not x["destroyed"] and t not in s["outposts"] \
                and st.figure_at(s, t) in (None, hero):
            out.add(t)
    if not builds:
        out |= {t for t, o in s["outposts"].items() if o["owner"] != seat}
    return out or {t for t, x in s["tiles"].items() if x["type"] is None and t not in s["sealed"]}


def _pulled(s: dict, seat: int, tile: str, pulls: dict[str, float]) -> float:
    if tile not in pulls:
        pulls[tile] = _pull(s, seat, tile)
    return pulls[tile]


def _pull(s: dict, seat: int, tile: str) -> float:
    """How attractive standing on ``tile`` is: closer to a goal is better (breadth-first
    over tiles the seat's heroes may enter, up to 10 steps)."""
    hero = s["turn"]["hero"] if s.get("turn") and s["turn"]["hero"] else s["seats"][seat]["heroes"][0]
    goals = _goals(s, seat, hero)
    lay = st.board(s)
    frontier, seen = [tile], {tile}
    figures = {x["tile"] for x in s["heroes"].values()} | {x["tile"] for x in s["monsters"].values()}
    for dist in range(11):
        if any(t in goals for t in frontier):
            return 3 - 0.4 * dist
        nxt = []
        for t in frontier:
            for n in lay.neighbours[t]:
                if n not in seen and (st.free_for_seat(s, n, seat, figures) or n in goals):
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return -2
