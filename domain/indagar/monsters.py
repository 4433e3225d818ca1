"""Monster turns (sections 21-27): target, move, one action (IND-MTURN-7).

Primary monsters run their card's script (content/monsters.yaml, IND-MON-6);
event monsters target the closest hero, outpost or monster (IND-EVM-3,
IND-AMB-9). Distances count only tiles a monster may use, face-down ones
included (IND-MTGT-2, IND-AMB-38); when only occupied tiles are in the way the
monster breaks through (IND-MTGT-5, IND-MMOV-5); ties between equally short
routes turn left (IND-MMOV-4, IND-AMB-37). Monsters never reveal (IND-FOG-3).
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from domain.core import Drbg, event

from . import combat
from . import state as st
from .state import Emit, State


def _passable(s: State, tile: str, through_figures: bool) -> bool:
    if st.impassable(s, tile):
        return False
    return through_figures or not st.occupied(s, tile)


def distances(s: State, goals: list[str], start: str, through_figures: bool = False) -> dict[str, int]:
    """Moves from every tile to the nearest goal over monster-usable tiles (multi-source BFS).

    ``_passable`` for every tile the search reaches, with the figures' and outposts' tiles
    gathered once per search rather than looked up per tile: the search was the largest item
    of the rules code when a record is verified (issue 22)."""
    lay = st.board(s)
    taken = set() if through_figures else st.taken_tiles(s)
    dist = {g: 0 for g in goals}
    queue = deque(goals)
    while queue:
        t = queue.popleft()
        for n in lay.neighbours[t]:
            if n not in dist and (n == start or (not st.impassable(s, n) and n not in taken)):
                dist[n] = dist[t] + 1
                queue.append(n)
    return dist


def goals_for(s: State, monster: str, target: str, tile_target: bool, through: bool) -> list[str]:
    """IND-MMOV-2: a tile target is entered, a figure/outpost target is approached. A tile target
    another figure stands on cannot be entered, so only breaking through reaches it (IND-MTGT-5,
    IND-MMOV-5: «no puede alcanzar por una loseta ocupada»; under ``indagar-6`` Oryana never
    aimed at an occupied Source)."""
    here = s["monsters"][monster]["tile"]
    if tile_target:
        return [target] if through or _vacant(s, monster, target) else []
    return [n for n in st.board(s).neighbours[target] if n == here or _passable(s, n, through)]


def _vacant(s: State, monster: str, tile: str) -> bool:
    """No figure but ``monster`` itself, and no outpost, on ``tile``: a tile is occupied by
    *another* figure (IND-TILE-3/4, «no está ocupada por otro héroe, un monstruo»), so the one a
    monster stands on is free to it."""
    return st.figure_at(s, tile) in (None, monster) and tile not in s["outposts"]


def juicy(s: State, monster: str, tile: str) -> bool:
    """IND-JUICY-1/2/3, IND-AMB-40: the target's defence dice (outpost included) do not
    exceed the monster's attack."""
    return combat.defence_pool(s, tile) <= combat.attack_pool(s, ("monster", monster), tile)


def candidates(s: State, monster: str) -> tuple[list[str], bool, str]:
    """The script's valid targets (IND-MTGT-1/3): (tiles, tile_target?, action)."""
    m = s["monsters"][monster]
    if m["kind"] == "event":
        return [t for t in _event_targets(s, monster) if juicy(s, monster, t)], False, "attack"
    script = m["script"]
    if script == "helgoth":
        counts = {p: st.outposts_of(s, p) for p in range(s["n"])}
        most = max(counts.values(), default=0)
        if most == 0:
            return [], False, "attack"
        return [t for t, o in s["outposts"].items() if counts[o["owner"]] == most], False, "attack"
    if script == "tijian":                                # the tile he stands on too (IND-MON-6)
        return [t for t, x in s["tiles"].items() if x["type"] in st.RESOURCE_TILES and not x["destroyed"]
                and _vacant(s, monster, t)], True, "destroy"
    if script == "oryana":                                # occupied or not: she breaks through (IND-MTGT-5)
        return [st.board(s).source], True, "gather"
    seat = s.get("last_ability_seat")                                            # spirit-walker
    if seat is None:
        return [], False, "attack"
    return [x["tile"] for h, x in s["heroes"].items() if x["owner"] == seat and x["tile"]
            and juicy(s, monster, x["tile"])], False, "attack"


def _event_targets(s: State, monster: str) -> list[str]:
    """Every hero, outpost and other monster an event monster may aim at (IND-EVM-3), Groxiah
    leaving unmanned outposts alone (IND-EVM-4)."""
    here = s["monsters"][monster]["tile"]
    return [t for t in _figure_and_outpost_tiles(s) if t != here and _may_attack(s, monster, t)]


def _may_attack(s: State, monster: str, tile: str) -> bool:
    """IND-EVM-4: Groxiah never attacks an outpost no hero stands on, not even by opportunity or
    breaking through (IND-MMOV-5 waives only the juicy test; under ``indagar-5`` it attacked one
    blocking its way)."""
    return monster != "groxiah" or bool(st.figure_at(s, tile)) or tile not in s["outposts"]


def _target_sets(s: State, monster: str) -> Iterator[tuple[list[str], bool, str]]:
    """The targets to try in turn: the script's; for an event monster with no juicy one in
    reach, then the nearest hero, outpost or monster all the same, approached without attacking
    (IND-EVM-3, IND-AMB-9). Lazily: the second set only when the first reaches nothing."""
    yield candidates(s, monster)
    if s["monsters"][monster]["kind"] == "event":
        yield _event_targets(s, monster), False, "approach"


def _figure_and_outpost_tiles(s: State) -> list[str]:
    tiles = {x["tile"] for x in s["heroes"].values() if x["tile"]}
    tiles |= {x["tile"] for x in s["monsters"].values() if x["tile"]}
    return sorted(tiles | set(s["outposts"]))


def choose_target(s: State, monster: str) -> tuple[list[str], bool, str, bool]:
    """The closest candidates (IND-MTGT-2): several when tied, for the last player to pick
    (IND-MTGT-4); occupied tiles count only if nothing is reachable otherwise (IND-MTGT-5).
    Returns (targets, tile_target, action, breakthrough); no targets when none is reachable."""
    here = s["monsters"][monster]["tile"]
    for cands, tile_target, action in _target_sets(s, monster):
        for through in (False, True):
            dist = {}
            for t in sorted(cands):
                d = distances(s, goals_for(s, monster, t, tile_target, through), here, through)
                if here in d:
                    dist[t] = d[here]
            if dist:
                best = min(dist.values())
                return [t for t in sorted(dist) if dist[t] == best], tile_target, action, through
    return [], False, "attack", False


def stuck(s: State, monster: str) -> bool:
    """IND-MTGT-6, IND-AMB-39: impassable terrain alone keeps the monster from every
    target its script names (or from every tile around it), so its turn is skipped.
    Checked afresh at each turn; figures never wall a monster in (they are broken through)."""
    here = s["monsters"][monster]["tile"]
    cands, tile_target, _action = candidates(s, monster)
    if tile_target and here in cands:                     # it stands on its target: nothing to reach
        return False
    if all(st.impassable(s, n) for n in st.board(s).neighbours[here]):
        return True
    return bool(cands) and not any(here in distances(s, goals_for(s, monster, t, tile_target, True), here, True)
                                   for t in cands)


def step_left(s: State, here: str, options: list[str], target: str) -> str:
    """IND-AMB-37: among next steps on a shortest route, the one furthest counter-clockwise
    of the bearing to the target."""
    lay = st.board(s)
    aim = lay.bearing(here, target)
    return min(options, key=lambda n: ((lay.bearing(here, n) - aim + 180) % 360 - 180, n))


def take_turn(s: State, emit: Emit, monster: str, rng: Drbg) -> None:
    """One monster turn (IND-MTURN-7). Pauses on a pending decision when the last player
    must pick a target, or a player must decide in an attack."""
    targets, tile_target, action, through = choose_target(s, monster)
    if not targets:
        _clearing_heal(s, emit, monster, [s["monsters"][monster]["tile"]])
        opportunity(s, emit, monster, rng)                                         # IND-AMB-49
    elif len(targets) > 1:
        emit(event("DecisionAsked", kind="monster_target", seat=st.last_player(s), options=targets,
                   monster=monster, tile_target=tile_target, action=action, through=through))
    else:
        proceed(s, emit, monster, targets[0], tile_target, action, through, rng)


def proceed(s: State, emit: Emit, monster: str, target: str, tile_target: bool, action: str, through: bool,
            rng: Drbg) -> None:
    """Move toward the chosen target, then take the one action (IND-MMOV-7, IND-MACT-1)."""
    start = s["monsters"][monster]["tile"]
    path = walk(s, monster, target, tile_target, through)
    if path:
        emit(event("MonsterMoved", monster=monster, path=path, charge=False))
    _clearing_heal(s, emit, monster, [start] + path)
    here = s["monsters"][monster]["tile"]
    if through:
        blocker = next((n for n in st.board(s).neighbours[here] if st.occupied(s, n)
                        and n in _route(s, monster, target, tile_target) and _may_attack(s, monster, n)), None)
        if blocker is not None:                                                   # IND-MMOV-5, IND-JUICY-4
            combat.begin_attack(s, emit, ("monster", monster), blocker, rng, breakthrough=True)
            return
    if action == "destroy" and here == target:
        emit(event("TileDestroyed", tile=target, monster=monster))                 # IND-TERM-2
    elif action == "gather" and here == target and s["source"] > 0:
        emit(event("SpiritsGathered", seat=None, monster=monster, n=s["source"]))
    elif action == "attack" and target in st.board(s).neighbours[here]:
        combat.begin_attack(s, emit, ("monster", monster), target, rng)
    else:
        opportunity(s, emit, monster, rng)


def _clearing_heal(s: State, emit: Emit, monster: str, tiles: list[str]) -> None:
    """IND-EVT-12, IND-MTILE-1, IND-AMB-21: a monster -- event monsters too -- that stands on the
    Mystic Clearing at any moment of its turn (where it starts, on its way, where it stops) heals
    2 damage, once, as a hero does in its activation."""
    m = s["monsters"][monster]
    if m["damage"] and any(st.tile_type(s, t) == "mystic_clearing" for t in tiles):
        emit(event("MonsterHealed", monster=monster, damage=max(0, m["damage"] - 2)))


def _route(s: State, monster: str, target: str, tile_target: bool) -> set[str]:
    """Tiles on some shortest route when figures count as passable (for breaking through)."""
    here = s["monsters"][monster]["tile"]
    to_goal = distances(s, goals_for(s, monster, target, tile_target, True), here, True)
    from_here = distances(s, [here], "", True)
    total = to_goal.get(here)
    return {t for t in to_goal if t in from_here and from_here[t] + to_goal[t] == total} | {target}


def walk(s: State, monster: str, target: str, tile_target: bool, through: bool) -> list[str]:
    """IND-MMOV-1/3/4: as far as the movement allows along the shortest route, never
    into an occupied tile; Mud stops it (IND-MTILE-1), the Maelstrom does not (IND-MTILE-2)."""
    m = s["monsters"][monster]
    here = m["tile"]
    dist = distances(s, goals_for(s, monster, target, tile_target, through), here, through)
    path = []
    for _ in range(st.monster_stats(s, monster)["movement"]):
        d = dist.get(here)
        if not d:
            break
        options = [n for n in st.board(s).neighbours[here] if dist.get(n) == d - 1 and not st.occupied(s, n)
                   and not st.impassable(s, n)]
        if not options:
            break
        here = step_left(s, here, options, target)
        path.append(here)
        if st.tile_type(s, here) in st.MUD:
            break
    return path


def opportunity(s: State, emit: Emit, monster: str, rng: Drbg) -> None:
    """IND-OPP-1/2/3: if nothing better, attack one adjacent juicy hero, outpost or monster
    (Oryana never does); the last player picks among several (IND-OPP-2)."""
    m = s["monsters"][monster]
    if m["kind"] == "primary" and m["script"] == "oryana":
        emit(event("MonsterIdle", monster=monster))
        return
    adj = [n for n in st.board(s).neighbours[m["tile"]]
           if (st.figure_at(s, n) or n in s["outposts"]) and _may_attack(s, monster, n) and juicy(s, monster, n)]
    if len(adj) > 1:
        emit(event("DecisionAsked", kind="monster_opportunity", seat=st.last_player(s), options=sorted(adj),
                   monster=monster))
    elif adj:
        combat.begin_attack(s, emit, ("monster", monster), adj[0], rng)
    else:
        emit(event("MonsterIdle", monster=monster))


def closest_free(s: State, origin: str) -> str | None:
    """IND-MRET-3, IND-AMB-43: the closest free tile to ``origin``, swept from 90 degrees left
    of the direction to the Source, clockwise."""
    lay = st.board(s)
    facing = lay.bearing(origin, lay.source) if origin != lay.source else 0.0
    free = [t for t in lay.cells if t != origin and not st.occupied(s, t) and not st.impassable(s, t)]
    if not free:
        return None
    return min(free, key=lambda t: (lay.distance(origin, t), (lay.bearing(origin, t) - facing + 90) % 360))


def redeploy_tile(s: State, monster: str) -> str | None:
    home = st.board(s).homes[s["monsters"][monster]["home"]]
    if not st.occupied(s, home) and not st.impassable(s, home):
        return home
    return closest_free(s, home)
