"""Setup in order (IND-SETUP-1..11): the events that set the table.

Choices the rulebook gives the players at setup (starting area, faction,
commander, which monster on which home) are made through the game's options,
so a game is created with one POST; defaults are listed in ``rules.OPTIONS_SCHEMA``.
"""
from __future__ import annotations

from domain.core import Drbg, Event, event

from . import content, dice
from .board import layout


def face_down_mix(players: int, rng: Drbg) -> list[str]:
    """IND-BOARD-4/5/6: the face-down mix for the player count, events drawn at random
    from the pool (IND-BOARD-5), shuffled."""
    mix = content.tiles()["mix"][players]
    tiles: list[str] = []
    for kind in ("gold", "wood", "ore", "mountains", "mud", "meadow"):
        tiles += [kind] * mix[kind]
    pool = [kind for kind, n in content.tiles()["events"].items() for _ in range(n)]
    tiles += rng.shuffled(pool)[: mix["events"]]
    return rng.shuffled(tiles)


def initiative_rolls(players: int, faces: int, rng: Drbg) -> tuple[list[dict], int]:
    """IND-SETUP-3 with IND-AMB-2: everyone rolls 3 dice; only those tied for the
    highest total reroll, until one is highest. Returns the rounds of rolls and the winner."""
    rolling = list(range(players))
    rounds: list[dict] = []
    while True:
        rolls = {str(p): dice.roll(rng, 3, faces) for p in rolling}
        rounds.append(rolls)
        best = max(sum(r) for r in rolls.values())
        rolling = [int(p) for p, r in rolls.items() if sum(r) == best]
        if len(rolling) == 1:
            return rounds, rolling[0]


def start(options: dict, players: int, rng: Drbg) -> list[Event]:
    lay = layout(players)
    solo = players == 1
    tiles = {t: None for t in lay.cells}
    for t, (_, kind, _) in lay.start.items():
        tiles[t] = kind
    tiles[lay.source] = "source"
    mix = face_down_mix(players, rng)
    hidden = dict(zip(lay.hidden, mix))
    out = [event("BoardBuilt", players=players, options=options, tiles=tiles, homes={str(k): t for k, t in lay.homes.items()},
                 sealed=sorted(lay.homes.values()) if solo else []),
           event("TilesShuffled", hidden=hidden)]
    if solo:
        out.append(event("InitiativeTaken", seat=0, rolls=[]))
    else:
        rounds, first = initiative_rolls(players, options["dice_faces"], rng)
        out.append(event("InitiativeTaken", seat=first, rolls=rounds))
    seats = []
    for p in range(players):
        faction = options["factions"][p]
        heroes = content.faction_heroes(faction)
        seats.append({"faction": faction, "heroes": heroes, "commander": options["commanders"][p]})
    out.append(event("FactionsChosen", seats=seats))
    out.append(event("MonstersPlaced", homes=monster_homes(options, players, rng)))
    out.append(event("HeroesDeployed", tiles={h: t for p, s in enumerate(seats)
                                              for h, t in zip(s["heroes"], lay.deployment(p))}))
    out.append(event("ResourcesTaken", res={"gold": 3, "wood": 2, "ore": 2}))
    return out


def monster_homes(options: dict, players: int, rng: Drbg) -> dict[str, int]:
    """IND-SETUP-8: one primary monster per player on a home of its choosing; in solo
    all 4 (3 in easy mode) go at random onto the homes (IND-SOLO-2, IND-AMB-47)."""
    chosen = options["monsters"]
    if players == 1:
        homes = rng.shuffled(range(4))
        return {m: h for m, h in zip(chosen, homes)}
    return {m: h for h, m in enumerate(chosen)}
