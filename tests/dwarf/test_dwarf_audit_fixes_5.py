"""The second rules audit's DWARF findings, fixed in dwarf-5; each test quotes the rulebook.

Games created under dwarf-4 keep its rules (domain/dwarf/versions/dwarf_4): the stored
exports test replays them."""
from __future__ import annotations

from domain.core import event
from domain.dwarf.rules import GAME
from tests.dwarf.dwarf_support import act, apply, give, start
from tests.dwarf.test_dwarf_rounds import place, stage_mine


def test_DW_COMB_3_DW_AMB_7_every_mountain_is_mined_in_a_round_still_played():
    """«Durante la Fase de Extracción de Minerales, se roban dos cartas de cada Montaña y se
    colocan en su respectiva área de juego.» With ``empty_mountain_end = finish_round`` the round
    in which a Mountain runs out is still played (DW-AMB-7), so Mine 0's empty Mountain does not
    keep Mine 1's from supplying its two cards (dwarf-4 stopped at the first empty one)."""
    s = start(4, first_player=0, empty_mountain_end="finish_round")
    s = stage_mine(stage_mine(s), area=1)
    s = apply(s, [event("MountainShuffled", area=0, cards=[]),
                  event("MountainShuffled", area=1, cards=["M02", "M06", "M11"])])
    for seat, loc in ((0, "11"), (1, "12"), (2, "13"), (3, "21")):
        s = place(s, seat, loc)
    while s["round"] == 1:
        s = act(s, next(iter(GAME.active_seats(s))), {"type": "pass"})
    assert s["round"] == 2 and s["phase"] == "select" and s["end_pending"] == "mountain_empty"
    assert s["areas"][1]["mountain"] == ["M11"]
    assert s["areas"][1]["stacks"]["11"][-1] == "M02" and s["areas"][1]["stacks"]["12"][-1] == "M06"


def test_DW_FP_3_DW_AMB_2_DW_AMB_5_a_first_player_who_forged_early_passes_the_marker_despite_orc_raiders():
    """«Si el [jugador inicial] realizó una acción [Forjar], el marcador pasa al siguiente jugador»
    and, of a worker a Special Action covers, «el jugador propietario de ese [trabajador] ejecuta
    ahora la acción de la carta de Mina original»: the first player's Forge, carried out early,
    was carried out, and undefended Orc Raiders do not undo it (DW-AMB-2), so the marker passes
    (dwarf-4 held it back whenever the Raiders banned the Forge step)."""
    s = stage_mine(start(2, first_player=0), {"13": "M14", "31": "S7"})   # Orc Raiders L(1,3), Forge Sword L(3,1)
    s = apply(s, [event("PilesDealt", area=0, piles=[["X7"], ["X4"], ["X1"]])])  # X7's Mine side goes to L(3,1)
    s = give(s, 0, steel=3)
    s = place(s, 0, "31")                                       # the first player on the Forge
    s = act(s, 1, {"type": "special", "pile": 0, "pay": False})  # covers it: player 0 forges now
    assert s["players"][0]["object"] == 1
    s = place(s, 0, "11")                                       # the Orc Raiders stay undefended
    assert s["round"] == 2 and s["first"] == 1
