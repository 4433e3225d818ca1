"""Response windows: spirits and always-available abilities outside one's own turn.

Spirits may be spent "at any time" (IND-SPI-4, IND-PP-3), including in other
players' turns and at round end up to the winner check (IND-AMB-18), and
always-available abilities in any player's or monster's turn (IND-ABL-12,
IND-AMB-41). The platform lets a seat act only when a turn or a decision is its
own, so the game offers a *response window* -- a pending decision
``{"kind": "respond", "seat", "moment"}`` that stays with the seat until it
passes -- at each moment where such a spend can change what happens:

- ``damage``: a hero is about to take damage that is no attack's (Poison Swamp, a
  Wild Storm): its owner may spend a spirit to ignore 3 of it (IND-AMB-18 use 3,
  "inside or outside attacks") or use an ``ignore_damage`` ability -- an
  always-available one, or in its own turn one of the active hero or the tree
  (IND-DMG-2, IND-ABL-10) -- before the damage lands. A fall back or Charge
  Through onto a Poison Swamp opens one inside an attack, which waits for it;
  the attack's own damage is answered in the defender's window of IND-AMB-11.
- ``round_end``: after step E1, before the winner check E2 (IND-ROUND-12), every
  seat holding a spirit, in play order: buy PP, resources, heal (IND-AMB-18 uses
  1, 3, 4). No ability is offered: at round start and end only passive abilities
  apply (IND-AMB-41).
- ``turn`` (option ``spirit_windows: every_turn``): at the start of every other
  participant's turn (players', monsters', event monsters'), every other seat
  holding a spirit; the literal "any time" for tables that want it.

Every window offers the spirit uses 1, 3 and 4 and the 3:1 exchange (IND-RES-5,
IND-AMB-20, "at any time"), and ``pass``; the attack windows of IND-AMB-11 offer
them too (see ``commands``). A window is bounded: every spend lowers the seat's
spirits or resources, and ``pass`` is always legal; bots pass when nothing pays.
"""
from __future__ import annotations

from itertools import product

from domain.core import event, seat_of

from . import abilities, content, harm
from . import state as st
from .state import Emit, State

RES = content.RESOURCES
MIXES = [dict(zip(RES, m)) for m in product(range(4), repeat=3) if sum(m) == 3]  # 3 resources, any mix


def spends(s: State, seat: int) -> list[dict]:
    """IND-SPI-3 uses 1, 3 and 4, and the 3:1 exchange (IND-RES-5, IND-AMB-19/20): what a
    seat may do at any moment it is asked."""
    me = s["seats"][seat]
    out = []
    if me["spirits"] >= 1:
        out += [{"type": "spirit", "use": "resources", "get": m} for m in MIXES]
        out += [{"type": "spirit", "use": "heal", "hero": h} for h in me["heroes"]
                if s["heroes"][h]["tile"] and s["heroes"][h]["damage"]]
    if me["spirits"] >= 2:
        out.append({"type": "spirit", "use": "pp"})
    for give in MIXES:
        if all(me["res"][r] >= n for r, n in give.items()):
            out += [{"type": "exchange", "give": give, "get": r} for r in RES if not give[r]]  # "de otro recurso"
    return out


def spend(s: State, emit: Emit, seat: int, cmd: dict) -> None:
    """Apply one of ``spends`` (checked by the caller)."""
    if cmd["type"] == "exchange":
        emit(event("ResourcesExchanged", seat=seat, give=cmd["give"], get=cmd["get"]))
        return
    use = cmd["use"]
    if use == "resources":
        emit(event("SpiritSpent", seat=seat, n=1, use=use, get=cmd["get"]))
    elif use == "pp":
        emit(event("SpiritSpent", seat=seat, n=2, use=use))
    else:
        hero = cmd["hero"]
        emit(event("SpiritSpent", seat=seat, n=1, use=use, hero=hero))
        emit(event("HeroHealed", hero=hero, damage=max(0, s["heroes"][hero]["damage"] - 3), reason="spirit"))


def options(s: State, seat: int, p: dict) -> list[dict]:
    """The commands of an open response window."""
    out = spends(s, seat)
    if p["moment"] == "damage" and p["damage"] > 0:
        out += _shields(s, seat, p["hero"])
    return out + [{"type": "pass"}]


def _shields(s: State, seat: int, hero: str) -> list[dict]:
    """What can lessen damage about to land on ``hero``: a spirit (ignore 3) and the
    abilities that only ignore damage and may be used now (``abilities.shields``)."""
    out = [{"type": "spirit", "use": "ignore"}] if s["seats"][seat]["spirits"] >= 1 else []
    return out + abilities.shields(s, seat, hero)


def hurt(s: State, emit: Emit, hero: str, n: int, cause: int | None) -> None:
    """Damage that is no attack's (Poison Swamp, a Wild Storm), with the owner's ``damage``
    window first when it could answer (IND-AMB-18 use 3: "ignore incoming damage in or out of
    attacks"; IND-DMG-2). Also inside an attack -- a fall back or Charge Through onto a Poison
    Swamp -- where the attack waits for the window (``waiting``; under ``indagar-5`` such
    damage landed at once)."""
    seat = st.owner(s, hero)
    if _shields(s, seat, hero):
        emit(event("DecisionAsked", kind="respond", seat=seat, moment="damage", hero=hero, damage=n, cause=cause))
        return
    harm.damage_hero(s, emit, hero, n, cause)


def waiting(s: State) -> bool:
    """An attack under way waits for a damage window opened inside it (``hurt``)."""
    return s["attack"] is not None and any(p["kind"] == "respond" and p["moment"] == "damage" for p in s["pending"])


def ask_round_end(s: State, emit: Emit) -> bool:
    """Before E2: a window to every seat holding a spirit, in play order, once per round
    end. True when a window is open (the round end waits for it)."""
    if s.get("round_windows"):
        return False
    seats = [p for p in st.play_order(s) if s["seats"][p]["spirits"] >= 1]
    if not seats:
        return False
    emit(event("ResponseWindowsOpened", moment="round_end", seats=seats))
    for p in seats:
        emit(event("DecisionAsked", kind="respond", seat=p, moment="round_end"))
    return True


def ask_turn(s: State, emit: Emit) -> None:
    """Option ``every_turn``: at a turn's start, every other seat holding a spirit."""
    if s["options"].get("spirit_windows") != "every_turn":
        return
    mover = seat_of(s["turn"]["who"])
    for p in st.play_order(s):
        if p != mover and s["seats"][p]["spirits"] >= 1:
            emit(event("DecisionAsked", kind="respond", seat=p, moment="turn"))


def decide(s: State, emit: Emit, seat: int, cmd: dict, p: dict) -> bool:
    """A spirit, exchange or pass in an open window (checked against ``options`` by the
    caller, which applies an ability itself). True when the round end goes on now."""
    kind = cmd["type"]
    if kind in ("spirit", "exchange") and cmd.get("use") != "ignore":
        spend(s, emit, seat, cmd)
    elif kind == "spirit":
        emit(event("SpiritSpent", seat=seat, n=1, use="ignore", hero=p["hero"]))
    else:
        emit(event("DecisionMade", kind="respond", seat=seat, choice={}))
        return _after(s, emit, p)
    return False


def _after(s: State, emit: Emit, p: dict) -> bool:
    """A window closed: the damage lands; True when it was the round end's last window."""
    if p["moment"] == "damage":
        if p["damage"] > 0 and s["heroes"][p["hero"]]["tile"] is not None:
            harm.damage_hero(s, emit, p["hero"], p["damage"], p["cause"])
        return False
    return p["moment"] == "round_end" and not any(q["kind"] == "respond" for q in s["pending"])
