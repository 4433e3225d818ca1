"""Hero abilities (section 12) from the authored cards (content/abilities.yaml).

Which abilities a hero has: its basic one, its command one while it is the
commander (IND-ACT-3), and the special abilities next to its filled level slots
(IND-LVL-1). Which may be used now follows the nine general rules: only in one's
own turn and only from the active hero unless always available (IND-ABL-3/8/12),
once per turn (IND-ABL-6), paid from the reserve (IND-ABL-4/5), and during an
attack only the bonus types of IND-RST-1, inside their window (IND-ATK-8).
"""
from __future__ import annotations

from . import content
from . import state as st
from .state import State

ATTACK_EFFECTS = ("attack_dice", "min_damage", "extra_damage")
DEFENCE_EFFECTS = ("defence_dice", "ignore_damage", "ally_defence")
TURN_EFFECTS = ("heal", "extra_move", "gain")


def unlocked(s: State, hero: str) -> list[str]:
    card = st.hero_card(hero)
    out = [card["basic"]]
    if s["seats"][st.owner(s, hero)]["commander"] == hero:
        out.append(card["command"])
    return out + card["specials"][: st.level(s, hero)]


def card(ability: str) -> dict:
    return content.abilities()[ability]


def passive_defence(s: State, hero: str) -> int:
    """IND-ABL-13: passive abilities are always in effect (none while in retreat, IND-AMB-42)."""
    return sum(card(a)["effect"].get("defence_bonus", 0) for a in unlocked(s, hero) if card(a).get("passive"))


def affordable(s: State, seat: int, ability: str) -> bool:
    res = s["seats"][seat]["res"]
    return all(res[r] >= n for r, n in content.cost(ability).items())


def usable(s: State, seat: int, hero: str, ability: str, kinds: tuple[str, ...]) -> bool:
    c = card(ability)
    if c.get("passive") or ability in s["turn"]["used"] or not affordable(s, seat, ability):
        return False
    return any(k in c["effect"] for k in kinds)


def attack_window(s: State, seat: int) -> list[tuple[str, str]]:
    """The attacker's bonuses (step 1a): the active hero's attack-bonus abilities."""
    hero = s["attack"]["attacker"][1]
    return [(hero, a) for a in unlocked(s, hero) if usable(s, seat, hero, a, ATTACK_EFFECTS)]


def defence_window(s: State, seat: int) -> list[tuple[str, str]]:
    """The defender's bonuses (step 2): always-available abilities of the defender's heroes
    on the board (IND-ABL-12; ``ally_defence`` only from a hero adjacent to the defender),
    plus the active hero's own defence abilities when it is the defender's own turn."""
    a = s["attack"]
    dk, did = a["defender"]
    out = []
    own_turn = s["turn"]["who"] == f"seat:{seat}"
    for hero in s["seats"][seat]["heroes"]:
        tile = s["heroes"][hero]["tile"]
        if tile is None:
            continue
        for ab in unlocked(s, hero):
            c = card(ab)
            if not usable(s, seat, hero, ab, DEFENCE_EFFECTS):
                continue
            if "ally_defence" in c["effect"]:
                ok = dk == "hero" and hero != did and tile in st.board(s).neighbours[a["tile"]] and c.get("always")
            else:
                ok = dk == "hero" and hero == did and (c.get("always") or (own_turn and s["turn"]["hero"] == hero))
            if ok:
                out.append((hero, ab))
    return out


def turn_abilities(s: State, seat: int) -> list[str]:
    """Abilities the active hero may use outside an attack (heal, extra moves, gains)."""
    hero = s["turn"]["hero"]
    return [a for a in unlocked(s, hero) if usable(s, seat, hero, a, TURN_EFFECTS)]
