"""Player commands: what a seat may do now, and what doing it emits.

A seat acts either in its own turn (activate a hero, move, explore, one action,
abilities, spirits, exchanges, end the turn: IND-TURN-1..4) or when a decision
is awaited from it (``state["pending"][0]``: an attack window, a fall-back tile,
the outpost choice, Charge Through, a level-up side, an explored tile). Every
check below is shared by ``legal`` and the handlers, so the list and the
validator cannot drift apart.
"""
from __future__ import annotations

from domain.core import Drbg, event, require, seat_of

from . import abilities, combat, dice, harm, monsters, movement, outposts, responses, strategy, turns
from . import state as st
from .state import Emit, State


def waiting_on(s: State) -> int | None:
    """The seat whose command is awaited now, or None (a monster, or the game is over)."""
    if s.get("phase") not in ("play", "round_end"):
        return None
    if s["pending"]:
        return s["pending"][0]["seat"]
    return seat_of(s["turn"]["who"]) if s.get("turn") else None


# ----------------------------------------------------------------- checks
def move_problem(s: State, hero: str, to: str) -> tuple[str, str, str] | None:
    t = s["turn"]
    here = s["heroes"][hero]["tile"]
    if here is None:
        return "in_retreat", "IND-RET-3", "the active hero is in retreat"
    if to not in st.board(s).neighbours[here]:
        return "not_adjacent", "IND-MOVE-1", "heroes move one adjacent tile at a time"
    if not st.free_for_seat(s, to, st.owner(s, hero)):
        return "tile_not_free", "IND-MOVE-3", "that tile holds a figure, an enemy outpost or a Mountain"
    if t["charged"]:
        return "charged", "IND-SPR-1", "after the Charge! move the hero may not move further"
    if t.get("swapped"):
        return "swapped", "IND-EVT-2", "after a Portal swap the hero may not move this activation"
    if t["must_attack"]:
        return "must_attack", "IND-SPR-1", "attack after a Charge! move"
    if t["moves"] > 0 and not t["stopped"]:
        return None
    return charge_problem(s, hero, to)


def charge_problem(s: State, hero: str, to: str) -> tuple[str, str, str] | None:
    """IND-SPR-1, IND-AMB-31: the extra move needs Charge!, no moves left (or stopped by Mud),
    the action unused, a revealed free destination and a target next to it."""
    t = s["turn"]
    if not st.has_rule(hero, "charge"):
        return "no_moves", "IND-MOVE-2", "no movement left this activation"
    if t["action"]:
        return "action_used", "IND-SPR-1", "Charge! needs an attack afterwards; the action is used"
    if st.tile_type(s, to) is None:
        return "charge_into_fog", "IND-AMB-31", "a Charge! move must end on a revealed tile"
    seat = st.owner(s, hero)
    near = [n for n in st.board(s).neighbours[to] if n != s["heroes"][hero]["tile"]
            and _enemy_from(s, seat, hero, n)]
    if not near:
        return "nothing_to_charge", "IND-AMB-31", "a Charge! move must end next to something to attack"
    return None


def _enemy_from(s: State, seat: int, hero: str, tile: str) -> bool:
    return combat.is_enemy_target(s, ("hero", hero), tile)


def explore_problem(s: State, hero: str, tile: str) -> tuple[str, str, str] | None:
    t = s["turn"]
    here = s["heroes"][hero]["tile"]
    if here is None or tile not in st.board(s).neighbours[here]:
        return "not_adjacent", "IND-EXPL-1", "explore a face-down tile next to the active hero"
    if not movement.face_down(s, tile):
        return "not_face_down", "IND-EXPL-1", "only face-down tiles can be explored"
    if t["moves"] <= 0 or t["stopped"] or t["charged"] or t["must_attack"] or t.get("swapped"):
        return "no_moves", "IND-AMB-31", "exploring spends a point of movement"
    return None


def attack_problem(s: State, hero: str, tile: str) -> tuple[str, str, str] | None:
    here = s["heroes"][hero]["tile"]
    if s["turn"]["action"]:
        return "action_used", "IND-ACTN-1", "the hero has used its one action"
    if here is None or tile not in st.board(s).neighbours[here]:
        return "not_adjacent", "IND-ATK-2", "attack something on an adjacent tile"
    if not combat.is_enemy_target(s, ("hero", hero), tile):
        return "no_target", "IND-ATK-2", "attack an enemy hero, a monster or an enemy outpost"
    return None


# ----------------------------------------------------------------- legal
def legal(s: State, seat: int) -> list[dict]:
    if waiting_on(s) != seat:
        return []
    if s["pending"]:
        return _decisions(s, seat, s["pending"][0])
    t = s["turn"]
    out: list[dict] = []
    if t["hero"] is None:
        heroes = st.available_heroes(s, seat)
        activate = [{"type": "activate", "hero": h} for h in heroes]
        return activate + responses.spends(s, seat) + ([] if heroes else [{"type": "end_turn"}])
    hero = t["hero"]
    here = s["heroes"][hero]["tile"]
    if here is not None:
        for n in st.board(s).neighbours[here]:
            if move_problem(s, hero, n) is None:
                out.append({"type": "move", "to": n})
            if explore_problem(s, hero, n) is None:
                out.append({"type": "explore", "tile": n})
            if attack_problem(s, hero, n) is None:
                out.append({"type": "attack", "tile": n})
        if t["must_attack"]:
            return out + responses.spends(s, seat)
        if not t["action"]:
            if outposts.build_problem(s, seat, hero) is None:
                out.append({"type": "build"})
            if outposts.upgrade_problem(s, seat, hero) is None:
                out.append({"type": "upgrade"})
            if here == st.board(s).source and s["source"] > 0:
                out.append({"type": "gather"})
        out += abilities.turn_abilities(s, seat)
        out += [{"type": "swap", "figure": f} for f in movement.swap_partners(s, hero)]
    out += responses.spends(s, seat)
    out.append({"type": "end_turn"})
    return out


def _decisions(s: State, seat: int, p: dict) -> list[dict]:
    kind = p["kind"]
    if kind == "window":
        a = s["attack"]
        me = s["seats"][seat]
        if p["side"] == "attack":
            out = abilities.attack_window(s, seat)
        else:
            out = abilities.defence_window(s, seat)
            if me["spirits"] >= 1 and a["defender"][0] == "hero":
                out.append({"type": "spirit", "use": "ignore"})
        if me["spirits"] >= 1:
            out.append({"type": "spirit", "use": "dice"})
        return out + responses.spends(s, seat) + [{"type": "pass"}]   # any time (IND-AMB-18/20)
    if kind == "respond":
        return responses.options(s, seat, p)
    if kind == "explore":
        return [{"type": "reveal", "show": True}, {"type": "reveal", "show": False}]
    if kind == "fall_back":
        return [{"type": "fall_back", "to": t} for t in p["options"]]
    if kind == "outpost":
        return [{"type": "outpost", "choice": c} for c in p["options"]]
    if kind == "charge_through":
        return [{"type": "charge_through", "go": True}, {"type": "charge_through", "go": False}]
    if kind == "level_bonus":
        return [{"type": "level_bonus", "side": side} for side in ("sword", "shield")]
    if kind == "declare":
        return strategy.declarations(s, seat)
    if kind == "cache":
        return [{"type": "choose_hero", "hero": h} for h in p["options"]]
    if kind in ("monster_target", "monster_opportunity", "maelstrom"):
        return [{"type": "choose_tile", "tile": t} for t in p["options"]]
    if kind == "redeploy":
        return [{"type": "redeploy", "hero": h, "tile": t} for h, t in p["options"]]
    return []


# ----------------------------------------------------------------- decide
def dispatch(s: State, seat: int, cmd: dict, rng: Drbg, emit: Emit) -> None:
    require(s.get("phase") in ("play", "round_end"), "game_over", None, "the game is over")
    require(waiting_on(s) == seat, "not_your_turn", "IND-TURN-1", "it is not this seat's turn or decision")
    kind = cmd["type"]
    if s["pending"]:
        _decide_pending(s, seat, cmd, rng, emit)
        return
    t = s["turn"]
    if kind == "activate":
        hero = cmd.get("hero")
        require(t["hero"] is None, "already_active", "IND-TURN-1", "one hero is activated per turn")
        require(hero in s["seats"][seat]["heroes"], "not_your_hero", "IND-ACT-2", "activate one of your heroes")
        require(st.available(s, hero), "not_available", "IND-ACT-1", "that hero was activated this round or is in retreat")
        moves = st.hero_card(hero)["movement"] + abilities.power(s, seat).get("move_bonus", 0)
        emit(event("HeroActivated", seat=seat, hero=hero, moves=moves))
        harm.clearing_heal(s, emit, hero)
        return
    if kind in ("spirit", "exchange"):
        _spirit_or_exchange(s, seat, cmd, emit)
        return
    if kind in _ANSWERS:
        require(False, "no_decision_open", _DECISION_RULE[_ANSWERS[kind]],
                f"{kind!r} answers a decision the game asks for, and none is open now; see GET legal-actions")
    if kind == "end_turn":
        require(t["hero"] is not None or not st.available_heroes(s, seat), "activate_first", "IND-TURN-1",
                "activate exactly one of your available heroes before ending the turn")
        require(not t["must_attack"] or t["hero"] is None or s["heroes"][t["hero"]]["tile"] is None,
                "must_attack", "IND-SPR-1", "a Charge! move must be followed by an attack")
        turns.end_turn(s, emit)
        return
    require(t["hero"] is not None, "activate_first", "IND-TURN-1", "activate a hero first")
    hero = t["hero"]
    require(s["heroes"][hero]["tile"] is not None, "in_retreat", "IND-RET-3", "the active hero is in retreat")
    if kind == "move":
        to = cmd.get("to")
        require(to in s["tiles"], "bad_tile", "IND-TILE-1", "no such tile")
        problem = move_problem(s, hero, to)
        require(problem is None, *(problem or ("", "", "")))
        charge = s["turn"]["moves"] <= 0 or s["turn"]["stopped"]
        movement.move_hero(s, emit, hero, to, rng, charge=charge)
    elif kind == "explore":
        tile = cmd.get("tile")
        require(tile in s["tiles"], "bad_tile", "IND-TILE-1", "no such tile")
        problem = explore_problem(s, hero, tile)
        require(problem is None, *(problem or ("", "", "")))
        movement.explore(s, emit, hero, tile)
    elif kind == "attack":
        tile = cmd.get("tile")
        require(tile in s["tiles"], "bad_tile", "IND-TILE-1", "no such tile")
        problem = attack_problem(s, hero, tile)
        require(problem is None, *(problem or ("", "", "")))
        emit(event("ActionTaken", hero=hero, action="attack"))
        combat.begin_attack(s, emit, ("hero", hero), tile, rng)
    elif kind in ("build", "upgrade", "gather"):
        require(not t["action"], "action_used", "IND-ACTN-1", "the hero has used its one action")
        require(not t["must_attack"], "must_attack", "IND-SPR-1", "attack after a Charge! move")
        getattr(outposts, kind)(s, emit, seat, hero)
    elif kind == "swap":
        require(not t["must_attack"], "must_attack", "IND-SPR-1", "attack after a Charge! move")
        require(cmd.get("figure") in movement.swap_partners(s, hero), "no_swap", "IND-EVT-2",
                "swap from the Ancient Portal, once per activation, with a figure on a face-up tile "
                "(not an enemy hero on an outpost)")
        movement.swap(s, emit, hero, cmd["figure"])
    elif kind == "use_ability":
        require(not t["must_attack"], "must_attack", "IND-SPR-1", "attack after a Charge! move")
        require(cmd in abilities.turn_abilities(s, seat), "ability_unusable", "IND-ABL-6",
                "not an unlocked, affordable, unused ability of the active hero or the tree in play "
                "(see legal-actions)")
        use_ability(s, emit, seat, hero, cmd["ability"], rng, cmd.get("discount"))
    else:
        require(False, "unknown_command", None, f"unknown command {kind!r}; see GET legal-actions")


def use_ability(s: State, emit: Emit, seat: int, hero: str, ability: str, rng: Drbg,
                discount: str | None = None) -> None:
    """Pay (IND-ABL-4, IND-STR-8) and apply an ability's effect; ``hero`` is the one it helps."""
    eff = abilities.effect(s, seat, ability)
    emit(event("AbilityUsed", seat=seat, hero=hero, ability=ability, cost=abilities.paid(ability, discount),
               effect=eff))
    dice_n = eff.get("attack_dice", 0) + eff.get("defence_dice", 0) + eff.get("ally_defence", 0)
    if dice_n:
        side = "attack" if "attack_dice" in eff else "defence"
        emit(event("DiceRolled", side=side, dice=dice.roll(rng, dice_n, s["options"]["dice_faces"]), reason=ability))
    if "reroll" in eff:                                                           # IND-TERM-1: all of them
        n = len(s["attack"]["adice"])
        emit(event("DiceRerolled", side="attack", dice=dice.roll(rng, n, s["options"]["dice_faces"]), reason=ability))
    if "heal" in eff and s["heroes"][hero]["damage"]:
        emit(event("HeroHealed", hero=hero, damage=max(0, s["heroes"][hero]["damage"] - eff["heal"]), reason=ability))
    if "storm" in eff:
        storm(s, emit, seat, eff["storm"])


def storm(s: State, emit: Emit, seat: int, n: int) -> None:
    """Wild Storm and its kin: ``n`` damage to every hero not on a resource tile (IND-RST-2,
    IND-GAP-4; monsters count as heroes, IND-MON-3). Not attack damage: no fall back."""
    for h, x in sorted(s["heroes"].items()):
        if x["tile"] and st.tile_type(s, x["tile"]) not in st.RESOURCE_TILES:
            responses.hurt(s, emit, h, n, cause=seat)
    for m, x in sorted(s["monsters"].items()):
        if x["tile"] and st.tile_type(s, x["tile"]) not in st.RESOURCE_TILES:
            combat.damage_monster(s, emit, m, n)


def _spirit_or_exchange(s: State, seat: int, cmd: dict, emit: Emit) -> None:
    if cmd["type"] == "exchange":
        require(not cmd["give"].get(cmd["get"]), "same_resource", "IND-RES-5",
                "an exchange gets 1 of a resource other than those handed in")
    require(cmd in responses.spends(s, seat), "bad_payment", "IND-SPI-3",
            "not a spirit use or exchange you can afford now (see legal-actions)")
    responses.spend(s, emit, seat, cmd)


def _decide_pending(s: State, seat: int, cmd: dict, rng: Drbg, emit: Emit) -> None:
    p = s["pending"][0]
    require(cmd in _decisions(s, seat, p), "bad_decision", _DECISION_RULE[p["kind"]],
            f"awaiting a {p['kind'].replace('_', ' ')} decision; see legal-actions")
    kind = p["kind"]
    if kind == "respond":
        if cmd["type"] == "use_ability":
            use_ability(s, emit, seat, cmd["hero"], cmd["ability"], rng, cmd.get("discount"))
        elif responses.decide(s, emit, seat, cmd, p):
            turns.round_end_steps(s, emit)
        elif cmd["type"] == "pass" and s["attack"] is not None and not responses.waiting(s):
            combat.continue_attack(s, emit, rng)          # the attack waited for its damage window
        return
    if kind == "window":
        if cmd["type"] == "pass":
            emit(event("WindowClosed", side=p["side"], seat=seat))
            if p["side"] == "attack":
                combat.defender_rolls(s, emit, rng)
            else:
                combat.resolve(s, emit, rng)
        elif cmd["type"] == "use_ability":
            use_ability(s, emit, seat, cmd["hero"], cmd["ability"], rng, cmd.get("discount"))
        elif cmd["type"] == "exchange" or cmd["use"] not in ("dice", "ignore"):
            responses.spend(s, emit, seat, cmd)
        else:
            emit(event("SpiritSpent", seat=seat, n=1, use=cmd["use"]))
            if cmd["use"] == "dice":                                              # IND-SPI-3 use 2
                emit(event("DiceRolled", side=p["side"], dice=dice.roll(rng, 2, s["options"]["dice_faces"]),
                           reason="spirit"))
        return
    emit(event("DecisionMade", kind=kind, seat=seat, choice={k: v for k, v in cmd.items() if k != "type"}))
    if kind == "declare":
        if strategy.declare(s, emit, seat, cmd):
            turns.start_cycle(s, emit)
        return
    if kind == "cache":                                                            # IND-AMB-25
        emit(event("CacheTaken", hero=cmd["hero"], side=p["side"]))
        return
    if kind == "redeploy":                                                         # IND-AMB-26
        emit(event("HeroRedeployed", hero=cmd["hero"], tile=cmd["tile"]))
        turns.redeploy(s, emit)
        return
    if kind == "monster_target":                                                   # IND-MTGT-4
        monsters.proceed(s, emit, p["monster"], cmd["tile"], p["tile_target"], p["action"], p["through"], rng)
        return
    if kind == "monster_opportunity":                                              # IND-OPP-2
        combat.begin_attack(s, emit, ("monster", p["monster"]), cmd["tile"], rng)
        return
    if kind == "maelstrom":                                                        # IND-EVT-14
        movement.move_hero(s, emit, p["hero"], cmd["tile"], rng, maelstrom_done=True)
        return
    if kind == "explore":
        movement.finish_explore(s, emit, seat, p["tile"], cmd["show"], rng)
        return
    if kind == "level_bonus":
        emit(event("LevelBonusChosen", hero=p["hero"], side=cmd["side"]))
        return
    if kind == "fall_back":
        fk, fid = p["figure"]
        if fk == "hero":
            movement.force_move(s, emit, fid, cmd["to"], rng)
        else:
            emit(event("MonsterMoved", monster=fid, path=[cmd["to"]], charge=False))
    elif kind == "outpost":
        a = s["attack"]
        if cmd["choice"] == "capture":
            emit(event("OutpostCaptured", tile=a["tile"], seat=seat, level=s["outposts"][a["tile"]]["level"]))
        elif cmd["choice"] == "destroy":
            combat.destroy_outpost(s, emit, a["tile"], seat, a["attacker"])
    elif kind == "charge_through" and cmd["go"]:
        hero, blocked = s["attack"]["attacker"][1], charge_through(s, emit, rng)
        if responses.waiting(s):                          # onto a Poison Swamp: its damage window first
            return
        combat.continue_attack(s, emit, rng)
        if blocked is not None and s["attack"] is None:   # IND-EVM-2, once the charging attack is over
            movement.reveal_attack(s, emit, blocked, hero, rng)
        return
    if not responses.waiting(s):                          # a fall back onto a Poison Swamp waits (IND-AMB-18)
        combat.continue_attack(s, emit, rng)


def charge_through(s: State, emit: Emit, rng: Drbg) -> str | None:
    """IND-FB-4: into the attacked tile, free of movement costs and allowed whatever stopped the
    hero before; a face-down tile is revealed. Mud or Poison Swamp entered so still ends the
    hero's movement (IND-TT-5: "los héroes que entran a esta loseta no pueden moverse más").
    Returns the tile when its reveal kept the hero out (an event monster there attacks it)."""
    a = s["attack"]
    hero, tile = a["attacker"][1], a["tile"]
    if movement.face_down(s, tile) and not movement.reveal(s, emit, tile, a["seat"], hero, rng, entering=True):
        return tile
    emit(event("ChargedThrough", hero=hero, frm=s["heroes"][hero]["tile"], to=tile,
               stopped=movement.stops(s, hero, st.tile_type(s, tile))))
    movement.enter_effects(s, emit, hero, tile)
    return None


_DECISION_RULE = {"respond": "IND-AMB-18", "cache": "IND-AMB-25", "monster_target": "IND-MTGT-4", "monster_opportunity": "IND-OPP-2", "maelstrom": "IND-EVT-14",
                  "declare": "IND-STR-4", "window": "IND-ATK-5", "explore": "IND-EXPL-1", "fall_back": "IND-FB-1", "outpost": "IND-OUT-16",
                  "charge_through": "IND-FB-4", "level_bonus": "IND-LVL-2", "redeploy": "IND-AMB-26"}
_ANSWERS = {"pass": "window", "reveal": "explore", "fall_back": "fall_back", "outpost": "outpost",
            "charge_through": "charge_through", "level_bonus": "level_bonus", "declare": "declare",
            "choose_hero": "cache", "choose_tile": "monster_target", "redeploy": "redeploy"}
"""The commands that only answer a pending decision, with the decision each answers."""
