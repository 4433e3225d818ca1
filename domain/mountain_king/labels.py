"""Human labels of Mountain King's commands (``BaseGame.label``).

Everything a command names is on the table once played, except a starter troll
during the draft: the cards in a player's hand are the owner's alone
(MK-INFO-1), so the public label of a ``draft`` names only the slot."""
from __future__ import annotations

from collections import Counter

from domain.kit import wording

from . import content
from .spells import SPELLS
from .state import STEPS

_STEP_NAMES = dict(zip(STEPS, ("spells", "action", "dig follow-up", "great hall", "statues")))


def _troll(pos) -> str:
    return f"roster {wording.at(pos)}"


def _starter(card: str) -> str:
    """``magenta-3 (makes 1 coin each activation; starts you with 3 stone)``: what the owner chooses
    between (MK-GAP-6), for the owner's own label only (the hand is secret, MK-INFO-1)."""
    troll = content.TABLES["trolls"].get(card)
    if not isinstance(troll, content.StarterTroll):
        return card
    return f"{card} (makes {wording.bag(Counter(troll.top))} each activation; starts you with {wording.bag(Counter(troll.bottom))})"


def _spell_args(command: dict) -> str:
    parts = []
    for name in ("slot", "res", "clan"):
        if name in command:
            parts.append(str(command[name]))
    if "troll" in command:
        parts.append(_troll(command["troll"]))
    if "give" in command:
        parts.append(f"{command['give']} for {command['get']}")
    if "from" in command:
        parts.append(f"{wording.at(command['from'])} to {wording.at(command['to'])}")
    return f" ({', '.join(parts)})" if parts else ""


def _workshop_use(command: dict) -> str:
    if "move" in command:
        r, i, token = command["move"]
        return f"move token {token} to {_troll((r, i))}"
    return f"{wording.bag(command['give'])} for {wording.bag(command['get'])}"


def label(state: dict, command: dict, public: bool) -> str:
    kind = command["type"]
    if kind == "place_door":
        return f"Place your door on start point {command['point']}"
    if kind == "draft":
        return f"Draft {'a starter troll' if public else _starter(command['card'])} to slot {command['slot']}"
    if kind == "trade":
        return f"Trade {wording.bag(command['give'])} for 1 {command['get']}"
    if kind == "cast":
        return f"Cast {SPELLS[command['spell']]['name']}{_spell_args(command)}"
    if kind == "use_workshop":
        return f"Use the workshop at {wording.at(command['space'])}: {_workshop_use(command)}"
    if kind == "recruit":
        pedestal = f" with a {command['pedestal']} pedestal" if command.get("pedestal") else ""
        return f"Recruit {command['slot']} to {_troll(command['position'])}{pedestal}"
    if kind == "dig":
        anchor = f", its anchor on {wording.at(command['anchor'])}," if command.get("anchor") else ""
        return f"Dig {command['tile']} at {wording.cells(command['cells'])}{anchor} paying {command['mineral']}"
    if kind == "place_pedestal":
        return f"Place a {command['clan']} pedestal"
    if kind == "establish_workshop":
        return f"Establish {wording.titled(command['kind'])} at {wording.at(command['space'])}"
    if kind == "build_hall":
        return f"Build {content.hall(command['hall']).name} with its altar at {wording.at(command['altar'])}"
    if kind == "move_statue":
        return f"Move the statue at {wording.at(command['from'])} to {wording.at(command['to'])} ({command.get('cart', 'wild')} cart)"
    if kind == "end_step":
        step = (state.get("turn") or {}).get("step")
        return f"End the {_STEP_NAMES[step]} step" if step in _STEP_NAMES else "End this step"
    if kind == "end_turn":
        return "End your turn"
    raise ValueError(f"no label for {kind!r}")
