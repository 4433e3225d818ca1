"""Rounds (section 10): round start, the cycle of seats and monster seats, round end.

The cycle is a ring of participants (IND-AMB-48): ``seat:N`` and, between two
seats, the monster whose home lies there (``monster-<id>``, IND-MTURN-1). Solo
games walk the fixed slots M P M P M P M instead (IND-SOLO-4). Monsters are
game-driven actors: ``rules.turn`` hands their turns to the platform, which
appends what ``monsters.take_turn`` decides.
"""
from __future__ import annotations

from domain.core import event, seat_of

from . import monsters, responses, scoring, strategy
from . import state as st
from .state import Emit, State

SOLO_SLOTS = ("M", "P", "M", "P", "M", "P", "M")  # IND-SOLO-4


def ring(s: State) -> list[str]:
    """Seats clockwise with each monster seat right after its counter-clockwise neighbour."""
    by_home = {m["home"]: name for name, m in s["monsters"].items() if m["kind"] == "primary"}
    out = []
    for p in range(s["n"]):
        out.append(f"seat:{p}")
        if p in by_home:
            out.append(f"monster-{by_home[p]}")
    return out


def begin_round(s: State, emit: Emit) -> None:
    """Global steps G1-G3, per-player steps P2-P4 (IND-ROUND-4..10), then P1 (IND-ROUND-7):
    each player declares a tree in play order; the last declaration starts the first turn.
    P1 is asked after P2-P4 only because it needs the players' decisions; nothing in P2-P4
    depends on it."""
    emit(event("RoundBegan", round=s["round"] + 1, monster_level=None))
    recovered = {m: x["damage"] - 1 for m, x in s["monsters"].items() if x["tile"] and x["damage"] > 0}
    if recovered:
        emit(event("MonstersRecovered", damage=recovered))                      # G2, IND-AMB-8
    for m, x in sorted(s["monsters"].items()):                                 # G3, IND-MRET-2
        if x["retreat"] == "colour":
            emit(event("MonsterRedeployed", monster=m, tile=monsters.redeploy_tile(s, m)))
        elif x["retreat"] == "grey":
            emit(event("MonsterFlipped", monster=m))
    for p in st.play_order(s):
        healed = {}
        for h in s["seats"][p]["heroes"]:
            x = s["heroes"][h]
            if x["tile"] is not None and x["damage"]:
                heal = 2 if st.has_rule(h, "resilient") else 1                  # IND-ROUND-9, IND-SPR-3
                healed[h] = max(0, x["damage"] - heal)
        emit(event("HeroesReadied", seat=p, damage=healed))                     # P2, P3
    redeploy(s, emit)


def redeploy(s: State, emit: Emit) -> None:
    """P4 for every player in play order (IND-RET-6), then P1 (``strategy.ask``): each retreated
    hero comes back onto a free deployment tile of its own starting area, as many as there are
    free tiles. Its owner chooses which heroes and where (IND-AMB-26), one hero at a time, asked
    only when there is a choice; called again after each answer."""
    for p in st.play_order(s):
        out = [h for h in s["seats"][p]["heroes"] if s["heroes"][h]["tile"] is None]
        free = [t for t in st.board(s).deployment(p) if not st.occupied(s, t)]
        if not (out and free):
            continue
        if len(out) == len(free) == 1:
            emit(event("HeroRedeployed", hero=out[0], tile=free[0]))
        else:
            emit(event("DecisionAsked", kind="redeploy", seat=p, options=[[h, t] for h in out for t in free]))
            return
    strategy.ask(s, emit)


def start_cycle(s: State, emit: Emit) -> None:
    """The initiative holder takes the first turn (IND-ORDER-1); solo starts at slot 1."""
    if s["solo"]:
        _walk_solo(s, emit, -1)
    else:
        _walk(s, emit, s["ring"].index(f"seat:{s['initiative']}"), include_start=True)


def next_turn(s: State, emit: Emit) -> None:
    """After every turn: end the round if no player has an available hero (IND-ROUND-3,
    IND-AMB-48 step 3), else walk clockwise to the next seat that can act."""
    if s["solo"]:
        _walk_solo(s, emit, s["cursor"])
    else:
        _walk(s, emit, s["cursor"], include_start=False)


def _no_hero_left(s: State) -> bool:
    return not any(st.available_heroes(s, p) for p in range(s["n"]))


def monster_may_act(s: State, name: str) -> bool:
    """IND-MTURN-4/5 and IND-AMB-36: on the board, not walled in (IND-MTGT-6), under the cap of 3 turns, and
    in round 1 never under ``skipRound1``, only once every player has activated a hero under ``skipFirstPass``."""
    m = s["monsters"][name]
    if m["tile"] is None or m["turns"] >= 3 or monsters.stuck(s, name):          # IND-MTGT-6: skipped
        return False
    if resting(s):
        return False
    if s["round"] == 1 and s["options"]["monster_start"] == "skipFirstPass" and len(s["first_pass"]) < s["n"]:
        return False
    return True


def resting(s: State) -> bool:
    """IND-MTURN-6, IND-AMB-36 (A), option ``skipRound1``: «Los monstruos no se activan durante la
    primera ronda de juego» -- no monster takes a turn in round 1, the event monsters' turn at its
    end (E1, IND-EVM-3) included (under ``indagar-6`` they took it). Their reveal attack is no turn
    (IND-EVM-2) and still happens."""
    return s["round"] == 1 and s["options"]["monster_start"] == "skipRound1"


def _walk(s: State, emit: Emit, cursor: int, include_start: bool) -> None:
    ring_ = s["ring"]
    for step in range(0 if include_start else 1, 2 * len(ring_) + 1):
        if _no_hero_left(s):
            end_round(s, emit)
            return
        at = (cursor + step) % len(ring_)
        who = ring_[at]
        seat = seat_of(who)
        if seat is not None:
            if st.available_heroes(s, seat):
                begin_turn(s, emit, who, at)
                return
        elif monster_may_act(s, who.removeprefix("monster-")):
            begin_turn(s, emit, who, at)
            return
    end_round(s, emit)  # only monsters could act and all are capped


def begin_turn(s: State, emit: Emit, who: str, cursor: int) -> None:
    """A turn begins; with ``spirit_windows: every_turn`` the other seats holding spirits
    are asked first (IND-AMB-18)."""
    emit(event("TurnBegan", who=who, cursor=cursor))
    responses.ask_turn(s, emit)


def solo_monster(s: State) -> str | None:
    """IND-SOLO-5: the first monster clockwise from the player's area (home order)
    that is on the board and has not acted this round."""
    for name in st.primaries(s):
        m = s["monsters"][name]
        if m["tile"] is not None and not m["turns"] and not monsters.stuck(s, name):   # IND-MTGT-6
            return name
    return None


def _walk_solo(s: State, emit: Emit, cursor: int) -> None:
    for at in range(cursor + 1, len(SOLO_SLOTS)):
        if SOLO_SLOTS[at] == "P":
            if st.available_heroes(s, 0):
                begin_turn(s, emit, "seat:0", at)
                return
            continue
        if s["round"] == 1 and at == 0 and s["options"]["monster_start"] == "skipFirstPass":
            continue                                                            # IND-AMB-36
        if resting(s):
            continue
        name = solo_monster(s)
        if name is not None:
            begin_turn(s, emit, f"monster-{name}", at)
            return
    end_round(s, emit)


def end_turn(s: State, emit: Emit) -> None:
    """IND-TURN-4; outpost damage is discarded at the end of every turn (IND-OUT-10, IND-AMB-17)."""
    emit(event("TurnEnded", who=s["turn"]["who"]))
    if s["phase"] == "round_end":
        round_end_steps(s, emit)
    else:
        next_turn(s, emit)


def end_round(s: State, emit: Emit) -> None:
    """E1: event monsters on the board take one turn each, in reveal order (IND-EVM-3, IND-AMB-9)."""
    emit(event("RoundEnding", round=s["round"], event_monsters=[m for m in s["event_order"]
                                                               if s["monsters"].get(m, {}).get("tile")]))
    round_end_steps(s, emit)


def round_end_steps(s: State, emit: Emit) -> None:
    """E1's event monster turns, the seats' spirit windows before E2 (IND-AMB-18), then E2-E5."""
    queue = s["event_queue"]
    while queue:
        name = queue[0]
        if s["monsters"].get(name, {}).get("tile") and not monsters.stuck(s, name) and not resting(s):  # IND-MTGT-6, IND-AMB-36
            begin_turn(s, emit, f"event-{name}", s["cursor"])
            return
        emit(event("EventMonsterSkipped", monster=name))
    if responses.ask_round_end(s, emit):
        return
    result = scoring.check_winner(s)                                                   # E2, IND-ROUND-12
    if result is not None:
        emit(event("GameEnded", **result))
        return
    produced = production(s)                                                   # E3, IND-ROUND-13
    emit(event("OutpostsProduced", res={str(p): r for p, r in produced.items()}))
    emit(event("SpiritPlaced", total=s["source"] + 1))                         # E4, IND-ROUND-14
    emit(event("InitiativePassed", seat=(s["initiative"] + 1) % s["n"]))       # E5, IND-ROUND-15
    begin_round(s, emit)


def production(s: State) -> dict[int, dict[str, int]]:
    """IND-OUT-9: every outpost produces its level of its tile's resource; nothing on a
    destroyed tile (IND-TERM-2) or a non-resource tile (IND-AMB-24)."""
    out = {p: {r: 0 for r in st.RESOURCE_TILES} for p in range(s["n"])}
    for tile, o in s["outposts"].items():
        kind = st.tile_type(s, tile)
        if kind in st.RESOURCE_TILES and not s["tiles"][tile]["destroyed"]:
            out[o["owner"]][kind] += o["level"]
    return out
