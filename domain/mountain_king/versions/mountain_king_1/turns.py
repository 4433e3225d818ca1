"""Turn steps and their order (MK-TURN, MK-ACT, MK-END-4..6).

A command belongs to a step; issuing it moves the turn forward to that step
(MK-TURN-3: never back). Skipping step 2 without recruiting or digging is
allowed only when neither is possible (MK-ACT-4, MK-AMB-2).
"""
from __future__ import annotations

from domain.core import Illegal, event, require

from . import digging
from .recruiting import can_recruit
from .scoring import final_scores
from .state import STEPS

STEP_OF = {
    "cast": "spells", "use_workshop": "spells",
    "recruit": "action", "dig": "action",
    "place_pedestal": "followup", "establish_workshop": "followup",
    "build_hall": "hall", "move_statue": "statues",
}


def can_act(s, seat: int) -> bool:
    """MK-AMB-2: a recruit or a complete legal dig is possible now. Without a payable
    dig you must recruit (MK-ACT-3); with both possible you choose (MK-ACT-5)."""
    return can_recruit(s, seat) or digging.can_dig(s, seat)


def reachable(s, seat: int, step: str) -> bool:
    """Whether a command of ``step`` may be issued now (moving forward to it)."""
    cur = STEPS.index(s["turn"]["step"])
    target = STEPS.index(step)
    if target < cur:
        return False
    if step == "followup":
        return s["turn"]["step"] == "followup"
    if step == "action":
        return not s["turn"]["acted"]
    if target > STEPS.index("action") and not s["turn"]["acted"]:
        return not can_act(s, seat)
    return True


def enter(s, seat: int, step: str, emit) -> None:
    """Move the turn forward to ``step`` or refuse (MK-TURN-3, MK-ACT-1)."""
    cur = s["turn"]["step"]
    if STEPS.index(step) < STEPS.index(cur) or (step == "action" and s["turn"]["acted"]):
        raise Illegal("out_of_phase", "MK-TURN-3", f"the turn has moved past the {step} step")
    if step == "followup":
        require(cur == "followup", "no_dig", "MK-DIG-12", "pedestals and workshops follow your dig only")
        return
    if STEPS.index(step) > STEPS.index("action") and not s["turn"]["acted"]:
        require(not can_act(s, seat), "must_recruit_or_dig", "MK-ACT-1", "you must recruit or dig this turn")
    if step != cur:
        emit(event("StepBegan", seat=seat, step=step))


def end_step(s, seat: int, emit) -> None:
    """Finish the current step; after step 4 the turn ends."""
    cur = s["turn"]["step"]
    if cur == "statues":
        end_turn(s, seat, emit)
        return
    nxt = "action" if cur == "spells" else ("hall" if cur in ("action", "followup") else "statues")
    enter(s, seat, nxt, emit)


def end_turn(s, seat: int, emit) -> None:
    if not s["turn"]["acted"]:
        require(not can_act(s, seat), "must_recruit_or_dig", "MK-ACT-1", "you must recruit or dig this turn")
    emit(event("TurnEnded", seat=seat))
    if s["turns_left"] == 0:
        emit(event("GameEnded", scores=final_scores(s)))  # MK-END-6
        return
    nxt = (s["order"].index(seat) + 1) % s["n"]
    rnd = s["round"] + (1 if nxt == 0 else 0)  # a round begins with the start player (MK-GEN-4)
    emit(event("TurnStarted", seat=s["order"][nxt], round=rnd))
