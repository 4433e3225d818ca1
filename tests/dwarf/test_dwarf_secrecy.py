"""Secrecy (DW-CARD-3, DW-AMB-19): every stack is public; the Mountain's order and the
piles beyond the top cards' special sides are not. Canaries: hidden card ids never
appear in any seat's view or redacted events."""
from __future__ import annotations

import json

from domain.core import Drbg, Seat
from domain.dwarf import content
from domain.dwarf.rules import GAME
from tests.dwarf.dwarf_support import apply, start


def _hidden(s: dict) -> set[str]:
    """Card ids no seat may know now: the Mountains, and every card of a pile (the top
    card's id would reveal its Mine side, DW-AMB-19)."""
    out = set()
    for area in s["areas"]:
        out |= set(area["mountain"])
        for pile in area["piles"]:
            out |= set(pile)
    return out


def _known(s: dict) -> set[str]:
    return {c for area in s["areas"] for stack in area["stacks"].values() for c in stack}


def test_DW_CARD_3_DW_AMB_19_DW_RN_4_view_shows_stacks_not_mountain_or_piles():
    """DW-CARD-3, DW-AMB-19, DW-RN-4, DW-SETUP-2: stacks public, Mountain count only, each
    pile's count and top special side only."""
    s = start(3)
    for seat in (None, 0, 1, 2):
        v = GAME.view(s, seat)
        text = json.dumps(v)
        assert all(f'"{c}"' not in text for c in _hidden(s) - _known(s))
        assert v["mines"][0]["mountain_count"] == len(s["areas"][0]["mountain"])
        assert [p["top_special"] for p in v["mines"][0]["piles"]] == \
            [content.card(p[0]).special for p in s["areas"][0]["piles"]]
        assert v["mines"][0]["mine"]["22"]["stack"] == s["areas"][0]["stacks"]["22"]


def test_DW_CARD_3_redacted_setup_events_hide_the_order():
    """DW-CARD-3: MountainShuffled and PilesDealt are redacted for every seat and spectators."""
    events = GAME.start({}, [Seat(i, f"p{i}") for i in range(2)], Drbg(b"canary", "v0"))
    s = start(2, seed=b"canary")
    for seat in (None, 0, 1):
        text = json.dumps([GAME.redact(e, seat) for e in events])
        assert all(f'"{c}"' not in text for c in _hidden(s) - _known(s))


def test_canaries_hold_through_whole_games():
    """Hidden ids never leak in any view or redacted event during a played game (4 players,
    two Mines): what stays hidden after a step appears in nothing that step showed."""
    s = start(4, seed=b"leak")
    steps = 0
    while not GAME.is_terminal(s):
        assert steps < 1000
        seat = next(iter(GAME.turn(s).seats))
        rng = Drbg(b"leak", f"v{steps}")
        events = GAME.decide(s, seat, GAME.bots["random"](GAME, s, seat, rng.fork("bot")), rng)
        s = apply(s, events)
        secret = _hidden(s) - _known(s)
        shown = json.dumps([GAME.view(s, steps % 4), [GAME.redact(e, steps % 4) for e in events]])
        assert not [c for c in secret if f'"{c}"' in shown]
        steps += 1
