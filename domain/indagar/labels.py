"""Human labels of Indagar's commands (``BaseGame.label``), of the monsters' turns
(``rules_actor_label``) and of what a monster did once the last player picked its target
(``rules_what_followed``). A label names only what the board shows every seat (heroes,
monsters, outposts, face-up tiles); a face-down tile is named by its id alone, even to
the seat that explored it (IND-FOG-7)."""
from __future__ import annotations

from domain.kit import wording

from . import content
from . import state as st


def _figure(figure: str) -> str:
    card = content.heroes().get(figure) or content.monsters().get(figure) or content.event_monsters().get(figure)
    return card["name"] if card and card.get("name") else wording.titled(figure)


def _tile(s: dict, tile: str) -> str:
    """``r2c3``, with what stands there when the board shows it."""
    who = st.figure_at(s, tile)
    if who:
        return f"{_figure(who)} at {tile}"
    if tile in s.get("outposts", {}):
        return f"the outpost at {tile}"
    return _ground(s, tile)


def _ground(s: dict, tile: str) -> str:
    """``r2c3 (Gold)``: the tile itself, whoever stands there (Tijian destroys the one he is on)."""
    kind = s["tiles"].get(tile, {}).get("type")
    return f"{tile} ({wording.titled(kind)})" if kind else tile


def _hero(s: dict) -> str:
    turn = s.get("turn") or {}
    return _figure(turn["hero"]) if turn.get("hero") else "the hero"


def _ability(ability: str) -> str:
    found = content.abilities().get(ability) or content.tree_abilities().get(ability)
    return found["name"] if found else wording.titled(ability)


_SPIRIT = {"resources": "for resources", "dice": "for a die", "heal": "to heal", "ignore": "to ignore damage",
           "pp": "for power points"}
_OUTPOST = {"capture": "Capture the outpost", "destroy": "Destroy the outpost", "leave": "Leave the outpost"}


def label(s: dict, command: dict) -> str:
    kind = command["type"]
    if kind == "activate":
        return f"Activate {_figure(command['hero'])}"
    if kind == "move":
        return f"Move {_hero(s)} to {_tile(s, command['to'])}"
    if kind == "explore":
        return f"Explore {command['tile']}"
    if kind == "reveal":
        return "Reveal the explored tile" if command["show"] else "Put the explored tile back face down"
    if kind == "attack":
        return f"Attack {_tile(s, command['tile'])}"
    if kind == "build":
        return "Build an outpost"
    if kind == "upgrade":
        return "Upgrade the outpost"
    if kind == "gather":
        return "Gather the spirits"
    if kind == "use_ability":
        lent = f" lent by {_figure(command['hero'])}" if command.get("hero") else ""
        discount = f", {command['discount']} discount" if command.get("discount") else ""
        return f"Use {_ability(command['ability'])}{lent}{discount}"
    if kind == "declare":
        tree = content.trees()[command["tree"]]["name"]
        unlock = f", unlocking {_ability(command['unlock'])} ({command['token']} side)" if command.get("unlock") else ""
        return f"Declare {tree}{unlock}"
    if kind == "spirit":
        get = f": {wording.bag(command['get'])}" if command.get("get") else ""
        hero = f" on {_figure(command['hero'])}" if command.get("hero") else ""
        return f"Spend spirits {_SPIRIT[command['use']]}{hero}{get}"
    if kind == "exchange":
        return f"Exchange {wording.bag(command['give'])} for 1 {command['get']}"
    if kind == "pass":
        return "Pass: close the window"
    if kind == "fall_back":
        return f"Fall back to {_tile(s, command['to'])}"
    if kind == "outpost":
        return _OUTPOST[command["choice"]]
    if kind == "charge_through":
        return "Charge into the attacked tile" if command["go"] else "Stay put"
    if kind == "level_bonus":
        return f"Level-up token: {command['side']} side"
    if kind == "swap":
        return f"Swap places with {_figure(command['figure'])}"
    if kind == "choose_tile":
        return f"Choose {_tile(s, command['tile'])}"
    if kind == "redeploy":
        return f"Bring {_figure(command['hero'])} back on {_tile(s, command['tile'])}"
    if kind == "choose_hero":
        return f"Give the cache to {_figure(command['hero'])}"
    if kind == "end_turn":
        return f"End {_hero(s)}'s activation"
    raise ValueError(f"no label for {kind!r}")


def _or(items: list[str]) -> str:
    return " or ".join(items) if len(items) < 3 else f"{', '.join(items[:-1])} or {items[-1]}"


def _monster_part(s: dict, e: dict, third: bool = False) -> tuple[str | None, bool]:
    """One event of a monster's turn in words, and whether it is the turn's one action (the last part);
    ``third``: as "<monster> moves ..." says it, not as a label's "Move ..."."""
    kind, d = e["type"], e["data"]
    verb = (lambda plain, said: said) if third else (lambda plain, said: plain)
    if kind == "MonsterMoved":
        return f"{verb('move', 'moves')} to {_tile(s, d['path'][-1])}", False
    if kind == "MonsterHealed":
        return f"{verb('heal', 'heals')} on the Mystic Clearing", False
    if kind == "AttackBegan":
        if third:
            return f"{'breaks through and ' * d['breakthrough']}attacks {_tile(s, d['tile'])}", True
        return f"{'break through: ' * d['breakthrough']}attack {_tile(s, d['tile'])}", True
    if kind == "TileDestroyed":
        return f"{verb('destroy', 'destroys')} {_ground(s, d['tile'])}", True
    if kind == "SpiritsGathered":
        return f"{verb('gather', 'gathers')} {d['n']} spirit{'s' * (d['n'] != 1)} from the Source", True
    if kind == "MonsterIdle":
        return f"{verb('take', 'takes')} no action", True
    if kind == "DecisionAsked":
        return f"{verb('leave', 'leaves')} its target to the last player: {_or(d['options'])}", True
    return None, kind != "MonsterActed"


def monster_turn(s: dict, events: list[dict]) -> str | None:
    """A monster's turn (IND-MTURN-7) from the events of its step: where it moved, then its one
    action (an attack, a tile destroyed, spirits gathered, none), or the target choice it leaves to
    the last player (IND-MTGT-4, IND-OPP-2). The dice and damage that follow are the events'."""
    parts = []
    for e in events:
        part, last = _monster_part(s, e)
        if part:
            parts.append(part)
        if last:
            break
    said = ", then ".join(parts)
    return said[:1].upper() + said[1:] or None


_PICKS = ("monster_target", "monster_opportunity")
"""The decisions the last player takes for a monster (IND-MTGT-4, IND-OPP-2), which its turn waits on."""


def what_followed(s: dict, command: dict, events: list[dict]) -> str | None:
    """After the last player picks a monster's target (IND-MTGT-4) or its opportunity attack
    (IND-OPP-2), the monster's turn goes on in the same batch: where it moved and its one action,
    "Tijian the Scoundrel moves to r1c2 (Meadow), then attacks Mother Elowen at r1c3", from the
    events after the pick; None after any other command."""
    asked = (s.get("pending") or [None])[0] or {}
    if command.get("type") != "choose_tile" or asked.get("kind") not in _PICKS or not asked.get("monster"):
        return None
    picked = next((i for i, e in enumerate(events) if e["type"] == "DecisionMade"), -1)
    parts = []
    for e in events[picked + 1:]:
        part, last = _monster_part(s, e, third=True)
        if part:
            parts.append(part)
        if last:
            break
    return f"{_figure(asked['monster'])} {', then '.join(parts)}" if parts else None
