"""Indagar's position verbs (``domain.kit.position``): the edits its tests make most, in its words.

    indagar 2 seed=indagar
    arena                      # every figure lifted, every tile a revealed Meadow
    lift                       # every figure lifted, the tiles as dealt
    put ariane r4c1            # a hero or a monster onto a tile
    hide r4c2 kakonositel      # a face-down tile hiding a kind
    reveal r3c4 mountains      # a face-up tile of a kind
    outpost r4c2 1 2           # seat 1's level-2 outpost
    spent                      # every hero activated this round
    turn 0 ariane              # seat 0's turn, ariane activated (full movement; or: turn 0 ariane 1)
    turn helgoth               # a monster's turn
    event kakonositel r4c2 6   # an event monster on a tile (with 6 damage), as if it had appeared
    armour ariane zhuan        # three shield tokens on these heroes (none named: on every hero)
    tree 0 wild-magic wild-storm=bolt   # seat 0's strategy tree, with its unlocked abilities and their sides
"""
from __future__ import annotations

from . import content
from . import state as st
from .state import State


def lift(s: State) -> None:
    """Lift every figure off the board (the tiles stay as dealt)."""
    for x in [*s["heroes"].values(), *s["monsters"].values()]:
        x["tile"] = None


def arena(s: State) -> None:
    """Lift every figure off the board and make every face-down tile a revealed Meadow."""
    lift(s)
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


def turn(s: State, seat: str | int, hero: str | None = None, moves: str | None = None) -> None:
    """Seat ``seat``'s turn, with ``hero`` activated (its full movement unless ``moves``); a monster's
    turn when ``seat`` names a monster."""
    seat = str(seat)
    s["pending"], s["attack"], s["phase"] = [], None, "play"
    kind = "seat" if seat.isdigit() else "event" if s["monsters"][seat]["kind"] == "event" else "monster"
    who = f"seat:{seat}" if kind == "seat" else f"{kind}-{seat}"
    s["turn"] = {"who": who, "hero": hero, "moves": 0, "action": False, "used": [], "stopped": False,
                 "charged": False, "must_attack": False, "cleared": False}
    if not seat.isdigit():
        return
    if hero:
        s["heroes"][hero]["activated"] = True
        s["turn"]["moves"] = st.hero_card(hero)["movement"] if moves is None else int(moves)
    s["cursor"] = s["ring"].index(f"seat:{seat}") if not s["solo"] else 1


def event(s: State, monster: str, tile: str, damage: str = "0") -> None:
    """An event monster on ``tile`` as its appearance puts it there (IND-EVM-1), with ``damage``."""
    s["monsters"][monster] = {"kind": "event", "script": "event", "home": None, "tile": tile, "damage": int(damage),
                              "retreat": None, "turns": 0, "counts": {},
                              "xp": content.event_monsters()[monster]["xp"]}
    s["event_order"].append(monster)


def armour(s: State, *heroes: str) -> None:
    """Three shield tokens on each hero named (every hero if none): no monster finds them juicy (IND-JUICY-1)."""
    for h in heroes or list(s["heroes"]):
        s["heroes"][h]["bonuses"] = ["shield", "shield", "shield"]


def tree(s: State, seat: str, tree_id: str, *unlocked: str) -> None:
    """Seat ``seat`` plays strategy tree ``tree_id`` with abilities unlocked on a side (``ability=side``)."""
    s["seats"][int(seat)].update(tree=tree_id, unlocked=dict(u.split("=") for u in unlocked))


VERBS = {"lift": lift, "arena": arena, "put": put, "hide": hide, "reveal": reveal, "outpost": outpost,
         "spent": spent, "turn": turn, "event": event, "armour": armour, "tree": tree}

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
    "charged-onto-the-portal": """
        indagar 2 seed=indagar
        arena
        put ariane r4c2
        reveal r4c2 ancient_portal
        put zhuan r4c3
        put bertram r1c0
        seats.0.res = {"gold": 5, "wood": 5, "ore": 5}
        turn 0 ariane 0
        turn.charged = true
        turn.must_attack = true
    """,
    # Thorn revealed Kakonositel, was hit for 2 and fell back onto a face-down Poison Swamp: its 2
    # damage waits in a window inside the attack, open to a spirit and to his own Bark Skin (IND-AMB-18,
    # IND-DMG-2; indagar-6).
    "fell-back-onto-a-poison-swamp": """
        indagar 2 seed=indagar options={"factions": ["forest", "sect"]}
        arena
        put thorn r5c1
        reveal r5c1 poison_swamp
        reveal r4c2 kakonositel
        event kakonositel r4c2
        reveal r3c1 mountains
        reveal r3c0 mountains
        reveal r5c0 mountains
        put zhuan r8c6
        heroes.thorn.bonuses = ["sword"]
        heroes.thorn.damage = 3
        seats.0.res = {"gold": 0, "wood": 1, "ore": 0}
        seats.0.spirits = 1
        turn 0 thorn 2
        attack = {"attacker": ["monster", "kakonositel"], "seat": null, "tile": "r4c1", "defender": ["hero", "thorn"], "defender_seat": 0, "outpost": 0, "reveal": true, "breakthrough": false, "adice": [3, 1, 1], "ddice": [1, 1, 1], "min": 0, "extra": 0, "ignore": 0, "stage": "outpost", "figure_damage": 2, "retreated": false, "caused": false, "outpost_hit": false, "used": []}
        pending = [{"kind": "respond", "seat": 0, "moment": "damage", "hero": "thorn", "damage": 2, "cause": null}]
    """,
    # Ariane hit Zhuan on a Poison Swamp for 2 and he fell back: her third XP made her level I, and
    # the level-up side is asked before her Charge Through onto the Swamp, whose 2 would send her to
    # retreat (IND-LVL-5, IND-RET-4; indagar-7).
    "levelled-before-charging-through": """
        indagar 2 seed=indagar
        arena
        put ariane r4c1
        reveal r4c2 poison_swamp
        put zhuan r4c3
        heroes.ariane.bonuses = ["?"]
        heroes.ariane.damage = 4
        heroes.zhuan.damage = 2
        turn 0 ariane
        turn.action = true
        attack = {"attacker": ["hero", "ariane"], "seat": 0, "tile": "r4c2", "defender": ["hero", "zhuan"], "defender_seat": 1, "outpost": 0, "reveal": false, "breakthrough": false, "adice": [2, 1, 1], "ddice": [1, 1], "min": 0, "extra": 0, "ignore": 0, "stage": "award", "figure_damage": 2, "retreated": false, "caused": false, "outpost_hit": false, "used": []}
        pending = [{"kind": "level_bonus", "seat": 0, "options": ["sword", "shield"], "hero": "ariane"}, {"kind": "charge_through", "seat": 0, "options": [true, false]}]
    """,
}
