"""Human labels of Saboteur's commands (``BaseGame.label``).

A card a seat plays face up (a path, a tool, a rockfall, a map) is named: the
table sees it. A card discarded face down (SAB-PASS-1) is named only to its
owner; the public label says a card was discarded. Gold is kept secret to the game's end
(SAB-GOLD-10): the public label of a choice of gold counts the cards, not their values."""
from __future__ import annotations

from domain.kit import wording
from domain.saboteur.content import CARDS


def _card(card_id: str) -> str:
    card = CARDS[card_id]
    return f"{card_id} ({card.shape.replace('_', ' ')})" if card.shape else card_id


def _tool(command: dict) -> str:
    tools = command.get("tool") or "/".join(CARDS[command["card"]].tools)
    return f"seat {command['target']}'s {tools}"


def label(command: dict, public: bool) -> str:
    kind = command["type"]
    if kind == "play_path":
        turned = " rotated" if command.get("rotated") else ""
        return f"Play {_card(command['card'])} at {wording.at((command['x'], command['y']))}{turned}"
    if kind == "break_tool":
        return f"Break {_tool(command)} ({command['card']})"
    if kind == "repair":
        return f"Repair {_tool(command)} ({command['card']})"
    if kind == "rockfall":
        return f"Rockfall at {wording.at((command['x'], command['y']))} ({command['card']})"
    if kind == "map":
        return f"Look at goal {command['goal']} ({command['card']})"
    if kind == "pass":
        if "card" not in command:
            return "Pass"
        return "Pass, discarding a card face down" if public else f"Pass, discarding {_card(command['card'])}"
    if kind == "take_gold":  # the values stay secret to the end (SAB-GOLD-10): the table sees a count
        if public:
            n = len(command["values"])
            return f"Take {n} gold card{'s' if n != 1 else ''}"
        return "Take gold " + " + ".join(str(v) for v in command["values"])
    raise ValueError(f"no label for {kind!r}")
