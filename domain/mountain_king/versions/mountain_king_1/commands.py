"""Command dispatch and the generator of every legal command.

Both sides share the checks: each handler validates with the same functions
the generators enumerate from (``recruiting``, ``digging``, ``trading``,
``spells``, ``halls``, ``setup``), so a listed command is always accepted.
"""
from __future__ import annotations

from domain.core import Illegal, require

from . import digging, halls, horde, recruiting, setup, spells, terrain, trading, turns
from .economy import can_afford, spendable
from .roster import FULL, placements

HANDLERS = {
    "trade": trading.trade,
    "cast": spells.cast,
    "use_workshop": trading.use_workshop,
    "recruit": recruiting.recruit,
    "dig": digging.dig,
    "place_pedestal": digging.place_pedestal,
    "establish_workshop": digging.establish_workshop,
    "build_hall": halls.build_hall,
    "move_statue": halls.move_statue,
}


def dispatch(s, seat: int, cmd: dict, rng, emit) -> None:
    kind = cmd.get("type")
    phase = s["phase"]
    require(phase != "over", "game_over", "MK-END-6", "the game is over")
    if phase == "doors":
        require(kind == "place_door", "out_of_phase", "MK-PSETUP-3", "players are placing their doors")
        setup.place_door(s, seat, cmd, rng, emit)
        return
    if phase == "draft":
        require(kind == "draft", "out_of_phase", "MK-PSETUP-4", "players are drafting their starter trolls")
        setup.draft(s, seat, cmd, rng, emit)
        return
    require(seat == s["current"], "not_your_turn", "MK-TURN-5", "it is not your turn")
    if kind == "end_step":
        turns.end_step(s, seat, emit)
    elif kind == "end_turn":
        turns.end_turn(s, seat, emit)
    elif kind == "trade":
        trading.trade(s, seat, cmd, rng, emit)  # any moment of the turn (MK-TURN-4)
    elif kind in HANDLERS:
        _step_checks(s, seat, kind)
        turns.enter(s, seat, turns.STEP_OF[kind], emit)
        HANDLERS[kind](s, seat, cmd, rng, emit)
    else:
        raise Illegal("unknown_command", None, f"unknown command type {kind!r}")


def _step_checks(s, seat: int, kind: str) -> None:
    if kind == "cast":
        require(not s["turn"]["spell"], "spell_already_cast", "MK-TURN-2", "at most one spell per turn")
    if kind == "use_workshop":
        ws = s["turn"]["ws"]
        require(ws is None or ws["left"] > 0, "workshop_done", "MK-WS-8", "your workshop activation is over")


def legal(s, seat: int) -> list[dict]:
    phase = s["phase"]
    if phase == "doors":
        return [{"type": "place_door", "point": p} for p in setup.door_options(s)] if seat == s["current"] else []
    if phase == "draft":
        return setup.draft_options(s, seat)
    if phase != "play" or seat != s["current"]:
        return []
    t = s["turn"]
    layout = terrain.lay(s)
    out = trading.trades(s, seat)
    step = t["step"]
    if step == "spells":
        if not t["spell"] and can_afford(s, seat, {"rune": 1}):
            for card in s["spells"]["book"]:
                out.extend({"type": "cast", "spell": card["id"], **p} for p in spells.options(s, seat, card["id"]))
        out.extend(trading.workshop_uses(s, seat))
    actions: list[dict] = []
    if not t["acted"]:  # step 2 still ahead (MK-ACT)
        actions = recruit_commands(s, seat) + digging.dig_commands(s, seat, layout)
        out.extend(actions)
    acting = t["acted"] or not actions  # may step 2 be left behind? (MK-ACT-4, same test as turns.can_act)
    if step == "followup":
        out.extend(digging.pedestal_options(s, seat))
        out.extend(digging.workshop_options(s, seat))
    if acting:
        if step != "statues":
            out.extend(halls.hall_commands(s, seat, layout))
        out.extend(halls.move_commands(s, seat, layout))
    if step == "spells" or acting:
        out.append({"type": "end_step"})
    if acting:
        out.append({"type": "end_turn"})
    return out


def recruit_commands(s, seat: int) -> list[dict]:
    """Every recruit: slot x roster position x (top row) pedestal choice (MK-REC, MK-CASC-2)."""
    roster = s["rosters"][seat]
    if len(roster) >= FULL:
        return []
    coins = spendable(s, seat).get("coin", 0)
    spots = placements(roster)
    out = []
    for slot in horde.SLOTS:
        if s["horde"]["slots"][slot]["card"] is None or recruiting.bribe_cost(s, seat, slot) > coins:
            continue
        peds = [None]
        if horde.row(slot) == 3:
            peds += [c for c in sorted(s["bag"]) if s["bag"][c] > 0]
        for pos in spots:
            for ped in peds:
                cmd = {"type": "recruit", "slot": slot, "position": pos}
                if ped:
                    cmd["pedestal"] = ped
                out.append(cmd)
    return out
