"""Saboteur as a Delve game (shared/rules/saboteur.md). ``GAME`` is the registered object.

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

The command shapes are also a JSON Schema, ``commands_schema.COMMAND_SCHEMA``.

Options: see ``OPTIONS_SCHEMA``; every default is the spec's "Proposed" resolution.
"""
from __future__ import annotations

from domain.core import Command, Drbg, Event, Scoreboard, Seat, require
from domain.saboteur import bots as _bots
from domain.saboteur import rounds, secrecy, turns
from domain.saboteur.commands_schema import COMMAND_SCHEMA
from domain.saboteur.content import ROUNDS, components
from domain.saboteur.evolve import evolve
from domain.saboteur.state import SaboteurState

OPTIONS_SCHEMA: dict = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "first_player": {
            "type": ["integer", "null"], "minimum": 0, "maximum": 9, "default": None,
            "description": "Seat that starts round 1; null = chosen at random (SAB-AMB-22).",
        },
        "require_connection_to_start": {
            "type": "boolean", "default": False,
            "description": "Every path card must join a tunnel connected to the start (SAB-AMB-3).",
        },
        "gold_cards_for_miners": {
            "enum": ["players", "miners"], "default": "players",
            "description": "Gold cards drawn when the miners win: one per player (max 9) or per miner (SAB-AMB-16).",
        },
        "gold_choice": {
            "enum": ["players", "auto"], "default": "players",
            "description": "Who picks gold cards: the players (SAB-AMB-18/25) or the engine's default rule.",
        },
        "auto_pass_empty_hand": {
            "type": "boolean", "default": True,
            "description": "Players with an empty hand pass by themselves (SAB-AMB-14); off = they send {type: pass}.",
        },
    },
}
_DEFAULTS = {k: v["default"] for k, v in OPTIONS_SCHEMA["properties"].items()}


class Saboteur:
    id = "saboteur"
    title = "Saboteur"
    min_players = 3
    max_players = 10
    rules_version = "saboteur-1"
    options_schema = OPTIONS_SCHEMA
    command_schema = COMMAND_SCHEMA
    bots = _bots.BOTS

    def validate_options(self, options: dict | None, seats: int) -> dict:
        options = dict(options or {})
        require(self.min_players <= seats <= self.max_players, "bad_player_count", "SAB-ROLE-1",
                "Saboteur is for 3 to 10 players")
        for name in options:
            require(name in _DEFAULTS, "unknown_option", None, f"unknown option {name!r}")
        out = {**_DEFAULTS, **options}
        first = out["first_player"]
        require(first is None or (isinstance(first, int) and not isinstance(first, bool) and 0 <= first < seats),
                "bad_option", "SAB-AMB-22", "first_player must be a seat index or null")
        for name in ("require_connection_to_start", "auto_pass_empty_hand"):
            require(isinstance(out[name], bool), "bad_option", None, f"{name} must be true or false")
        require(out["gold_cards_for_miners"] in ("players", "miners"), "bad_option", "SAB-AMB-16",
                "gold_cards_for_miners must be 'players' or 'miners'")
        require(out["gold_choice"] in ("players", "auto"), "bad_option", "SAB-AMB-18",
                "gold_choice must be 'players' or 'auto'")
        return out

    def start(self, options: dict, seats: list[Seat], rng: Drbg) -> list[Event]:
        opts = self.validate_options(options, len(seats))
        b = rounds.Batch(self.initial_state())
        b.emit("GameSetUp", players=len(seats), options=opts)
        first = opts["first_player"]
        rounds.start_round(b, rng, 1, rng.randbelow(len(seats)) if first is None else first)
        return b.events

    def initial_state(self) -> SaboteurState:
        return SaboteurState()

    def evolve(self, state: SaboteurState, event: Event) -> SaboteurState:
        return evolve(state, event)

    def decide(self, state: SaboteurState, seat: int, command: Command, rng: Drbg) -> list[Event]:
        require(isinstance(command, dict), "bad_command", None, "a command is a JSON object")
        kind = command.get("type")
        require(state.phase != "over", "game_over", "SAB-WIN-1", "the game is over")
        if kind == "take_gold":
            return self._take_gold(state, seat, command, rng)
        require(kind in turns.TURN_COMMANDS, "unknown_command", None, f"unknown command type {kind!r}")
        card = turns.check(state, seat, command)
        b = rounds.Batch(state)
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
                   broken_card=state.broken[target][tool]["card"])
        elif kind == "rockfall":
            cell = state.maze[f"{command['x']},{command['y']}"]
            b.emit("PathCollapsed", seat=seat, card=card.id, x=command["x"], y=command["y"],
                   removed=cell["card"], shape=cell["shape"])
        elif kind == "map":
            goal = command["goal"]
            b.emit("GoalPeeked", seat=seat, card=card.id, goal=goal, shape=state.goals[goal]["shape"])
        elif card is not None:
            b.emit("CardDiscarded", seat=seat, card=card.id)
        else:
            b.emit("TurnPassed", seat=seat, auto=False)
        if card is not None and b.state.deck:
            b.emit("CardDrawn", seat=seat, card=b.state.deck[0])  # SAB-TURN-3/4
        rounds.next_turn(b, rng, seat)
        return b.events

    def _take_gold(self, state: SaboteurState, seat: int, command: Command, rng: Drbg) -> list[Event]:
        require(rounds.gold_seat(state) == seat, "not_your_choice", "SAB-GOLD-3", "you are not choosing gold now")
        values = command.get("values")
        require(isinstance(values, list) and all(isinstance(v, int) for v in values), "bad_command", None,
                "'values' must be a list of nugget values")
        wanted = sorted(values, reverse=True)
        require(wanted in rounds.gold_options(state), "bad_gold_choice",
                "SAB-AMB-25" if state.bundle else "SAB-AMB-18", "that choice of gold is not allowed")
        b = rounds.Batch(state)
        rounds.take_gold(b, seat, wanted)
        rounds.advance_gold(b, rng)
        return b.events

    def legal_commands(self, state: SaboteurState, seat: int) -> list[Command]:
        if rounds.gold_seat(state) == seat:
            return [{"type": "take_gold", "values": v} for v in rounds.gold_options(state)]
        return turns.legal(state, seat)

    def active_seats(self, state: SaboteurState) -> set[int]:
        if state.phase == "play" and state.turn is not None:
            return {state.turn}
        chooser = rounds.gold_seat(state)
        return set() if chooser is None else {chooser}

    def is_terminal(self, state: SaboteurState) -> bool:
        return state.phase == "over"

    def content(self) -> dict:
        return components()

    def view(self, state: SaboteurState, seat: int | None) -> dict:
        return secrecy.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event | None:
        return secrecy.redact(event, seat)

    def scores(self, state: SaboteurState) -> Scoreboard:
        """Nuggets per round. Gold stays secret until the end (SAB-GOLD-10), so a
        live scoreboard shows nothing but ties; the final one ranks (SAB-WIN-3/4)."""
        final = self.is_terminal(state)
        breakdowns = {
            p: {f"round_{r + 1}": (sum(state.gold[p][r]) if final else 0) for r in range(ROUNDS)}
            for p in range(state.players)
        }
        return Scoreboard.rank(final, breakdowns)

    def dump_state(self, state: SaboteurState) -> dict:
        return state.to_dict()

    def load_state(self, data: dict) -> SaboteurState:
        return SaboteurState.from_dict(data)


GAME = Saboteur()
