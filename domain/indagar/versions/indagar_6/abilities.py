"""Abilities (section 12): hero-card abilities and strategy-tree abilities (section 20).

Which abilities a hero has: its basic one, its command one while it is the
commander (IND-ACT-3), and the special abilities next to its filled level slots
(IND-LVL-1). A player's tree abilities are those unlocked in the tree in play
(IND-STR-3/7), unless Local Traitors shut them off this round (IND-STR-9,
IND-AMB-33). Which may be used now follows the nine general rules: only in
one's own turn and only from the active hero unless always available
(IND-ABL-3/8/12), once per turn (IND-ABL-6), paid from the reserve
(IND-ABL-4/5), and during an attack only the bonus types of IND-RST-1, inside
their window (IND-ATK-8). Strategy tokens change a tree ability's cost or its
starred number (IND-STR-8).

Every function here returns ready commands, so ``legal`` and ``decide`` share them.
"""
from __future__ import annotations

from . import content
from . import state as st
from .state import State

ATTACK_EFFECTS = ("attack_dice", "min_damage", "extra_damage", "reroll")
DEFENCE_EFFECTS = ("defence_dice", "ignore_damage", "ally_defence")
TURN_EFFECTS = ("heal", "extra_move", "gain", "storm")


def card(ability: str) -> dict:
    return content.ability(ability)


def unlocked(s: State, hero: str) -> list[str]:
    """The hero-card abilities ``hero`` has (IND-ABL-2, IND-ACT-3, IND-LVL-1)."""
    c = st.hero_card(hero)
    out = [c["basic"]]
    if s["seats"][st.owner(s, hero)]["commander"] == hero:
        out.append(c["command"])
    return out + c["specials"][: st.level(s, hero)]


def power(s: State, seat: int) -> dict:
    """The strategy power of the tree in play (IND-STR-3); not blocked by Local Traitors."""
    tree = s["seats"][seat].get("tree")
    return content.trees()[tree]["power"] if tree else {}


def tree_abilities(s: State, seat: int) -> list[str]:
    """Unlocked abilities of the tree in play (IND-ABL-9, IND-STR-3/7/9)."""
    me = s["seats"][seat]
    if not me.get("tree") or me["traitors"]:
        return []
    return [a for a in me["unlocked"] if card(a)["tree"] == me["tree"]]


def effect(s: State, seat: int, ability: str) -> dict:
    """The ability's effect, its starred number +1 under a lightning-bolt token (IND-STR-8)."""
    c = card(ability)
    eff = {k: (dict(v) if isinstance(v, dict) else v) for k, v in c["effect"].items()}
    if s["seats"][seat].get("unlocked", {}).get(ability) == "bolt":
        star = c["star"]
        if star == "gain":
            (res, n), = eff["gain"].items()
            eff["gain"] = {res: n + 1}
        else:
            eff[star] += 1
    return eff


def payments(s: State, seat: int, ability: str) -> list[str | None]:
    """Affordable ways to pay: ``None`` (the printed cost) or, under a coin-bag token, the
    resource whose cost drops by 1, chosen again at each use (IND-STR-8, IND-EX-7)."""
    cost = content.cost(ability)
    res = s["seats"][seat]["res"]
    coin = s["seats"][seat].get("unlocked", {}).get(ability) == "coin"
    options = list(cost) if coin and cost else [None]
    return [d for d in options if all(res[r] >= n - (r == d) for r, n in cost.items())]


def paid(ability: str, discount: str | None) -> dict[str, int]:
    return {r: n - (r == discount) for r, n in content.cost(ability).items() if n - (r == discount) > 0}


def passive_defence(s: State, hero: str) -> int:
    """IND-ABL-13: passive abilities are always in effect (none while in retreat, IND-AMB-42)."""
    return sum(card(a)["effect"].get("defence_bonus", 0) for a in unlocked(s, hero) if card(a).get("passive"))


def used(s: State) -> list[str]:
    """Abilities used in the current turn (IND-ABL-6): a reveal attack is part of the turn it
    happens in (IND-AMB-41); outside any turn, the attack's own."""
    if s.get("turn"):
        return s["turn"]["used"]
    return s["attack"]["used"] if s["attack"] is not None else []


def _ready(s: State, ability: str, kinds: tuple[str, ...]) -> bool:
    c = card(ability)
    return not c.get("passive") and ability not in used(s) and any(k in c["effect"] for k in kinds)


def _commands(s: State, seat: int, ability: str, hero: str | None) -> list[dict]:
    out = []
    for d in payments(s, seat, ability):
        cmd = {"type": "use_ability", "ability": ability}
        if hero is not None:
            cmd["hero"] = hero
        if d is not None:
            cmd["discount"] = d
        out.append(cmd)
    return out


def attack_window(s: State, seat: int) -> list[dict]:
    """The attacker's bonuses (step 1a): the active hero's and the tree's attack bonuses."""
    hero = s["attack"]["attacker"][1]
    names = [a for a in unlocked(s, hero) + tree_abilities(s, seat) if _ready(s, a, ATTACK_EFFECTS)]
    return [c for a in names for c in _commands(s, seat, a, hero)]


def defence_window(s: State, seat: int) -> list[dict]:
    """The defender's bonuses (step 2): always-available abilities of the defender's heroes
    on the board (IND-ABL-12; ``ally_defence`` only from a hero next to the defender) and of
    its tree, plus any of its own when it is the defender's own turn (IND-ABL-3)."""
    a = s["attack"]
    dk, did = a["defender"]
    if dk != "hero":
        return []
    own_turn = s["turn"]["who"] == f"seat:{seat}"
    out = []
    for hero in s["seats"][seat]["heroes"]:
        tile = s["heroes"][hero]["tile"]
        if tile is None:
            continue
        for ab in unlocked(s, hero):
            c = card(ab)
            if not _ready(s, ab, DEFENCE_EFFECTS):
                continue
            if "ally_defence" in c["effect"]:
                ok = hero != did and tile in st.board(s).neighbours[a["tile"]] and c.get("always")
            else:
                ok = hero == did and (c.get("always") or (own_turn and s["turn"]["hero"] == hero))
            if ok:
                out += _commands(s, seat, ab, hero)
    for ab in tree_abilities(s, seat):
        if _ready(s, ab, DEFENCE_EFFECTS) and (card(ab).get("always") or own_turn):
            out += _commands(s, seat, ab, did)
    return out


def shields(s: State, seat: int, hero: str) -> list[dict]:
    """Abilities that only ignore damage, usable on damage about to land on ``hero`` outside the
    attack windows (a Poison Swamp, a Wild Storm, a fall back): the always-available ones in any
    turn (IND-ABL-12), and in the seat's own turn the active hero's and the tree's too -- «las
    habilidades pueden ser usadas en cualquier momento durante tu turno», «el Daño puede ser
    ignorado por Habilidades tanto durante como fuera de los ataques» (IND-ABL-10, IND-DMG-2;
    under ``indagar-5`` only the always-available ones)."""
    if s["heroes"][hero]["tile"] is None:
        return []
    t = s.get("turn") or {}
    mine = t.get("who") == f"seat:{seat}" and t.get("hero") == hero              # IND-ABL-3/8
    names = unlocked(s, hero) + tree_abilities(s, seat)
    return [c for a in names if (mine or card(a).get("always")) and set(card(a)["effect"]) <= {"ignore_damage"}
            and _ready(s, a, ("ignore_damage",)) for c in _commands(s, seat, a, hero)]


def turn_abilities(s: State, seat: int) -> list[dict]:
    """Abilities usable outside an attack in one's own turn: the active hero's and the tree's."""
    hero = s["turn"]["hero"]
    out = []
    for a in unlocked(s, hero):
        if _ready(s, a, TURN_EFFECTS):
            out += _commands(s, seat, a, None)
    for a in tree_abilities(s, seat):
        if _ready(s, a, TURN_EFFECTS):
            out += _commands(s, seat, a, None)
    return out
