"""Setup of the table (DW-SETUP, DW-ALT, DW-COMB-1) and Phase 1, Mining (DW-MINE)."""
from __future__ import annotations

from domain.core import Drbg
from domain.dwarf.versions.dwarf_5 import content
from domain.kit import Batch


def lay_out(b: Batch, rng: Drbg, area: int, by_lanterns: bool) -> None:
    """DW-SETUP-1..3 for one copy: the 3x3 Mine of starting cards, the Mountain
    (shuffled, or 2-lantern cards over 3-lantern cards with DW-ALT-1/2, DW-AMB-9)
    and three piles of three shuffled Special Action cards (DW-SETUP-2)."""
    cards = content.cards()
    b.emit("MineLaid", area=area, cards={cards[c].location: c for c in content.of_kind("starting")})
    mountain = content.of_kind("mountain")
    if by_lanterns:
        order = (rng.shuffled([c for c in mountain if cards[c].lanterns == 2])
                 + rng.shuffled([c for c in mountain if cards[c].lanterns == 3]))
    else:
        order = rng.shuffled(mountain)
    b.emit("MountainShuffled", area=area, cards=order)
    specials = rng.shuffled(content.of_kind("special"))
    b.emit("PilesDealt", area=area, piles=[specials[0:3], specials[3:6], specials[6:9]])


def _draw(b: Batch, area: int) -> str | None:
    """Draw the Mountain's top card onto its location (DW-MINE-1); None if the Mountain is empty."""
    mountain = b.state["areas"][area]["mountain"]
    if not mountain:
        return None
    cid = mountain[0]
    b.emit("CardMined", area=area, location=content.card(cid).location, card=cid)
    return content.card(cid).location


def mine(b: Batch) -> bool:
    """Draw 2 per Mountain, a 3rd when both went to one location (DW-MINE-2, per Mine
    with DW-COMB-3). False when a required draw found a Mountain empty (DW-MINE-3,
    DW-AMB-8, DW-COMB-7): the caller ends the game, at once by default; when the round is
    still played (``empty_mountain_end = finish_round``, DW-AMB-7) every other Mountain is
    still mined, «se roban dos cartas de cada Montaña»."""
    ok = True
    for area in range(len(b.state["areas"])):
        first = _draw(b, area)
        second = _draw(b, area) if first else None
        if first is None or second is None or (first == second and _draw(b, area) is None):
            ok = False
            if b.state["options"]["empty_mountain_end"] == "immediate":
                break
    return ok
