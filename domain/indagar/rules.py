"""La Guerra de Indagar as a Delve game (domain/indagar/RULES.md).

``GAME`` is the registered object. Seat N plays the starting area marked N on
the layout (seats sit clockwise, IND-SETUP-2); primary monsters sit between the
seats whose areas border their home (IND-MTURN-1) and are game-driven actors
(``monster-<id>``; event monsters ``event-<id>`` act at round end, IND-EVM-3).

Commands, in a seat's own turn (IND-TURN-1..4):

- ``{"type": "activate", "hero": "ariane"}`` -- first, one available hero (IND-ACT-2);
- ``{"type": "move", "to": "r3c4"}`` -- one adjacent tile (IND-MOVE-1; the Charge! extra move
  is a ``move`` once no movement is left, IND-SPR-1);
- ``{"type": "explore", "tile": "r3c4"}`` -- look at an adjacent face-down tile (IND-EXPL-1),
  then ``{"type": "reveal", "show": true|false}``;
- ``{"type": "attack", "tile": "r3c4"}``, ``{"type": "build"}``, ``{"type": "upgrade"}``,
  ``{"type": "gather"}`` -- the one action (IND-ACTN-1);
- ``{"type": "use_ability", "ability": "light-of-mending"}`` -- the active hero's abilities;
- ``{"type": "swap", "figure": "zhuan"}`` -- from the Unearthed Ancient Portal (IND-EVT-2);
- ``{"type": "spirit", "use": "resources", "get": {"gold": 2, "wood": 1, "ore": 0}}``,
  ``{"type": "spirit", "use": "pp"}``, ``{"type": "spirit", "use": "heal", "hero": id}`` (IND-SPI-3);
- ``{"type": "exchange", "give": {"gold": 3, "wood": 0, "ore": 0}, "get": "ore"}`` (IND-RES-5);
- ``{"type": "end_turn"}``.

Decisions asked of a seat (``view.pending[0]``): in an attack window
``use_ability`` (with ``hero``), ``{"type": "spirit", "use": "dice" | "ignore"}``, the
spirit uses and exchanges above, or ``{"type": "pass"}``; in a response window
(``kind: respond``, see ``responses``: spirits and always-available abilities outside
one's own turn) the spirit uses, exchanges, ``{"type": "spirit", "use": "ignore"}`` and
ignore-damage abilities before damage, or ``pass``; ``{"type": "fall_back", "to": tile}``;
``{"type": "outpost", "choice": "capture" | "destroy" | "leave"}``;
``{"type": "charge_through", "go": bool}``; ``{"type": "level_bonus", "side": "sword" | "shield"}``.
"""
from __future__ import annotations

from domain.core import Drbg, Event, GameType, Scoreboard, Seat, Turn, require, seat_of
from domain.kit import BaseGame, Batch, platform, random_bot, rule, search

from . import commands, content, drawing, labels, monsters, scoring, secrecy, setup, turns
from .bots import greedy
from .sampler import SEARCH
from .commands_schema import COMMAND_SCHEMA
from .evolve import evolve as _evolve
from .positions import POSITIONS, VERBS
from .secrecy import SECRECY

MONSTERS = tuple(content.monsters())
OPTIONS_SCHEMA: dict = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "factions": rule({"type": ["array", "null"], "items": {"enum": list(content.FACTIONS_ORDER)}, "minItems": 1,
                          "default": None,
                          "description": "Each seat's faction, distinct; null = Arkland, Sect, Forest, Ramal in seat "
                                         "order (IND-SETUP-4). [] is refused: every player picks one."},
                         "bad_option", "IND-SETUP-4"),
        "commanders": rule({"type": ["array", "null"], "items": {"type": "string"}, "minItems": 1, "default": None,
                            "description": "Each seat's commander, a hero of its faction; null = the faction's first "
                                           "hero (IND-SETUP-7). [] is refused: every player names one."},
                           "bad_option", "IND-SETUP-7"),
        "monsters": rule({"type": ["array", "null"], "items": {"enum": list(MONSTERS)}, "minItems": 1, "default": None,
                          "description": "Primary monsters: one per seat, on the homes in order (IND-SETUP-8); solo: 4, "
                                         "or 3 in easy mode, on random homes (IND-SOLO-2). null = the pack's order. "
                                         "[] is refused: there are as many primary monsters as players."},
                         "bad_option", "IND-SETUP-8"),
        "first_game": {"type": "boolean", "default": False,
                       "description": "Win at 7 PP instead of 10 (IND-WIN-8, IND-AMB-45)."},
        "solo_easy": {"type": "boolean", "default": False, "description": "Solo with 3 monsters (IND-SOLO-9)."},
        "monster_start": {"enum": ["skipFirstPass", "skipRound1", "none"], "default": "skipFirstPass",
                          "description": "When monsters begin acting in round 1 (IND-AMB-36): skipFirstPass, once "
                                         "every player has activated a hero; skipRound1, from round 2; none, at once."},
        "uniform_endurance_threshold": {"type": "boolean", "default": False,
                                        "description": "Monsters retreat at damage >= endurance like heroes (IND-AMB-10)."},
        "fallback_retreat_counts": {"type": "boolean", "default": True,
                                    "description": "A hero with no fall-back tile retreats as caused by the attack (IND-AMB-13)."},
        "cache_tokens_survive_retreat": {"type": "boolean", "default": False,
                                         "description": "Weapons/Armour Cache tokens stay on a retreating hero (IND-AMB-25)."},
        "one_in_a_million": {"enum": ["swap", "restart"], "default": "swap",
                             "description": "A starting area sealed by Mountains: swap the last one, or end the game "
                                            "without a result to restart (IND-OIM-1, IND-AMB-7)."},
        "spirit_windows": {"enum": ["decisive", "every_turn"], "default": "decisive",
                           "description": "When a seat is asked to spend spirits outside its own turn (IND-SPI-4, "
                                          "IND-AMB-18): decisive = in the attacks it fights, before damage outside an "
                                          "attack, and at round end before the winner check; every_turn = also at the "
                                          "start of every other turn while it holds a spirit."},
        "dice_faces": {"type": "integer", "minimum": 2, "maximum": 20, "default": 6,
                       "description": "Faces of every die, numbered from 1 (IND-AMB-1)."},
    },
}


class Indagar(BaseGame):
    id = "indagar"
    title = "La Guerra de Indagar"
    # 7: a fifth audit: Oryana breaks through to an occupied Source (IND-MTGT-5, IND-MMOV-5), Tijian
    # destroys the resource tile he stands on (IND-MON-6), experience comes before Charge Through
    # (IND-LVL-5, IND-RET-4), no event monster's turn in round 1 under skipRound1 (IND-AMB-36), a
    # concession leaves the monsters unranked (IND-WIN-7);
    # 6: the active hero's own ignore-damage abilities answer damage outside an attack in its turn
    # (IND-DMG-2, IND-ABL-10); damage on a fall back or Charge Through gets a damage window, the
    # attack waiting for it (IND-AMB-18); Groxiah breaking through spares an unmanned outpost (IND-EVM-4);
    # 5: after a Charge! move only the owed attack (or a spend) is accepted: a Portal swap or a
    # hero ability between them was accepted unlisted and left a turn that could not end (IND-SPR-1);
    # 4: the second audit: event monsters approach with nothing juicy (IND-EVM-3), Groxiah spares
    # unmanned outposts (IND-EVM-4), monsters heal on the Mystic Clearing and a hero hurt there later
    # does (IND-AMB-21), an exchange gets another resource (IND-RES-5), Mud stops a charge or fall
    # back onto it (IND-TT-5), one use of an ability per player turn, reveal attacks included
    # (IND-AMB-41), the owner redeploys (IND-AMB-26); 3: IND-TURN-1, IND-RET-2, IND-EVM-2,
    # IND-OUT-11, IND-MTGT-6, IND-SPI-3
    rules_version = "indagar-7"
    rule_prefix = "IND"
    renderer = "indagar"
    positions = POSITIONS
    position_verbs = VERBS
    content_tables = content.TABLES
    players_rule = "IND-FAC-1"
    over_rule = "IND-WIN-2"
    options_schema = OPTIONS_SCHEMA
    command_schema = COMMAND_SCHEMA
    bots = {"random": random_bot, "greedy": greedy, **search.bots(SEARCH)}  # search-*: the kit's ISMCTS
    evolve = staticmethod(_evolve)
    secrecy = SECRECY
    draw = staticmethod(drawing.board)
    game_type = GameType(1, 4, chance=True, information="imperfect",
                         actors=tuple(f"monster-{m}" for m in MONSTERS)
                         + tuple(f"event-{m}" for m in content.event_monsters()))

    def players(self, state: dict) -> int:
        return state["n"]

    def check_options(self, out: dict, seats: int) -> dict:
        """Cross-option checks and the computed defaults (the schema typed each option)."""
        # null asks for the defaults; an empty list is a choice the rules do not allow (the schema's minItems)
        factions = out["factions"] if out["factions"] is not None else list(("arkland", "sect", "forest", "ramal")[:seats])
        require(len(factions) == seats and len(set(factions)) == seats, "bad_option", "IND-SETUP-4",
                "one distinct faction per seat: arkland, forest, ramal, sect")
        out["factions"] = factions
        commanders = out["commanders"] if out["commanders"] is not None else [content.faction_heroes(f)[0] for f in factions]
        require(len(commanders) == seats and all(c in content.faction_heroes(f) for c, f in zip(commanders, factions)),
                "bad_option", "IND-SETUP-7", "one commander per seat, a hero of that seat's faction")
        out["commanders"] = commanders
        require(not out["solo_easy"] or seats == 1, "bad_option", "IND-SOLO-9", "easy mode is a solo option")
        want = (3 if out["solo_easy"] else 4) if seats == 1 else seats
        chosen = out["monsters"] if out["monsters"] is not None else list(MONSTERS[:want])
        require(len(chosen) == want and len(set(chosen)) == want, "bad_option", "IND-SETUP-8",
                f"choose {want} distinct primary monsters")
        out["monsters"] = chosen
        return out

    def setup(self, options: dict, seats: list[Seat], rng: Drbg) -> list[Event]:
        b = Batch({}, self.evolve)
        for ev in setup.start(options, len(seats), rng):
            b.add(ev)
        turns.begin_round(b.state, b.add)
        return b.events

    def _run(self, state: dict, step) -> list[Event]:
        b = Batch(state, self.evolve)
        step(b)
        settle(b.state, b.add)
        return b.events

    def rules_decide(self, state: dict, seat: int, command: dict, rng: Drbg) -> list[Event]:
        require(isinstance(seat, int) and 0 <= seat < state.get("n", 0), "bad_seat", None, "no such seat")
        return self._run(state, lambda b: commands.dispatch(b.state, seat, command, rng, b.add))

    def decide_actor(self, state: dict, actor: str, rng: Drbg) -> list[Event]:
        require(self.turn(state).actor == actor, "not_actor_turn", "IND-MTURN-2", f"it is not {actor}'s turn")
        name = actor.split("-", 1)[1]

        def step(b: Batch) -> None:
            b.emit("MonsterActed", monster=name)
            monsters.take_turn(b.state, b.add, name, rng)
        return self._run(state, step)

    def rules_legal(self, state: dict, seat: int) -> list[dict]:
        if not state.get("seats") or not 0 <= seat < state["n"]:
            return []
        return commands.legal(state, seat)

    def rules_label(self, state: dict, seat: int, command: dict, public: bool) -> str:
        return labels.label(state, command)

    def rules_actor_label(self, state: dict, actor: str, events: list[Event]) -> str | None:
        return labels.monster_turn(state, events)

    def rules_what_followed(self, state: dict, seat: int, command: dict, events: list[Event]) -> str | None:
        return labels.what_followed(state, command, events)

    def rules_turn(self, state: dict) -> Turn:
        if state.get("phase") not in ("play", "round_end"):
            return Turn.over()
        seat = commands.waiting_on(state)
        if seat is not None:
            return Turn.to_seats({seat})
        return Turn.to_actor(state["turn"]["who"]) if state.get("turn") else Turn.over()

    def rules_scores(self, state: dict) -> Scoreboard:
        return scoring.scoreboard(state)

    def scores(self, state: dict) -> Scoreboard:
        """The rules' scores, or those of a game a platform command ended, where only the seats
        are placed (``scoring.conceded``; ``indagar-7``)."""
        board = self.rules_scores(state)
        return scoring.conceded(state, board) if platform.ended(state) else board

    def content(self) -> dict:
        return {"heroes": dict(content.heroes()), "abilities": dict(content.abilities()),
                "factions": content.factions(), "trees": content.trees(), "monsters": dict(content.monsters()),
                "event_monsters": dict(content.event_monsters()),
                "demon_heads": content.tiles()["demon_heads"],
                "layouts": {str(n): content.layout_text(n) for n in (1, 2, 3, 4)}}

    def view(self, state: dict, seat: int | None) -> dict:
        return secrecy.view(state, seat)


def settle(s: dict, emit) -> None:
    """After a command: a monster turn whose attack is over ends (IND-MTURN-7); nothing
    else moves on by itself, players end their own turns."""
    if s.get("phase") not in ("play", "round_end") or s["pending"] or s["attack"] is not None:
        return
    t = s.get("turn")
    if t and seat_of(t["who"]) is None and t["action"]:
        turns.end_turn(s, emit)


GAME = Indagar()
