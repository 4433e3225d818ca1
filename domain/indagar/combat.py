"""Attacks (section 18), for heroes and monsters alike (IND-ATK-1, IND-MATK-1).

An attack is a small state machine in ``state["attack"]`` so players can act in
its windows (IND-ATK-5, IND-AMB-11): the attacker rolls, may add bonuses until
the defender rolls (attacker window), the defender rolls and may add dice or
ignore damage (defender window: IND-AMB-11 steps 4 and 6 in one window, since
both totals are known once the defender has rolled), damage is modified in the
order of IND-AMB-12 and applied to an outpost first (IND-AOUT-2), then fall
back and the outpost choice; the experience is awarded once they settle the
outcome, before Charge Through ends the attack (``award``; a commander's PP comes
with its retreat, IND-PP-2).
Monster dice come from the DRBG (IND-DICE-3, IND-MATK-4, IND-MDEF-1).
"""
from __future__ import annotations

from domain.core import Drbg, event

from . import abilities, dice, harm
from . import state as st
from .state import Emit, State

RETREAT_XP = 3  # IND-LVL-3; event monsters give their own (IND-EVM-1)


def defender_of(s: State, tile: str) -> tuple[str | None, str | None]:
    """The figure on the attacked tile: (kind, id)."""
    h = st.hero_at(s, tile)
    if h:
        return "hero", h
    m = st.monster_at(s, tile)
    return ("monster", m) if m else (None, None)


def is_enemy_target(s: State, attacker: tuple[str, str], tile: str) -> bool:
    """IND-ATK-2: an enemy hero, a monster or an enemy outpost on ``tile``."""
    kind, fid = attacker
    seat = st.owner(s, fid) if kind == "hero" else None
    dk, did = defender_of(s, tile)
    if dk == "hero":
        return seat is None or st.owner(s, did) != seat
    if dk == "monster":
        return did != fid
    out = s["outposts"].get(tile)
    return out is not None and (seat is None or out["owner"] != seat)


def targets(s: State, attacker: tuple[str, str], frm: str) -> list[str]:
    return [t for t in st.board(s).neighbours[frm] if is_enemy_target(s, attacker, t)]


def attack_pool(s: State, attacker: tuple[str, str], tile: str) -> int:
    """IND-ATK-3: attack value, sword tokens, caches, tile (Arcane Mist, IND-EVT-3) and
    flanking (IND-FLK-1/2/3; never for monsters, IND-AMB-28)."""
    kind, fid = attacker
    if kind == "monster":
        at = s["monsters"][fid]["tile"]
        return st.monster_stats(s, fid)["attack"] + (st.tile_type(s, at) == "arcane_mist")
    return hero_attack(s, fid) + flanking(s, fid, tile)


def hero_attack(s: State, hero: str) -> int:
    x = s["heroes"][hero]
    bonus = x["bonuses"].count("sword") + x["caches"].count("sword")
    bonus += abilities.power(s, x["owner"]).get("attack_bonus", 0)
    return st.hero_card(hero)["attack"] + bonus + (st.tile_type(s, x["tile"]) == "arcane_mist")


def hero_defence(s: State, hero: str) -> int:
    """Defence dice before optional choices (IND-ATK-3, IND-AMB-40): shields, the
    commander's +1 (IND-CMD-1), caches, passives and the Mountain Fortress (IND-EVT-11)."""
    x = s["heroes"][hero]
    seat = x["owner"]
    bonus = x["bonuses"].count("shield") + x["caches"].count("shield")
    bonus += s["seats"][seat]["commander"] == hero
    bonus += abilities.passive_defence(s, hero) + abilities.power(s, seat).get("defence_bonus", 0)
    return st.hero_card(hero)["defence"] + bonus + (st.tile_type(s, x["tile"]) == "mountain_fortress")


def flanking(s: State, hero: str, tile: str) -> int:
    """+1 attack per other friendly hero adjacent to the target's tile (IND-FLK-1/2)."""
    seat = st.owner(s, hero)
    return sum(1 for n in st.board(s).neighbours[tile]
               if (h := st.hero_at(s, n)) and h != hero and st.owner(s, h) == seat)


def defence_pool(s: State, tile: str) -> int:
    """The defending figure's dice plus the outpost's, rolled as one pool (IND-AOUT-1)."""
    dk, did = defender_of(s, tile)
    n = 0
    if dk == "hero":
        n = hero_defence(s, did)
    elif dk == "monster":
        n = st.monster_stats(s, did)["defence"] + (st.tile_type(s, tile) == "mountain_fortress")
    out = s["outposts"].get(tile)
    return n + (st.OUTPOST_DEFENCE[out["level"]] if out else 0)


def begin_attack(s: State, emit: Emit, attacker: tuple[str, str], tile: str, rng: Drbg,
                 reveal_attack: bool = False, breakthrough: bool = False) -> None:
    """Steps 1-1a: the attack officially begins with the attack roll (IND-ATK-4)."""
    kind, fid = attacker
    dk, did = defender_of(s, tile)
    out = s["outposts"].get(tile)
    dseat = st.owner(s, did) if dk == "hero" else (out["owner"] if out else None)
    aseat = st.owner(s, fid) if kind == "hero" else None
    emit(event("AttackBegan", attacker=[kind, fid], seat=aseat, tile=tile, defender=[dk, did], defender_seat=dseat,
               outpost=out["level"] if out else 0, reveal=reveal_attack, breakthrough=breakthrough))
    emit(event("DiceRolled", side="attack", dice=dice.roll(rng, attack_pool(s, attacker, tile), s["options"]["dice_faces"]),
               reason="attack"))
    if aseat is None:
        defender_rolls(s, emit, rng)
    else:
        emit(event("WindowOpened", side="attack", seat=aseat))


def defender_rolls(s: State, emit: Emit, rng: Drbg) -> None:
    """Step 2: the defender rolls; a player defending gets a window (IND-AMB-11)."""
    a = s["attack"]
    emit(event("DiceRolled", side="defence", dice=dice.roll(rng, defence_pool(s, a["tile"]), s["options"]["dice_faces"]),
               reason="defence"))
    if a["defender_seat"] is None:
        resolve(s, emit, rng)
    else:
        emit(event("WindowOpened", side="defence", seat=a["defender_seat"]))


def damage(a: dict) -> int:
    """Steps 3-4 in the order of IND-AMB-12: difference, + additional damage on a hit,
    raised to the minimum (IND-DMG-1/2). Ignored damage (IND-DMG-3) is the figure's:
    ``resolve`` takes it off after the outpost has taken its share."""
    base = max(0, sum(a["adice"]) - sum(a["ddice"]))
    if base > 0:
        base += a["extra"]
    return max(base, a["min"])


def resolve(s: State, emit: Emit, rng: Drbg) -> None:
    """Step 5: apply damage, the outpost first (IND-AOUT-2/3, IND-OUT-11/12)."""
    a = s["attack"]
    total = damage(a)
    tile = a["tile"]
    out = s["outposts"].get(tile)
    to_figure = total
    if out is not None and a["outpost"]:
        if out["downgraded"]:
            to_figure = total                                  # immune after a downgrade this turn
        else:
            endurance = st.OUTPOST_ENDURANCE[out["level"]]
            if out["damage"] + total >= endurance:
                to_figure = total - (endurance - out["damage"])
                downgrade(s, emit, tile)
            else:
                emit(event("OutpostDamaged", tile=tile, damage=out["damage"] + total))
                to_figure = 0
    to_figure = max(0, to_figure - a["ignore"])   # "Los Puestos de Avanzada reciben daño antes que el Héroe"
    emit(event("DamageDealt", total=total, figure=to_figure))
    dk, did = a["defender"]
    if dk == "hero" and to_figure:
        hit_hero(s, emit, did, to_figure)
    elif dk == "monster" and to_figure:
        hit_monster(s, emit, did, to_figure)
    continue_attack(s, emit, rng)


def downgrade(s: State, emit: Emit, tile: str) -> None:
    """IND-OUT-11/15, IND-AOUT-5: level 1 is destroyed (the attacking player gains the
    level in the tile's resource; monsters gain nothing, IND-MATK-2)."""
    a = s["attack"]
    out = s["outposts"][tile]
    if out["level"] > 1:
        emit(event("OutpostDowngraded", tile=tile, level=out["level"] - 1))
        return
    destroy_outpost(s, emit, tile, a["seat"], a["attacker"])


def destroy_outpost(s: State, emit: Emit, tile: str, by_seat: int | None, attacker) -> None:
    """IND-OUT-15, IND-AOUT-5 (IND-AMB-17: nothing on a non-resource tile; reward even on
    a destroyed tile). The level is the one before the downgrade."""
    out = s["outposts"][tile]
    before = out["level"] + (1 if out["downgraded"] else 0)
    kind = st.tile_type(s, tile)
    reward = {kind: before} if by_seat is not None and kind in st.RESOURCE_TILES else {}
    emit(event("OutpostDestroyed", tile=tile, owner=out["owner"], by_seat=by_seat,
               by_monster=attacker[1] if attacker[0] == "monster" else None, reward=reward))
    burn = abilities.power(s, by_seat).get("pp_per_burn", 0) if by_seat is not None else 0
    if burn:                                                                   # IND-PP-4 (authored power)
        emit(event("PrimacyGained", seat=by_seat, category="strategy", n=burn, reason=s["seats"][by_seat]["tree"]))


def hit_hero(s: State, emit: Emit, hero: str, n: int) -> None:
    a = s["attack"]
    total = s["heroes"][hero]["damage"] + n
    if total >= st.hero_card(hero)["endurance"]:                                # IND-RET-1
        by_monster = a["attacker"][1] if a["attacker"][0] == "monster" else None
        harm.retreat_hero(s, emit, hero, by_seat=a["seat"], by_monster=by_monster)
        emit(event("AttackRetreat", caused=True))
    else:
        emit(event("HeroDamaged", hero=hero, damage=total))


def monster_retreats_at(s: State, monster: str, total: int) -> bool:
    """IND-MDEF-2 with IND-AMB-10: more damage than endurance (or at it, with the
    ``uniform_endurance_threshold`` option)."""
    endurance = st.monster_stats(s, monster)["endurance"]
    return total >= endurance if s["options"]["uniform_endurance_threshold"] else total > endurance


def damage_monster(s: State, emit: Emit, monster: str, n: int) -> bool:
    """Damage a monster (IND-MDEF-2); True when it went to retreat."""
    total = s["monsters"][monster]["damage"] + n
    if monster_retreats_at(s, monster, total):
        emit(event("MonsterRetreated", monster=monster))
        return True
    emit(event("MonsterDamaged", monster=monster, damage=total))
    return False


def hit_monster(s: State, emit: Emit, monster: str, n: int) -> None:
    if damage_monster(s, emit, monster, n):
        emit(event("AttackRetreat", caused=True))


def fall_back_options(s: State, kind: str, fid: str) -> list[str]:
    """IND-FB-1: adjacent free tiles; face-down ones count (IND-AMB-13, IND-AMB-50)."""
    if kind == "hero":
        tile = s["heroes"][fid]["tile"]
        return [t for t in st.board(s).neighbours[tile] if st.free_for_seat(s, t, st.owner(s, fid))]
    tile = s["monsters"][fid]["tile"]
    return [t for t in st.board(s).neighbours[tile] if not st.occupied(s, t) and not st.impassable(s, t)]


def continue_attack(s: State, emit: Emit, rng: Drbg) -> None:
    """Steps 6-9, pausing at each choice a player makes (pending decisions)."""
    a = s["attack"]
    dk, did = a["defender"]
    if a["stage"] == "fallback":
        emit(event("AttackStage", stage="outpost"))
        if dk and a["figure_damage"] >= 2 and not a["retreated"]:
            opts = fall_back_options(s, dk, did)
            if not opts:                                                           # IND-AMB-13, IND-MRET-1
                if dk == "hero":
                    counts = s["options"]["fallback_retreat_counts"]
                    harm.retreat_hero(s, emit, did, by_seat=a["seat"] if counts else None,
                                          by_monster=a["attacker"][1] if a["attacker"][0] == "monster" else None)
                    emit(event("AttackRetreat", caused=counts))
                else:
                    emit(event("MonsterRetreated", monster=did))
                    emit(event("AttackRetreat", caused=True))
            else:
                # the owner picks a hero's tile, the last player a monster's or a Maelstrom's (IND-AMB-30)
                on_maelstrom = st.tile_type(s, a["tile"]) == "maelstrom"
                chooser = st.owner(s, did) if dk == "hero" and not on_maelstrom else st.last_player(s)
                emit(event("DecisionAsked", kind="fall_back", seat=chooser, options=opts, figure=[dk, did]))
                return
    if a["stage"] == "outpost":
        emit(event("AttackStage", stage="charge"))
        out = s["outposts"].get(a["tile"])
        if out is not None and out["downgraded"] and a["outpost"]:
            if a["seat"] is None:
                destroy_outpost(s, emit, a["tile"], None, a["attacker"])          # IND-OUT-19, IND-MATK-2
            else:
                emit(event("DecisionAsked", kind="outpost", seat=a["seat"], options=outpost_options(s)))
                return
    if a["stage"] == "charge":
        emit(event("AttackStage", stage="award"))
        award(s, emit)
        kind, fid = a["attacker"]
        if kind == "monster" and s["monsters"][fid]["tile"] is not None:
            if not st.occupied(s, a["tile"]) and not st.impassable(s, a["tile"]):
                emit(event("MonsterMoved", monster=fid, path=[a["tile"]], charge=True))   # IND-FB-5, IND-MATK-3
        elif kind == "hero" and s["heroes"][fid]["tile"] is not None and st.free_for_seat(s, a["tile"], a["seat"]):
            emit(event("DecisionAsked", kind="charge_through", seat=a["seat"], options=[True, False]))
            return
    end(s, emit)


def outpost_options(s: State) -> list[str]:
    """IND-OUT-16/18/20, IND-AMB-14/16/46: destroy or leave; capture only with a free piece
    of the new level, no enemy hero left on the tile, and no Burn Not Build."""
    a = s["attack"]
    out = s["outposts"][a["tile"]]
    opts = ["destroy", "leave"]
    hero = a["attacker"][1]
    h = st.hero_at(s, a["tile"])
    if (not st.has_rule(hero, "burn-not-build") and st.pieces_free(s, a["seat"], out["level"])
            and (h is None or st.owner(s, h) == a["seat"])):
        opts.insert(0, "capture")
    return opts


def successful(a: dict) -> bool:
    """IND-SUC-1/2: an outpost downgraded, destroyed or captured, or the figure hit for 2 or
    more or sent to retreat."""
    return bool(a["outpost_hit"] or a["figure_damage"] >= 2 or a["retreated"])


def award(s: State, emit: Emit) -> None:
    """The experience of the attack (IND-SUC-1..4, IND-LVL-3, IND-MDEF-3): one success per attack.

    Given once its outcome is settled -- the damage, the fall back (a retreat for want of a tile
    may count as caused, IND-AMB-13) and the outpost's fate -- and before the attacker's Charge
    Through (IND-FB-4): «Cada vez que un héroe ataca ... exitosamente, gana 1 experiencia»,
    «Si esto sucede durante un ataque, el héroe recibe 3 experiencias», and a level reached «debe
    hacerlo inmediatamente» (IND-LVL-5), so a Charge Through onto a Poison Swamp that then sends
    the attacker to retreat clears its experience but keeps a level it gained (IND-RET-2/4). Under
    ``indagar-6`` the award came after the Charge Through (step 9 of IND-ATK-5), and such a hero
    gained nothing."""
    a = s["attack"]
    kind, fid = a["attacker"]
    dk, did = a["defender"]
    if kind == "hero" and s["heroes"][fid]["owner"] is not None:
        if a["caused"]:
            xp = s["monsters"].get(did, {}).get("xp", RETREAT_XP) if dk == "monster" else RETREAT_XP
            harm.gain_xp(s, emit, fid, xp)
        elif successful(a):
            harm.gain_xp(s, emit, fid, 1)
    if dk == "hero" and not a["retreated"] and a["figure_damage"] == 0 and not a["outpost_hit"]:
        harm.gain_xp(s, emit, did, 1)                                                   # IND-SUC-3


def end(s: State, emit: Emit) -> None:
    """Step 9: the attack ends once fall back and Charge Through are resolved (IND-FB-6)."""
    emit(event("AttackEnded", success=successful(s["attack"])))
    if s["turn"] is not None and s["turn"]["hero"]:
        harm.clearing_heal(s, emit, s["turn"]["hero"])                               # IND-AMB-21, hurt there


