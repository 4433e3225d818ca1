"""Saboteur as a Delve game (domain/saboteur/RULES.md). ``GAME`` is the registered object.

Commands (card ids are those of the content pack: paths P01..P40, actions A01..A27):

- ``{"type": "play_path", "card": "P07", "x": 1, "y": 0, "rotated": false}``
  add a path card at cell (x, y), upright or turned 180 degrees (SAB-PATH, SAB-PATH-2).
- ``{"type": "break_tool", "card": "A02", "target": 3}`` put a broken tool in front of a
  player, oneself included (SAB-TOOL, SAB-AMB-7).
- ``{"type": "repair", "card": "A19", "target": 3, "tool": "lantern"}`` remove one
  matching broken tool; ``tool`` may be left out for a one-tool repair (SAB-REP, SAB-AMB-8).
- ``{"type": "rockfall", "card": "A20", "x": 3, "y": 0}`` remove a path card (SAB-ROCK).
- ``{"type": "map", "card": "A25", "goal": "B"}`` look at a face-down goal A, B or C
  at (8,-2), (8,0), (8,2) (SAB-MAP, SAB-GRID-2).
- ``{"type": "pass", "card": "P12"}`` discard one card face down (SAB-PASS-1);
  ``{"type": "pass"}`` only with an empty hand, when ``auto_pass_empty_hand`` is off (SAB-PASS-4).
- ``{"type": "take_gold", "values": [3]}`` in the gold phase: the miner holding the
  bundle keeps one card (one value), a saboteur takes a set of values (SAB-GOLD,
  SAB-AMB-18/25). Gold cards of one value are interchangeable, so values name them.

Events (public unless noted; ``redact`` strips the secret fields for other seats):
GameSetUp, RoundStarted, GoalsShuffled (secret to all), RoleDealt (role: owner),
RoleSetAside (secret), DeckShuffled (order secret, count public), HandDealt (cards:
owner), TurnStarted, PathPlaced, ToolBroken, ToolRepaired, PathCollapsed, GoalPeeked
(shape: the map's player), CardDiscarded (card: owner), TurnPassed, CardDrawn (card:
owner), GoalRevealed, RoundEnded, RolesRevealed, GoldBundleDrawn (values: holder),
GoldKept (value: owner), GoldBundlePassed (values: giver and receiver),
GoldPayoutDue, GoldPaid (values: owner), GoldRevealed (final scoring, public).

The command shapes are also a JSON Schema, ``commands_schema.COMMAND_SCHEMA``, enforced
before the rules see a command (``domain.kit``): the rules may assume the declared types.

Options: see ``OPTIONS_SCHEMA``; every default is the spec's "Proposed" resolution.
"""
from __future__ import annotations

from domain.core import Command, Drbg, Event, GameType, Scoreboard, Seat, Turn, require
from domain.kit import BaseGame, Batch, rule, search
from domain.saboteur import drawing
from domain.saboteur import bots as _bots
from domain.saboteur.sampler import SEARCH
from domain.saboteur import labels, rounds, secrecy, turns
from domain.saboteur.commands_schema import COMMAND_SCHEMA
from domain.saboteur.secrecy import SECRECY
from domain.saboteur.content import ROUNDS, TABLES, components
from domain.saboteur.evolve import evolve
from domain.saboteur.positions import VERBS
from domain.saboteur.state import SaboteurState, new_state

OPTIONS_SCHEMA: dict = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "first_player": rule({
            "type": ["integer", "null"], "minimum": 0, "maximum": 9, "default": None,
            "description": "Seat that starts round 1; null = chosen at random (SAB-AMB-22).",
        }, "bad_option", "SAB-AMB-22"),
        "require_connection_to_start": {
            "type": "boolean", "default": False,
            "description": "Every path card must join a tunnel connected to the start (SAB-AMB-3).",
        },
        "gold_cards_for_miners": rule({
            "enum": ["players", "miners"], "default": "players",
            "description": "Gold cards drawn when the miners win: one per player (max 9) or per miner (SAB-AMB-16).",
        }, "bad_option", "SAB-AMB-16"),
        "gold_choice": rule({
            "enum": ["players", "auto"], "default": "players",
            "description": "Who picks gold cards: the players (SAB-AMB-18/25) or the engine's default rule.",
        }, "bad_option", "SAB-AMB-18"),
        "auto_pass_empty_hand": {
            "type": "boolean", "default": True,
            "description": "Players with an empty hand pass by themselves (SAB-AMB-14); off = they send {type: pass}.",
        },
    },
}


class Saboteur(BaseGame):
    id = "saboteur"
    content_tables = TABLES
    position_verbs = VERBS
    title = "Saboteur"
    rules_version = "saboteur-1"
    rule_prefix = "SAB"
    renderer = "saboteur"
    game_type = GameType(3, 10, chance=True, information="imperfect")
    players_rule = "SAB-ROLE-1"
    over_rule = "SAB-WIN-1"
    options_schema = OPTIONS_SCHEMA
    command_schema = COMMAND_SCHEMA
    bots = {**_bots.BOTS, **search.bots(SEARCH)}  # search-*: the kit's ISMCTS over ``sampler``
    evolve = staticmethod(evolve)
    secrecy = SECRECY
    draw = staticmethod(drawing.board)

    def check_options(self, options: dict, seats: int) -> dict:
        first = options["first_player"]
        require(first is None or first < seats, "bad_option", "SAB-AMB-22", "first_player must be a seat index or null")
        return options

    def setup(self, options: dict, seats: list[Seat], rng: Drbg) -> list[Event]:
        b = Batch(self.initial_state(), evolve)
        b.emit("GameSetUp", players=len(seats), options=options)
        first = options["first_player"]
        rounds.start_round(b, rng, 1, rng.randbelow(len(seats)) if first is None else first)
        return b.events

    def initial_state(self) -> SaboteurState:
        return new_state()

    def rules_decide(self, state: SaboteurState, seat: int, command: Command, rng: Drbg) -> list[Event]:
        kind = command["type"]
        require(state["phase"] != "over", "game_over", "SAB-WIN-1", "the game is over")
        if kind == "take_gold":
            return self._take_gold(state, seat, command, rng)
        card = turns.check(state, seat, command)
        b = Batch(state, evolve)
        if kind == "play_path":
            b.emit("PathPlaced", seat=seat, card=card.id, shape=card.shape, x=command["x"],
                   y=command["y"], rotated=command.get("rotated", False))
            if rounds.reveal_reached_goals(b, seat):
                rounds.end_round(b, rng, "treasure_found", seat)  # SAB-END-1, no draw (SAB-AMB-24)
                return b.events
        elif kind == "break_tool":
            b.emit("ToolBroken", seat=seat, card=card.id, target=command["target"], tool=card.tools[0])
        elif kind == "repair":
            target = command["target"]
            tool = command.get("tool", card.tools[0])
            b.emit("ToolRepaired", seat=seat, card=card.id, target=target, tool=tool,
                   broken_card=state["broken"][target][tool]["card"])
        elif kind == "rockfall":
            cell = state["maze"][f"{command['x']},{command['y']}"]
            b.emit("PathCollapsed", seat=seat, card=card.id, x=command["x"], y=command["y"],
                   removed=cell["card"], shape=cell["shape"])
        elif kind == "map":
            goal = command["goal"]
            b.emit("GoalPeeked", seat=seat, card=card.id, goal=goal, shape=state["goals"][goal]["shape"])
        elif card is not None:
            b.emit("CardDiscarded", seat=seat, card=card.id)
        else:
            b.emit("TurnPassed", seat=seat, auto=False)
        if card is not None and b.state["deck"]:
            b.emit("CardDrawn", seat=seat, card=b.state["deck"][0])  # SAB-TURN-3/4
        rounds.next_turn(b, rng, seat)
        return b.events

    def _take_gold(self, state: SaboteurState, seat: int, command: Command, rng: Drbg) -> list[Event]:
        require(rounds.gold_seat(state) == seat, "not_your_choice", "SAB-GOLD-3", "you are not choosing gold now")
        wanted = sorted(command["values"], reverse=True)
        require(wanted in rounds.gold_options(state), "bad_gold_choice",
                "SAB-AMB-25" if state["bundle"] else "SAB-AMB-18", "that choice of gold is not allowed")
        b = Batch(state, evolve)
        rounds.take_gold(b, seat, wanted)
        rounds.advance_gold(b, rng)
        return b.events

    def rules_legal(self, state: SaboteurState, seat: int) -> list[Command]:
        if rounds.gold_seat(state) == seat:
            return [{"type": "take_gold", "values": v} for v in rounds.gold_options(state)]
        return turns.legal(state, seat)

    def rules_label(self, state: SaboteurState, seat: int, command: Command, public: bool) -> str:
        return labels.label(command, public)

    def rules_turn(self, state: SaboteurState) -> Turn:
        if state["phase"] == "play" and state["turn"] is not None:
            return Turn.to_seats({state["turn"]})
        chooser = rounds.gold_seat(state)
        return Turn.over() if chooser is None else Turn.to_seats({chooser})

    def players(self, state: SaboteurState) -> int:
        return state["players"]

    def content(self) -> dict:
        return components()

    def view(self, state: SaboteurState, seat: int | None) -> dict:
        return secrecy.view(state, seat)

    def rules_scores(self, state: SaboteurState) -> Scoreboard:
        """Nuggets per round. Gold stays secret until the end (SAB-GOLD-10), so a
        live scoreboard shows nothing but ties; the final one ranks (SAB-WIN-3/4)."""
        final = state["phase"] == "over"
        breakdowns = {
            p: {f"round_{r + 1}": (sum(state["gold"][p][r]) if final else 0) for r in range(ROUNDS)}
            for p in range(state["players"])
        }
        return Scoreboard.rank(final, breakdowns)


GAME = Saboteur()
