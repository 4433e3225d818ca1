"""What an Indagar seat may know, for the search bot (``domain.kit.search``).

Hidden (IND-FOG-1/7): the type of every face-down tile, but for the tiles the seat
itself explored and left face down. ``observe`` pools those types (the mix is public
content, so what is still face down is known by elimination) and a deal shuffles them
over the tiles; ``fix`` makes every other seat's explored tiles name the dealt types
(which tiles a seat explored is public, not what it saw). Dice and monster steps are
the rules' own draws, played as chance in each deal.

Past the tree every seat plays ``greedy``; where the rollout stops short of the end,
``evaluate`` scores each seat's PP (IND-PP-6) against the best rival's -- or, solo,
against the pace the threshold asks by round 10 (IND-SOLO-10) -- and the monsters'
progress toward their victories (IND-WIN-7) counts against every seat.
"""
from __future__ import annotations

from domain.kit import Observation, SearchSpec, copy_state, squash

from . import content, scoring
from . import state as st
from .bots import greedy


def observe(state: dict, seat: int) -> Observation:
    obs = Observation(copy_state(state))
    if not state.get("seats") or state["phase"] == "over":
        return obs
    mine = state["peeks"].get(str(seat), {})
    unseen = sorted(t for t in state["hidden"] if t not in mine)
    obs.pool([state["hidden"][t] for t in unseen], [(("hidden", t), 0, None) for t in unseen])
    for who, known in obs.state["peeks"].items():
        if who != str(seat):
            for t in known:
                known[t] = None
    obs.fix = _explored
    return obs


def _explored(s: dict) -> None:
    for known in s["peeks"].values():
        for t in known:
            known[t] = s["hidden"][t]


def evaluate(state: dict, seats: list[int]) -> dict[int, float]:
    s = state
    need = scoring.threshold(s)
    pp = {p: st.pp(s, p) for p in seats}
    threat = 0.0
    for name, m in s["monsters"].items():
        victory = content.monsters().get(name, {}).get("victory")
        if victory and m.get("kind") == "primary":
            (what, goal), = victory.items()
            threat = max(threat, m.get("counts", {}).get(what, 0) / goal)
    out = {}
    for p in seats:
        rivals = [pp[q] for q in seats if q != p]
        pace = max(rivals) if rivals else need * min(1.0, s["round"] / 9)
        out[p] = squash((pp[p] - pace) / 2 + (pp[p] - need) / 4 - 3 * max(0.0, threat - 0.5))
    return out


SEARCH = SearchSpec(observe=observe, rollout=greedy, evaluate=evaluate, depth=30,
                    playouts={"easy": 15, "normal": 60, "hard": 250}, playout_ms=8.0)
