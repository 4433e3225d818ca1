"""The rules audit's DWARF findings, fixed in dwarf-3; each test quotes the rulebook.

Games created under dwarf-2 keep its rules (domain/dwarf/versions/dwarf_2): the stored
exports test replays them."""
from __future__ import annotations

import pytest

from domain import registry
from domain.core import Drbg, Illegal
from domain.dwarf.rules import GAME
from tests.dwarf.dwarf_support import give, start
from tests.dwarf.test_dwarf_rounds import passes, place, stage_mine

AUTO = 1  # the automaton's participant index in a one-seat game


def test_DW_FP_3_DW_RES_6_an_unpaid_forge_passes_no_marker():
    """«Forjar – Los ♠ en localizaciones se resuelven ahora ... Si el [jugador inicial]
    realizó una acción, el marcador pasa al siguiente jugador»: a Forge action the first
    player cannot pay is not carried out (DW-RES-6), so the marker stays."""
    base = stage_mine(start(2, first_player=0), {"31": "S7"})         # a Forge card that costs Steel
    unpaid = passes(passes(place(place(base, 0, "31"), 1, "11"), 1), 0)
    assert unpaid["players"][0]["object"] == 0 and unpaid["first"] == 0
    paid = passes(passes(place(place(give(base, 0, steel=6), 0, "31"), 1, "11"), 1), 0)
    assert paid["players"][0]["object"] == 1 and paid["first"] == 1


def test_DW_SOLO_4_DW_SOLO_6_the_automaton_is_no_seat():
    """The automaton «Nunca realiza Acciones Especiales» (DW-SOLO-6): its placements are the
    game's (DW-SOLO-4, decide_actor); its participant index is not a seat a command may name."""
    s = stage_mine(start(1))
    assert GAME.turn(s).actor == "automaton"
    with pytest.raises(Illegal) as refused:
        GAME.decide(s, AUTO, {"type": "special", "pile": 0}, Drbg(b"t", "v"))
    assert refused.value.code == "not_a_seat" and refused.value.rule == "DW-SOLO-4"
    old = registry.get("dwarf", "dwarf-2")
    assert old.decide(s, AUTO, {"type": "special", "pile": 0}, Drbg(b"t", "v"))  # as dwarf-2 did


def test_DW_RES_1_a_resolution_step_runs_on_its_own():
    """DW-RES-1's Forge step, run alone on a staged position (resolution.run_step): the
    workers placed, the step gives the Forge's events and its marker check, nothing more."""
    from domain.dwarf import resolution
    from domain.dwarf.evolve import batch
    base = stage_mine(start(2, first_player=0), {"31": "S7"})
    placed = passes(place(place(give(base, 0, steel=6), 0, "31"), 1, "11"), 1)   # player 0 still to pass
    b = batch(placed)
    assert resolution.run_step(b, "forge")
    kinds = [e["type"] for e in b.events]
    assert kinds[0] == "StepStarted" and "ActionResolved" in kinds and kinds[-1] == "MarkerPassed"
    assert "RoundEnded" not in kinds and b.state["players"][0]["object"] == 1
    with pytest.raises(ValueError, match="the steps are help, mine, forge, defend"):
        resolution.run_step(batch(placed), "feast")
