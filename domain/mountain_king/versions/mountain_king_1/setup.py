"""Table setup (MK-SETUP-1..9) and player setup (MK-PSETUP-1..9).

``start`` emits the shuffles and deals; then doors are placed in turn order
(``place_door``, MK-PSETUP-3) and the starter draft runs for all seats at once
(``draft``, MK-PSETUP-4, MK-AMB-10). Seats are clockwise; the start player is
the ``start_player`` option (seat 0 by default). In the team variant the 1st and
4th players in turn order form team 0, the 2nd and 3rd team 1 (MK-TEAM-5).
"""
from __future__ import annotations

from domain.core import event, require

from . import board as geo
from . import content, horde, terrain
from .catalog import horde_ids, starter_ids, starting_row
from .economy import SUPPLY, available
from .spells import SPELLS
from .workshops import TYPES

CLANS = ("fire", "ice", "moon")
PEDESTALS_PER_CLAN = 6  # MK-COMP-13
STATUES_PER_CLAN = 7  # MK-COMP-11
COPIES = 2  # of each workshop type (MK-COMP-12)
UNLIMITED = 10 ** 6  # "unlimited" supply stock (MK-AMB-4 option)
TEAM_STORE = [0, 1, 1, 0]  # MK-TEAM-5: by turn position A1, B1, B2, A2 clockwise
SLOTS_PER_ROW = {1: 5, 2: 4, 3: 3}


def start(options: dict, n: int, rng) -> list[dict]:
    teams = bool(options["teams"])
    side = options["board"]
    first = options["start_player"]
    order = [(first + k) % n for k in range(n)]  # clockwise from the start player (MK-GEN-4)
    store_of = [TEAM_STORE[order.index(seat)] for seat in range(n)] if teams else list(range(n))
    levels = (1, 2, 3, 4, 5)
    tokens = rng.shuffled(content.pedestal_tokens())  # MK-SETUP-9, keyed by (level, clan) (MK-BOARD-11)
    track = {f"{lv}:{clan}": tokens[i * 3 + j] for i, lv in enumerate(levels) for j, clan in enumerate(CLANS)}
    supply = {r: UNLIMITED for r in SUPPLY} if options["unlimited_supply"] else dict(SUPPLY)  # MK-SETUP-1
    colours = options["colours"] or list(content.colours()[:n])  # MK-PSETUP-1
    teams_of = [[order[0], order[3]], [order[1], order[2]]] if teams else None
    out = [event("TableSet", players=n, board=side, teams=teams_of, options=options, order=order,
                 store_of=store_of, colours=colours, supply=supply,
                 tiles={t.id: t.copies for t in content.tiles()}, halls=[h.id for h in content.halls()],  # MK-SETUP-2
                 ped_track=track, coronation=[3] if n == 2 else [5, 3])]  # MK-SETUP-5
    decks = {str(lv): rng.shuffled(horde_ids(lv)) for lv in (1, 2, 3)}  # MK-SETUP-3
    slots = {}
    for lv, prefix in ((1, "B"), (2, "M"), (3, "T")):
        for j in range(1, SLOTS_PER_ROW[lv] + 1):
            slots[f"{prefix}{j}"] = decks[str(lv)].pop(0)
    out.append(event("HordeDealt", slots=slots, decks=decks))
    bag = {c: PEDESTALS_PER_CLAN for c in CLANS}
    drawn = {}
    for j in range(1, 5):  # MK-SETUP-4
        clan = horde.draw_pedestal(bag, rng)
        bag[clan] -= 1
        drawn[f"M{j}"] = clan
    out.append(event("PedestalsDrawn", slots=drawn, bag=bag))
    out.append(event("WorkshopsRevealed", kinds=_workshops(options, n, rng)))
    spells = rng.shuffled(sorted(SPELLS))  # MK-SETUP-7
    out.append(event("SpellbookRevealed", book=spells[:3], deck=spells[3:]))
    out.append(event("StatuesPlaced", statues=_statues(content.board(side), rng)))
    out.append(event("StarterDecksShuffled", decks=[rng.shuffled(starter_ids(c))
                                                     for c in colours]))
    out.append(event("PhaseBegan", phase="doors", seat=order[0]))
    return out


def _workshops(options: dict, n: int, rng) -> list[str]:
    """MK-SETUP-6: 2n+1 of the 22 tiles, at random; or chosen (MK-SETUP-6.1); or at random
    with duplicates replaced from the face-down rest while possible (MK-SETUP-6.2)."""
    if options["workshops"] is not None:
        return sorted(options["workshops"])
    pile = rng.shuffled([k for k in TYPES for _ in range(COPIES)])
    if not options["replace_duplicate_workshops"]:
        return sorted(pile[: 2 * n + 1])
    shown: list[str] = []
    for kind in pile:
        if kind not in shown and len(shown) < 2 * n + 1:
            shown.append(kind)
    return sorted(shown)


def _statues(board, rng) -> dict[str, str]:
    """MK-SETUP-8 / TN-8: a random clan order repeated clockwise from a random space."""
    first = rng.choice(CLANS)
    rest = [c for c in CLANS if c != first]
    second = rng.choice(rest)
    order = [first, second, next(c for c in rest if c != second)]
    spaces = list(board.statue_spaces)
    begin = rng.randbelow(len(spaces))
    out = {}
    for k in range(min(len(spaces), 3 * STATUES_PER_CLAN)):
        r, c = spaces[(begin + k) % len(spaces)]
        out[f"{r},{c}"] = order[k % 3]
    return out


# --- doors (MK-PSETUP-3, MK-AMB-30, MK-TEAM-3) --------------------------------

def door_options(s) -> list[str]:
    """Start points where the current seat's door may go."""
    b = terrain.side(s)
    placed = {int(p["seat"]): p for p in s["pieces"].values() if p["kind"] == "door"}
    seat = s["current"]
    labels = [s["n"]]
    if s["n"] == 2:  # MK-PSETUP-3.1: any label, the second door sharing the first's
        if placed:
            first = b.start_point(s["door_points"][s["order"][0]])
            labels = list(first.labels)
        else:
            labels = sorted({lb for p in b.start_points for lb in p.labels})
    out = []
    for label in labels:
        for pid in content_door_points(s, label):
            if pid not in out and _team_ok(s, b, seat, pid):
                out.append(pid)
    return out


def content_door_points(s, label: int) -> list[str]:
    return geo.door_points(terrain.side(s), s["pieces"], label, content.door())


def _team_ok(s, b, seat: int, pid: str) -> bool:
    """MK-TEAM-3 / MK-AMB-27b: teammates' doors on a marked pair of neighbouring points."""
    if not s["teams"]:
        return True
    partner = {a: c for x, y in b.team_pairs for a, c in ((x, y), (y, x))}
    if pid not in partner:
        return False
    mate = next(m for m in range(s["n"]) if m != seat and s["store_of"][m] == s["store_of"][seat])
    taken = s["door_points"]
    if taken[mate] is not None:
        return partner[pid] == taken[mate]
    return partner[pid] not in taken


def place_door(s, seat: int, cmd: dict, rng, emit) -> None:
    require(seat == s["current"], "not_your_turn", "MK-PSETUP-3", "doors are placed in turn order")
    point = cmd.get("point")
    require(point in door_options(s), "bad_start_point", "MK-PSETUP-3",
            "choose a free start point for this player count, not next to another door")
    place = s["order"].index(seat)
    nxt = s["order"][place + 1] if place + 1 < s["n"] else None
    emit(event("DoorPlaced", seat=seat, point=point, next=nxt))
    if nxt is None:
        emit(event("PhaseBegan", phase="draft", seat=None))
        for st in range(s["n"]):
            emit(event("StartersDrawn", seat=st, count=2, cards=s["draft"][st]["deck"][:2]))


# --- starter draft (MK-PSETUP-4..8) ------------------------------------------

def drafting(s, seat: int) -> bool:
    return s["phase"] == "draft" and len(s["draft"][seat]["placed"]) < 4


def draft_options(s, seat: int) -> list[dict]:
    if not drafting(s, seat):
        return []
    dr = s["draft"][seat]
    free = [k for k in (1, 2, 3, 4) if str(k) not in dr["placed"]]
    return [{"type": "draft", "card": c, "slot": k} for c in dr["hand"] for k in free]


def draft(s, seat: int, cmd: dict, rng, emit) -> None:
    require(drafting(s, seat), "not_drafting", "MK-PSETUP-4", "your four starter slots are filled")
    dr = s["draft"][seat]
    require(cmd.get("card") in dr["hand"], "not_in_hand", "MK-PSETUP-4", "place one of the two cards you hold")
    require(str(cmd["slot"]) not in dr["placed"], "slot_taken", "MK-PSETUP-4", "choose an empty slot 1..4")
    emit(event("StarterPlaced", seat=seat, card=cmd["card"], slot=cmd["slot"]))
    if len(dr["placed"]) < 4:
        emit(event("StartersDrawn", seat=seat, count=1, cards=dr["deck"][:1]))
    elif all(len(d["placed"]) == 4 for d in s["draft"]):
        _finish(s, emit)


def _finish(s, emit) -> None:
    """MK-PSETUP-6/7/8 and MK-TEAM-6: starting rows, turn-order bonus, cleanup."""
    for seat in range(s["n"]):
        dr = s["draft"][seat]
        cards = [dr["placed"][str(k)] for k in (1, 2, 3, 4)]
        if not s["teams"]:
            place = s["order"].index(seat)  # MK-PSETUP-7: by position in turn order
            cards += dr["hand"] if place >= 1 else []
            cards += dr["deck"] if place >= 3 else []
        want: dict = {}
        for card in cards:
            for r in starting_row(card):
                want[r] = want.get(r, 0) + 1
        emit(event("StartingResourcesTaken", seat=seat, cards=cards, resources=available(s, want)))
    emit(event("DraftFinished"))
    emit(event("TurnStarted", seat=s["order"][0], round=1))
