"""Folding events into the state. Total and deterministic: every event ``decide``
or ``decide_actor`` produced applies without raising (DESIGN.md)."""
from __future__ import annotations


from domain.kit import Handlers

from . import content
from .turns import ring

handlers = Handlers()


# ------------------------------------------------------------------ setup
@handlers.on("BoardBuilt")
def _board(s, d):
    s.update(n=d["players"], solo=d["players"] == 1, options=dict(d["options"]), phase="setup", round=0, initiative=0,
             tiles={t: {"type": k, "destroyed": False} for t, k in d["tiles"].items()},
             homes={int(k): t for k, t in d["homes"].items()}, sealed=d["sealed"], hidden={}, peeks={},
             mountains=[], seats=[], heroes={}, outposts={}, monsters={}, source=0, ring=[], cursor=0,
             turn=None, attack=None, pending=[], first_pass=[], event_order=[], event_queue=[],
             last_ability_seat=None, result=None)


@handlers.on("TilesShuffled")
def _shuffled(s, d):
    s["hidden"] = dict(d["hidden"])


@handlers.on("InitiativeTaken", "InitiativePassed")
def _initiative(s, d):
    s["initiative"] = d["seat"]


@handlers.on("FactionsChosen")
def _factions(s, d):
    for p, seat in enumerate(d["seats"]):
        s["seats"].append({"faction": seat["faction"], "heroes": list(seat["heroes"]), "commander": seat["commander"],
                           "res": {"gold": 0, "wood": 0, "ore": 0}, "spirits": 0, "pp": {}, "traitors": False,
                           "tree": None, "unlocked": {}})
        for h in seat["heroes"]:
            s["heroes"][h] = {"owner": p, "tile": None, "damage": 0, "xp": 0, "bonuses": [], "caches": [],
                              "activated": False}


@handlers.on("MonstersPlaced")
def _monsters(s, d):
    for m, home in d["homes"].items():
        s["monsters"][m] = {"kind": "primary", "script": content.monsters()[m]["script"], "home": home,
                            "tile": s["homes"][home], "damage": 0, "retreat": None, "turns": 0, "counts": {}}
    s["ring"] = ring(s)


@handlers.on("HeroesDeployed")
def _deployed(s, d):
    for h, t in d["tiles"].items():
        s["heroes"][h]["tile"] = t


@handlers.on("ResourcesTaken")
def _resources(s, d):
    for seat in s["seats"]:
        seat["res"] = dict(d["res"])


# ------------------------------------------------------------------ rounds
@handlers.on("RoundBegan")
def _round(s, d):
    s.update(round=d["round"], phase="play", turn=None)
    for m in s["monsters"].values():
        m["turns"] = 0
    for seat in s["seats"]:
        seat.update(traitors=False, tree=None)      # IND-EVT-9 lasts the round; P1 declares anew


@handlers.on("MonstersRecovered")
def _recovered(s, d):
    for m, dmg in d["damage"].items():
        s["monsters"][m]["damage"] = dmg


@handlers.on("MonsterFlipped")
def _flipped(s, d):
    s["monsters"][d["monster"]]["retreat"] = "colour"


@handlers.on("MonsterRedeployed")
def _redeployed(s, d):
    m = s["monsters"][d["monster"]]
    if d["tile"] is not None:
        m.update(tile=d["tile"], retreat=None)


@handlers.on("HeroesReadied")
def _readied(s, d):
    for h in s["seats"][d["seat"]]["heroes"]:
        s["heroes"][h]["activated"] = False
    for h, dmg in d["damage"].items():
        s["heroes"][h]["damage"] = dmg


@handlers.on("HeroRedeployed")
def _hero_redeployed(s, d):
    s["heroes"][d["hero"]]["tile"] = d["tile"]


@handlers.on("TurnBegan")
def _turn(s, d):
    s["cursor"] = d["cursor"]
    s["turn"] = {"who": d["who"], "hero": None, "moves": 0, "action": False, "used": [], "stopped": False,
                 "charged": False, "must_attack": False, "cleared": False}
    name = d["who"].split("-", 1)[1] if d["who"].startswith(("monster-", "event-")) else None
    if name:
        s["monsters"][name]["turns"] += 1


@handlers.on("TurnEnded")
def _turn_ended(s, d):
    for o in s["outposts"].values():
        o.update(damage=0, downgraded=False)
    s["turn"] = None
    if d["who"].startswith("event-") and s["event_queue"]:
        s["event_queue"].pop(0)


@handlers.on("RoundEnding")
def _round_ending(s, d):
    s["phase"] = "round_end"
    s["event_queue"] = list(d["event_monsters"])
    s["round_windows"] = False


@handlers.on("ResponseWindowsOpened")
def _windows_opened(s, d):
    s["round_windows"] = True


@handlers.on("EventMonsterSkipped")
def _skipped(s, d):
    s["event_queue"].pop(0)


@handlers.on("GameEnded")
def _ended(s, d):
    s["phase"] = "over"
    s["turn"] = None
    s["result"] = dict(d)


@handlers.on("OutpostsProduced")
def _produced(s, d):
    for p, res in d["res"].items():
        for r, n in res.items():
            s["seats"][int(p)]["res"][r] += n


@handlers.on("SpiritPlaced")
def _spirit(s, d):
    s["source"] = d["total"]


# ------------------------------------------------------------------ heroes, tiles
@handlers.on("HeroActivated")
def _activated(s, d):
    s["heroes"][d["hero"]]["activated"] = True
    s["turn"].update(hero=d["hero"], moves=d["moves"])
    if d["seat"] not in s["first_pass"]:
        s["first_pass"].append(d["seat"])


@handlers.on("HeroMoved")
def _moved(s, d):
    s["heroes"][d["hero"]]["tile"] = d["to"]
    s["turn"]["moves"] = d["moves"]
    if d["stopped"]:
        s["turn"]["stopped"] = True
    if d["charge"]:
        s["turn"].update(charged=True, must_attack=True)


@handlers.on("HeroMoveBlocked")
def _blocked(s, d):
    s["turn"]["moves"] = d["moves"]


@handlers.on("FiguresSwapped")
def _swapped_figures(s, d):
    s["heroes"][d["hero"]]["tile"] = d["hero_to"]
    (s["heroes"].get(d["other"]) or s["monsters"][d["other"]])["tile"] = d["other_to"]
    s["turn"]["swapped"] = True


@handlers.on("HeroFellBack", "ChargedThrough")
def _fell_back(s, d):
    s["heroes"][d["hero"]]["tile"] = d["to"]
    if d["stopped"]:  # onto Mud in its own activation (IND-TT-5)
        s["turn"]["stopped"] = True


@handlers.on("HeroHealed")
def _healed(s, d):
    s["heroes"][d["hero"]]["damage"] = d["damage"]
    if d["reason"] == "mystic_clearing" and s["turn"]:
        s["turn"]["cleared"] = True


@handlers.on("HeroDamaged")
def _damaged(s, d):
    s["heroes"][d["hero"]]["damage"] = d["damage"]


@handlers.on("HeroRetreated")
def _retreated(s, d):
    h = s["heroes"][d["hero"]]
    h.update(tile=None, damage=0, xp=0)
    if not s["options"]["cache_tokens_survive_retreat"]:
        h["caches"] = []
    if d["commander_pp"]:
        _add_pp(s, d["by_seat"], "commanders", 1)
    m = s["monsters"].get(d["by_monster"] or "")
    if m and m["kind"] == "primary":
        m["counts"]["heroes_retreated"] = m["counts"].get("heroes_retreated", 0) + 1
    a = s["attack"]
    if a and a["defender"][1] == d["hero"]:
        a["retreated"] = True


def _add_pp(s, seat, category, n):
    pp = s["seats"][seat]["pp"]
    pp[category] = pp.get(category, 0) + n


@handlers.on("TilePeeked")
def _peeked(s, d):
    s["peeks"].setdefault(str(d["seat"]), {})[d["tile"]] = d["kind"]
    s["turn"]["moves"] = d["moves"]
    s["pending"].append({"kind": "explore", "seat": d["seat"], "tile": d["tile"]})


@handlers.on("TileRevealed")
def _revealed(s, d):
    s["tiles"][d["tile"]]["type"] = d["kind"]
    s["hidden"].pop(d["tile"], None)
    for known in s["peeks"].values():
        known.pop(d["tile"], None)
    if d["kind"] == "mountains":
        s["mountains"].append(d["tile"])


@handlers.on("MountainSwapped")
def _swapped(s, d):
    old, new = d["mountain"], d["to"]
    s["tiles"][old]["type"] = None
    s["hidden"][old] = s["hidden"].pop(new)
    s["tiles"][new]["type"] = "mountains"
    for known in s["peeks"].values():
        known.pop(new, None)
    s["mountains"][s["mountains"].index(old)] = new


@handlers.on("CacheTaken")
def _cache(s, d):
    s["heroes"][d["hero"]]["caches"].append(d["side"])


@handlers.on("SpiritsGained")
def _spirits(s, d):
    s["seats"][d["seat"]]["spirits"] += d["n"]


@handlers.on("TraitorsRevealed")
def _traitors(s, d):
    s["seats"][d["seat"]]["traitors"] = True


@handlers.on("TileDestroyed")
def _tile_destroyed(s, d):
    s["tiles"][d["tile"]]["destroyed"] = True
    _count(s, d["monster"], "tiles_destroyed", 1)


def _count(s, monster, what, n):
    m = s["monsters"].get(monster or "")
    if m is not None:
        m["counts"][what] = m["counts"].get(what, 0) + n


# ------------------------------------------------------------------ outposts, spirits, resources
@handlers.on("OutpostBuilt")
def _built(s, d):
    old = s["outposts"].get(d["tile"], {})
    s["outposts"][d["tile"]] = {"owner": d["seat"], "level": d["level"], "damage": old.get("damage", 0),
                                "downgraded": old.get("downgraded", False)}
    _pay(s, d["seat"], d["cost"])
    s["turn"]["action"] = True


@handlers.on("OutpostPlaced")
def _placed(s, d):
    s["outposts"][d["tile"]] = {"owner": d["seat"], "level": d["level"], "damage": 0, "downgraded": False}


def _pay(s, seat, cost):
    for r, n in cost.items():
        s["seats"][seat]["res"][r] -= n


@handlers.on("OutpostDamaged")
def _outpost_damaged(s, d):
    s["outposts"][d["tile"]]["damage"] = d["damage"]


@handlers.on("OutpostDowngraded")
def _downgraded(s, d):
    s["outposts"][d["tile"]].update(level=d["level"], damage=0, downgraded=True)
    _outpost_hit(s, d["tile"])


@handlers.on("OutpostDestroyed")
def _destroyed(s, d):
    del s["outposts"][d["tile"]]
    if d["by_seat"] is not None:
        for r, n in d["reward"].items():
            s["seats"][d["by_seat"]]["res"][r] += n
    _count(s, d["by_monster"], "outposts_destroyed", 1)
    _outpost_hit(s, d["tile"])


@handlers.on("OutpostCaptured")
def _captured(s, d):
    s["outposts"][d["tile"]]["owner"] = d["seat"]
    _outpost_hit(s, d["tile"])


def _outpost_hit(s, tile):
    if s["attack"] and s["attack"]["tile"] == tile:
        s["attack"]["outpost_hit"] = True


@handlers.on("SpiritsGathered")
def _gathered(s, d):
    s["source"] = 0
    if d["seat"] is not None:
        s["seats"][d["seat"]]["spirits"] += d["n"]
        s["turn"]["action"] = True
    else:
        _count(s, d["monster"], "spirits_held", d["n"])


@handlers.on("SpiritSpent")
def _spent(s, d):
    me = s["seats"][d["seat"]]
    me["spirits"] -= d["n"]
    if d["use"] == "resources":
        for r, n in d["get"].items():
            me["res"][r] += n
    elif d["use"] == "pp":
        _add_pp(s, d["seat"], "spirits", 1)
    elif d["use"] == "ignore":
        _ignore(s, 3)


def _ignore(s, n):
    """Damage ignored: in the open damage window -- inside an attack too, for a fall back or
    Charge Through onto a Poison Swamp (IND-AMB-18) -- else in the attack being resolved."""
    window = s["pending"][0] if s["pending"] else None
    if window is not None and window["kind"] == "respond":
        window["damage"] = max(0, window["damage"] - n)
    else:
        s["attack"]["ignore"] += n


@handlers.on("ResourcesExchanged")
def _exchanged(s, d):
    _pay(s, d["seat"], d["give"])
    s["seats"][d["seat"]]["res"][d["get"]] += 1


@handlers.on("TreeDeclared")
def _declared(s, d):
    me = s["seats"][d["seat"]]
    me["tree"] = d["tree"]
    if d["unlock"]:
        me["unlocked"][d["unlock"]] = d["token"]


@handlers.on("ResourcesGained")
def _gained(s, d):
    for r, n in d["res"].items():
        s["seats"][d["seat"]]["res"][r] += n


@handlers.on("PrimacyGained")
def _primacy(s, d):
    _add_pp(s, d["seat"], d["category"], d["n"])


@handlers.on("AbilityUsed")
def _ability(s, d):
    _pay(s, d["seat"], d["cost"])
    a = s["attack"]
    if s["turn"] is not None:
        s["turn"]["used"].append(d["ability"])                # reveal attacks included (IND-AMB-41)
    elif a is not None:
        a["used"].append(d["ability"])
    s["last_ability_seat"] = d["seat"]
    eff = d["effect"]
    if a is not None:
        a["min"] = max(a["min"], eff.get("min_damage", 0))
        a["extra"] += eff.get("extra_damage", 0)
    if eff.get("ignore_damage"):
        _ignore(s, eff["ignore_damage"])
    if "extra_move" in eff:
        s["turn"]["moves"] += eff["extra_move"]
    for r, n in eff.get("gain", {}).items():
        s["seats"][d["seat"]]["res"][r] += n


# ------------------------------------------------------------------ attacks
@handlers.on("MonsterIdle", "ExploreResolved")
def _nothing(s, d):
    """Facts for the log and the viewer that change no state."""


@handlers.on("MonsterActed")
def _monster_acted(s, d):
    s["turn"]["action"] = True


@handlers.on("ActionTaken")
def _action(s, d):
    s["turn"]["action"] = True


@handlers.on("AttackBegan")
def _attack(s, d):
    s["attack"] = {"attacker": d["attacker"], "seat": d["seat"], "tile": d["tile"], "defender": d["defender"],
                   "defender_seat": d["defender_seat"], "outpost": d["outpost"], "reveal": d["reveal"],
                   "breakthrough": d["breakthrough"], "adice": [], "ddice": [], "min": 0, "extra": 0, "ignore": 0,
                   "stage": "attack", "figure_damage": 0, "retreated": False, "caused": False, "outpost_hit": False,
                   "used": []}
    if s["turn"] is not None and s["turn"]["must_attack"]:
        s["turn"]["must_attack"] = False


@handlers.on("DiceRolled")
def _dice(s, d):
    s["attack"]["adice" if d["side"] == "attack" else "ddice"] += d["dice"]


@handlers.on("DiceRerolled")
def _rerolled(s, d):
    s["attack"]["adice" if d["side"] == "attack" else "ddice"] = list(d["dice"])


@handlers.on("WindowOpened")
def _window(s, d):
    s["attack"]["stage"] = d["side"]
    s["pending"].append({"kind": "window", "side": d["side"], "seat": d["seat"]})


@handlers.on("WindowClosed", "DecisionMade")
def _decided(s, d):
    s["pending"].pop(0)


@handlers.on("DecisionAsked")
def _asked(s, d):
    s["pending"].append(dict(d))


@handlers.on("DamageDealt")
def _dealt(s, d):
    s["attack"].update(figure_damage=d["figure"], stage="fallback")


@handlers.on("AttackStage")
def _stage(s, d):
    s["attack"]["stage"] = d["stage"]


@handlers.on("AttackRetreat")
def _attack_retreat(s, d):
    s["attack"]["caused"] = d["caused"]


@handlers.on("AttackEnded")
def _attack_ended(s, d):
    s["attack"] = None


@handlers.on("XpGained")
def _xp(s, d):
    h = s["heroes"][d["hero"]]
    h["xp"] = d["xp"]
    h["bonuses"] += ["?"] * d["levels"]
    if d["levels"] and len(h["bonuses"]) == 3:
        _add_pp(s, h["owner"], "levels", 1)                     # IND-PP-5, IND-LVL-7


@handlers.on("LevelBonusChosen")
def _bonus(s, d):
    b = s["heroes"][d["hero"]]["bonuses"]
    b[b.index("?")] = d["side"]


# ------------------------------------------------------------------ monsters
@handlers.on("EventMonsterAppeared")
def _appeared(s, d):
    card = content.event_monsters()[d["monster"]]
    s["monsters"][d["monster"]] = {"kind": "event", "script": "event", "home": None, "tile": d["tile"], "damage": 0,
                                   "retreat": None, "turns": 0, "counts": {}, "xp": card["xp"]}
    s["event_order"].append(d["monster"])


@handlers.on("MonsterMoved")
def _monster_moved(s, d):
    s["monsters"][d["monster"]]["tile"] = d["path"][-1]


@handlers.on("MonsterDamaged", "MonsterHealed")
def _monster_damaged(s, d):
    s["monsters"][d["monster"]]["damage"] = d["damage"]


@handlers.on("MonsterRetreated")
def _monster_retreated(s, d):
    m = s["monsters"][d["monster"]]
    m.update(tile=None, damage=0, retreat="grey" if m["kind"] == "primary" else "gone")   # IND-MRET-2/4
    a = s["attack"]
    if a and a["defender"][1] == d["monster"]:
        a["retreated"] = True


evolve = handlers.evolver()
