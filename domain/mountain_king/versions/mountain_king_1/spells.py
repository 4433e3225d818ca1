"""Spell casting (MK-SPELL) and the 17 authored effects (content/spells.yaml, MK-GAP-8).

A cast command is ``{"type": "cast", "spell": id, **params}``; each effect
kind lists its parameter sets (``options``) and resolves them (``resolve``)
through the same checks, so the generator and the validator cannot drift.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from domain.core import Illegal, event, require

from . import horde, terrain
from .content import RESOURCES
from .economy import available, plan_payment, spendable, troll_tokens
from .recruiting import refill
from .roster import activation
from .state import key

SPELLS: dict[str, dict] = {
    s["id"]: s for s in yaml.safe_load((Path(__file__).parent / "content" / "spells.yaml").read_text())
}
DISINTEGRATE_AT = 3  # MK-SPELL-3
CLANS = ("fire", "ice", "moon")


def _occupied(s) -> list[str]:
    return [sl for sl in horde.SLOTS if s["horde"]["slots"][sl]["card"] is not None]


def options(s, seat: int, spell: str) -> list[dict]:
    """Every parameter set of ``spell`` the seat may cast now (MK-AMB-29)."""
    sp = SPELLS[spell]
    kind = sp["effect"]
    flags = s["turn"]["flags"]
    if kind in ("gain", "per_tunnel"):
        return [{}]
    if kind == "lure":
        return [{"slot": sl, "res": r} for sl in _occupied(s) for r in RESOURCES if s["supply"][r] >= sp["count"]]
    if kind == "promise":
        have = _after_rune(s, seat)
        return [{"slot": sl, "res": r} for sl in _occupied(s) for r in sorted(have)]
    if kind == "activate":
        return [{"troll": _pos(p)} for p in sorted(s["rosters"][seat])]
    if kind == "unload":
        return [{"troll": _pos(p)} for p in sorted(s["rosters"][seat]) if any(s["rosters"][seat][p]["held"])]
    if kind == "transmute":
        have = _after_rune(s, seat)
        return [{"give": g, "get": t} for g in sorted(have) for t in RESOURCES if t != g and s["supply"][t] > 0]
    if kind == "statue_move":
        return [{"from": f, "to": t} for f, t in terrain.statue_moves(s, seat)]
    if kind == "turn_flag":
        if sp["flag"] in flags:
            return []
        if sp["flag"] in ("no_rubble_cost", "no_bribes") and s["turn"]["acted"]:
            return []
        if sp["flag"] == "extra_workshop_use" and s["turn"]["ws"] is not None:
            return []
        return [{}]
    if kind == "pedestal":
        return [{"clan": c} for c in CLANS if s["bag"].get(c, 0) > 0]
    if kind == "pickpocket":
        return [{"slot": sl} for sl in _occupied(s) if horde.bribe_count(s["horde"]["slots"][sl])]
    if kind == "dismiss":
        return [{"slot": sl} for sl in _occupied(s)]
    raise AssertionError(kind)


def _pos(p: str) -> list[int]:
    return [int(x) for x in p.split(",")]


def _after_rune(s, seat: int) -> dict:
    """Holdings left once the casting rune is paid (the rune comes first)."""
    have = spendable(s, seat)
    have["rune"] = have.get("rune", 0) - 1
    return {r: n for r, n in have.items() if n > 0}


def params_of(cmd: dict) -> dict:
    return {k: v for k, v in cmd.items() if k not in ("type", "spell", "sources")}


def cast(s, seat: int, cmd: dict, rng, emit) -> None:
    """MK-SPELL-2/3: pay 1 rune onto the card, resolve, disintegrate at the third."""
    spell = cmd.get("spell")
    book = [c["id"] for c in s["spells"]["book"]]
    require(spell in book, "not_in_spellbook", "MK-SPELL-1", "only a spellbook card can be cast")
    require(not s["turn"]["spell"], "spell_already_cast", "MK-TURN-2", "at most one spell per turn")
    params = params_of(cmd)
    require(params in options(s, seat, spell), "spell_cannot_resolve", "MK-AMB-29",
            f"{SPELLS[spell]['name']}: {SPELLS[spell]['precondition']}")
    paid = plan_payment(s, seat, {"rune": 1}, "MK-SPELL-2", cmd.get("sources"))
    runes = next(c["runes"] for c in s["spells"]["book"] if c["id"] == spell) + 1
    emit(event("SpellCast", seat=seat, spell=spell, paid=paid, runes=runes, params=params))
    _resolve(s, seat, SPELLS[spell], params, cmd.get("sources"), rng, emit)
    if runes >= DISINTEGRATE_AT:
        deck = s["spells"]["deck"] + [spell]
        emit(event("SpellDisintegrated", spell=spell, revealed=deck[0]))


def _resolve(s, seat: int, sp: dict, p: dict, sources, rng, emit) -> None:
    kind = sp["effect"]
    if kind == "gain":
        emit(event("ResourcesGained", seat=seat, resources=available(s, sp["gain"]), reason=sp["id"]))
    elif kind == "per_tunnel":
        n = min(sp["limit"], terrain.tunnel_count(s, seat))
        emit(event("ResourcesGained", seat=seat, resources=available(s, {sp["resource"]: n}), reason=sp["id"]))
    elif kind == "lure":
        emit(event("BribesPlaced", seat=seat, slot=p["slot"], resources={p["res"]: sp["count"]}, paid=None))
    elif kind == "promise":
        paid = plan_payment(s, seat, {p["res"]: 1}, "MK-REC-5", sources)
        emit(event("BribesPlaced", seat=seat, slot=p["slot"], resources={p["res"]: 1}, paid=paid))
    elif kind == "activate":
        emit(event("TrollsActivated", seat=seat, filled=activation(s, seat, [key(p["troll"])])))
    elif kind == "unload":
        pos = key(p["troll"])
        tokens = [[q, i] for q, i, _ in troll_tokens(s, seat) if q == pos]
        emit(event("TokensStored", seat=seat, tokens=tokens))
    elif kind == "transmute":
        paid = plan_payment(s, seat, {p["give"]: 1}, "MK-RES-2", sources)
        emit(event("ResourcesExchanged", seat=seat, paid=paid, gained={p["get"]: 1}, reason=sp["id"]))
    elif kind == "statue_move":
        emit(event("StatueMoved", seat=seat, **{"from": p["from"]}, to=p["to"], paid=None))
    elif kind == "turn_flag":
        emit(event("TurnFlagSet", seat=seat, flag=sp["flag"]))
    elif kind == "pedestal":
        emit(event("PedestalTaken", seat=seat, clan=p["clan"], source="bag"))
    elif kind == "pickpocket":
        emit(event("BribesCollected", seat=seat, slot=p["slot"],
                   resources=dict(s["horde"]["slots"][p["slot"]]["bribes"])))
    elif kind == "dismiss":
        slot = p["slot"]
        emit(event("TrollRetired", slot=slot, card=s["horde"]["slots"][slot]["card"],
                   bribes=dict(s["horde"]["slots"][slot]["bribes"])))
        refill(s, slot, rng, emit, new_pedestal=False)
    else:
        raise Illegal("unknown_effect", "MK-GAP-8", kind)
