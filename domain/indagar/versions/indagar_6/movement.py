"""Hero movement, exploring and revealing (sections 9, 11.5, 11.6, 17).

Entering a face-down tile reveals it at once (IND-FOG-2); a tile revealed as
impassable or occupied is not entered and the move is spent (IND-FOG-4); a hero
*forced* onto such a tile goes to retreat (IND-FOG-5). Reveal effects fire once
(IND-EVT-0); reveal-only event tiles then behave as Meadows (IND-AMB-22).
"""
from __future__ import annotations

from domain.core import Drbg, event

from . import combat, harm, monsters, responses
from . import state as st
from .state import Emit, State

EVENT_MONSTERS = ("kakonositel", "kelfeerazen", "groxiah")
CACHE_SIDE = {"weapons_cache": "sword", "armour_cache": "shield"}


def sealed(s: State, tile: str) -> bool:
    """A solo monster home: never revealed (IND-BOARD-7, IND-SOLO-3), passable (IND-AMB-5)."""
    return tile in s["sealed"]


def face_down(s: State, tile: str) -> bool:
    return st.tile_type(s, tile) is None and not sealed(s, tile)


def stops(s: State, hero: str, kind: str | None) -> bool:
    """Mud and Poison Swamp end movement (IND-TT-5, IND-EVT-1); Speed ignores the Mud
    part of both (IND-SPR-2, IND-AMB-35)."""
    return kind in st.MUD and not st.has_rule(hero, "speed")


def reveal(s: State, emit: Emit, tile: str, seat: int | None, hero: str | None, rng: Drbg,
           entering: bool = False) -> bool:
    """Turn ``tile`` face up and fire its reveal effect. True when the revealing hero
    may still enter it (IND-FOG-4)."""
    kind = s["hidden"][tile]
    emit(event("TileRevealed", tile=tile, kind=kind, seat=seat, hero=hero))
    if kind == "mountains":
        one_in_a_million(s, emit, rng)
        return False
    if hero is None:
        return True
    if kind in CACHE_SIDE:                                                     # IND-EVT-4/6, IND-AMB-25
        emit(event("DecisionAsked", kind="cache", seat=seat, options=list(s["seats"][seat]["heroes"]),
                   side=CACHE_SIDE[kind]))
    elif kind == "spirit_cache":                                               # IND-EVT-8
        emit(event("SpiritsGained", seat=seat, n=2, reason="spirit_cache"))
    elif kind == "local_traitors":                                             # IND-EVT-9
        emit(event("TraitorsRevealed", seat=seat))
    elif kind == "abandoned_outposts":                                         # IND-EVT-5, IND-AMB-16/24
        if st.pieces_free(s, seat, 1) and (entering or st.figure_at(s, tile) is None):
            emit(event("OutpostPlaced", tile=tile, seat=seat, level=1, reason="abandoned_outposts"))
    elif kind in EVENT_MONSTERS:                                               # IND-EVT-7/10/13, IND-EVT-15
        at = tile
        if st.figure_at(s, tile) is not None:                                  # IND-AMB-22
            at = monsters.closest_free(s, tile)
        if at is not None:
            emit(event("EventMonsterAppeared", monster=kind, tile=at))
        return False
    return True


def reveal_attack(s: State, emit: Emit, tile: str, hero: str, rng: Drbg) -> None:
    """IND-EVM-2, IND-EVT-15: an event monster revealed at ``tile`` attacks the revealing
    hero at once if it stands next to it (IND-AMB-22/23)."""
    kind = st.tile_type(s, tile)
    m = s["monsters"].get(kind) if kind in EVENT_MONSTERS else None
    here = s["heroes"][hero]["tile"]
    if m and m["tile"] and here and m["tile"] in st.board(s).neighbours[here]:
        combat.begin_attack(s, emit, ("monster", kind), here, rng, reveal_attack=True)


def one_in_a_million(s: State, emit: Emit, rng: Drbg) -> None:
    """IND-OIM-1 with IND-AMB-7: when every tile around a starting area is a revealed
    Mountain, fix (a) swaps the latest Mountain with a random face-down tile that is
    neither next to that area nor a monster home; fix (b) (option ``restart``) ends the
    game without a result, so the host starts a new one. Checked in every player count."""
    lay = st.board(s)
    for p in range(s["n"]):
        area = set(lay.area(p))
        ring_ = {n for t in area for n in lay.neighbours[t]} - area
        if ring_ and all(st.tile_type(s, t) == "mountains" for t in ring_):
            latest = s["mountains"][-1]
            homes = set(lay.homes.values())
            spots = sorted(t for t in s["hidden"] if t not in ring_ and t not in homes
                           and st.figure_at(s, t) is None)
            if s["options"]["one_in_a_million"] == "restart":                # fix (b): no result
                emit(event("GameAborted"))
            elif spots:
                emit(event("MountainSwapped", mountain=latest, to=rng.choice(spots), seat=p))
            return


def enter_effects(s: State, emit: Emit, hero: str, tile: str) -> None:
    """Entering: Poison Swamp deals 2 (IND-EVT-1, IND-AMB-35; not attack damage);
    the Mystic Clearing heals 2 once per activation (IND-EVT-12, IND-AMB-21)."""
    if st.tile_type(s, tile) == "poison_swamp":
        responses.hurt(s, emit, hero, 2, cause=None)
    else:
        harm.clearing_heal(s, emit, hero)


def move_hero(s: State, emit: Emit, hero: str, to: str, rng: Drbg, charge: bool = False,
              maelstrom_done: bool = False) -> None:
    """A voluntary move of the active hero (IND-MOVE-1..5, IND-SPR-1). Leaving a Maelstrom
    by normal movement, the last player picks the tile (IND-EVT-14, IND-AMB-30)."""
    seat = st.owner(s, hero)
    frm = s["heroes"][hero]["tile"]
    if st.tile_type(s, frm) == "maelstrom" and not charge and not maelstrom_done:
        options = [n for n in st.board(s).neighbours[frm] if st.free_for_seat(s, n, seat)]
        emit(event("DecisionAsked", kind="maelstrom", seat=st.last_player(s), options=options, hero=hero))
        return
    left = s["turn"]["moves"] - (0 if charge else 1)
    if face_down(s, to) and not reveal(s, emit, to, seat, hero, rng, entering=True):
        emit(event("HeroMoveBlocked", hero=hero, tile=to, moves=left))
        reveal_attack(s, emit, to, hero, rng)
        return
    emit(event("HeroMoved", hero=hero, frm=frm, to=to, moves=left,
               stopped=stops(s, hero, st.tile_type(s, to)), charge=charge))
    enter_effects(s, emit, hero, to)


def force_move(s: State, emit: Emit, hero: str, to: str, rng: Drbg) -> bool:
    """Fall back or another forced move (IND-FB-1/2/3, IND-FOG-5). False when the
    hero went to retreat because the revealed tile could not be entered."""
    frm = s["heroes"][hero]["tile"]
    if face_down(s, to) and not reveal(s, emit, to, st.owner(s, hero), hero, rng, entering=True):
        harm.retreat_hero(s, emit, hero, by_seat=None, by_monster=None)
        return False
    active = bool(s["turn"]) and s["turn"]["hero"] == hero
    emit(event("HeroFellBack", hero=hero, frm=frm, to=to, stopped=active and stops(s, hero, st.tile_type(s, to))))
    enter_effects(s, emit, hero, to)
    return True


def explore(s: State, emit: Emit, hero: str, tile: str) -> None:
    """IND-EXPL-1/2: spend 1 movement to look at an adjacent face-down tile in secret;
    the player then reveals it or puts it back (a pending choice)."""
    seat = st.owner(s, hero)
    emit(event("TilePeeked", tile=tile, seat=seat, hero=hero, kind=s["hidden"][tile], moves=s["turn"]["moves"] - 1))


def finish_explore(s: State, emit: Emit, seat: int, tile: str, show: bool, rng: Drbg) -> None:
    """IND-EXPL-3, IND-AMB-23: a full reveal counts as the exploring hero's; no entry effects."""
    hero = s["turn"]["hero"]
    emit(event("ExploreResolved", tile=tile, seat=seat, revealed=show))
    if show:
        reveal(s, emit, tile, seat, hero, rng)
        reveal_attack(s, emit, tile, hero, rng)


def swap_partners(s: State, hero: str) -> list[str]:
    """IND-EVT-2, IND-AMB-29: from the Unearthed Ancient Portal, once per activation, any hero
    or monster on a face-up tile, except an enemy hero standing on an outpost."""
    tile = s["heroes"][hero]["tile"]
    if tile is None or st.tile_type(s, tile) != "ancient_portal" or s["turn"].get("swapped"):
        return []
    seat = st.owner(s, hero)
    out = []
    for fid, x in [*s["heroes"].items(), *s["monsters"].items()]:
        at = x["tile"]
        if fid == hero or at is None or st.tile_type(s, at) is None:
            continue
        if fid in s["heroes"] and x["owner"] != seat and at in s["outposts"]:
            continue
        out.append(fid)
    return sorted(out)


def swap(s: State, emit: Emit, hero: str, other: str) -> None:
    """Swap places; the active hero may not move on (IND-AMB-29) and gets the entry effects."""
    here = s["heroes"][hero]["tile"]
    there = (s["heroes"].get(other) or s["monsters"][other])["tile"]
    emit(event("FiguresSwapped", hero=hero, other=other, hero_to=there, other_to=here))
    enter_effects(s, emit, hero, there)
