"""The third rules audit's Indagar finding, fixed in indagar-5; each test quotes the rulebook.

Games created under indagar-4 keep its rules (domain/indagar/versions/indagar_4): each test
also shows the old version as it was, and the stored exports test replays its records."""
from __future__ import annotations

import pytest

from domain import registry
from domain.core import Drbg, Illegal
from domain.indagar import abilities
from domain.indagar.rules import GAME
from ind_support import apply, arena, line
from tests.support.positions import edit

OLD = registry.get("indagar", "indagar-4")


def charged_onto_the_portal() -> dict:
    """Ariane has spent her moves and takes the Charge! step onto the Ancient Portal, beside
    Zhuan: she now owes an attack (IND-SPR-1); Bertram stands elsewhere, a swap partner."""
    s = arena(2)
    a, p, z = line(s, "r4c1", 3)
    edit(GAME, s, f"""
        put ariane {a}
        reveal {p} ancient_portal
        put zhuan {z}
        put bertram r1c0
        turn 0 ariane 0
    """)
    s["seats"][0]["res"] = {"gold": 5, "wood": 5, "ore": 5}
    s = apply(s, 0, {"type": "move", "to": p})
    assert s["turn"]["charged"] and s["turn"]["must_attack"]
    return s


def test_IND_SPR_1_after_a_charge_move_only_the_attack_is_accepted_not_a_portal_swap():
    """«"¡Cargar!" - Este héroe puede optar por mover una loseta adicional durante su activación.
    Puede hacerlo solo si ejecuta una acción de ataque después [...] No se puede mover más
    exceptuando con un "Cargar!"» -- a Portal swap (IND-EVT-2) between the Charge! step and its
    attack was not listed but was accepted, carried Ariane away from Zhuan, and left a turn that
    could neither attack nor end (IND-TURN-4). Now it is refused with the Charge! rule."""
    s = charged_onto_the_portal()
    swap = {"type": "swap", "figure": "bertram"}
    assert swap not in GAME.legal_commands(s, 0)
    with pytest.raises(Illegal) as refused:
        GAME.decide(s, 0, swap, Drbg(b"t", "cmd"))
    assert (refused.value.code, refused.value.rule) == ("must_attack", "IND-SPR-1")
    assert {"type": "attack", "tile": s["heroes"]["zhuan"]["tile"]} in GAME.legal_commands(s, 0)
    # indagar-4 accepted it, and the turn was stuck: no attack in reach, end_turn refused.
    old = s
    for ev in OLD.decide(s, 0, swap, Drbg(b"t", "cmd")):
        old = OLD.evolve(old, ev)
    assert not [c for c in OLD.legal_commands(old, 0) if c["type"] in ("attack", "end_turn")]
    with pytest.raises(Illegal):
        OLD.decide(old, 0, {"type": "end_turn"}, Drbg(b"t", "cmd"))


def test_IND_SPR_1_after_a_charge_move_no_hero_ability_is_accepted_before_the_attack():
    """The same gap for a hero's own ability: listed nowhere while the attack is owed, it was
    accepted (an extra move among them: «No se puede mover más»). Refused now, as building,
    upgrading and gathering already were."""
    s = charged_onto_the_portal()
    unlisted = abilities.turn_abilities(s, 0)
    assert unlisted and not [c for c in GAME.legal_commands(s, 0) if c["type"] == "use_ability"]
    for cmd in unlisted:
        with pytest.raises(Illegal) as refused:
            GAME.decide(s, 0, cmd, Drbg(b"t", "cmd"))
        assert (refused.value.code, refused.value.rule) == ("must_attack", "IND-SPR-1")
    assert OLD.decide(s, 0, unlisted[0], Drbg(b"t", "cmd"))  # indagar-4 accepted it
