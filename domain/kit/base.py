"""``BaseGame``: the protocol methods every kit game shares, written once.

A game subclasses it, declares its data (ids, schemas, bots, ``game_type``,
``evolve = handlers.evolver()``, see ``domain.kit.state``) and writes the rules hooks:

- ``check_options(options, seats) -> options`` checks between options (the
  schema has typed each one already) and fills computed defaults;
- ``setup(options, seats, rng) -> events``;
- ``rules_turn(state) -> Turn``: who acts next under the rules;
- ``rules_decide(state, seat, command, rng) -> events``: the command fits the
  schema already;
- ``rules_legal(state, seat) -> commands``;
- ``rules_scores(state) -> Scoreboard``;
- ``players(state) -> int``: the number of seats (read from the state);
- ``rules_label(state, seat, command, public) -> str``: a short human label of
  one of the game's commands (``label`` below);
- ``decide_actor(state, actor, rng)`` if ``game_type.actors`` take turns, and
  ``rules_actor_label(state, actor, events) -> str | None``: what an actor's step
  did, in words (``actor_label`` below);
- ``rules_what_followed(state, seat, command, events) -> str | None``: what a seat's
  command set going beyond itself, in words (``what_followed`` below), if anything.

The kit adds what is the same for every game: schema checks of options and
commands, the platform's ending (a concession or an abort:
``domain.kit.platform``) over ``turn``/``scores``/``legal_commands``/``decide``,
``active_seats``/``is_terminal`` from ``turn``, and the dict-state snapshot.
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Mapping

from domain.core import (
    BotPolicy, PLATFORM_COMMANDS, Command, Drbg, Event, GameType, Illegal, Scoreboard, Seat, Turn, require,
)
from domain.kit import platform
from domain.kit.schemas import check_command, check_options
from domain.kit.secrecy import Secrecy
from domain.kit.state import State, copy_state


class BaseGame:
    id: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str]
    game_type: ClassVar[GameType]
    options_schema: ClassVar[dict]
    command_schema: ClassVar[dict]
    bots: ClassVar[Mapping[str, BotPolicy]]
    rule_prefix: ClassVar[str]
    """The prefix of the game's rule IDs (``SAB`` for ``SAB-PATH-3``): every rule it cites starts with it."""
    renderer: ClassVar[str | None] = None
    """The web viewer's board renderer: ``server/web/static/<renderer>.js``, which exports
    ``render(element, view, ctx)``; None draws the view as JSON (the generic renderer)."""
    draw: ClassVar[Callable[[dict], list[str]]] = staticmethod(lambda view: [])
    """A text board of a view for ``delve show`` (``domain/<game>/drawing.py``); no lines: the
    view is printed as indented fields."""
    positions: ClassVar[Mapping[str, str]] = {}
    """Named test positions in the text format of ``domain.kit.position`` (the conformance
    suite checks legality both ways at each)."""
    position_verbs: ClassVar[Mapping[str, Callable[..., None]]] = {}
    """The game's own words for the edits its test positions make most (``domain.kit.position``)."""
    content_tables: ClassVar[Mapping[str, Any]] = {}
    """The content tables (``domain.kit.tables.Table``, by name) a test position may replace
    entries of with ``given`` lines: cards, boards, heroes for one test only."""
    unlisted_fields: ClassVar[tuple[str, ...]] = ()
    """Optional command fields ``legal_commands`` does not enumerate (a payment order:
    every order of every source would swamp the list); it lists each command with
    the field left out, and any value the rules accept may be added."""
    players_rule: ClassVar[str | None] = None
    """Rule ID cited when the seat count is outside ``game_type``'s range."""
    over_rule: ClassVar[str | None] = None
    """Rule ID cited when a command comes after the game has ended."""
    evolve: Callable[[State, Event], State]
    secrecy: ClassVar[Secrecy] = Secrecy()
    """What ``redact`` hides of each event type (``domain.kit.secrecy``); none by default."""

    @property
    def min_players(self) -> int:
        return self.game_type.min_players

    @property
    def max_players(self) -> int:
        return self.game_type.max_players

    # -- hooks a game writes ---------------------------------------------------

    def check_options(self, options: dict, seats: int) -> dict:
        return options

    def setup(self, options: dict, seats: list[Seat], rng: Drbg) -> list[Event]:
        raise NotImplementedError

    def rules_turn(self, state: State) -> Turn:
        raise NotImplementedError

    def rules_decide(self, state: State, seat: int, command: Command, rng: Drbg) -> list[Event]:
        raise NotImplementedError

    def rules_legal(self, state: State, seat: int) -> list[Command]:
        raise NotImplementedError

    def rules_scores(self, state: State) -> Scoreboard:
        raise NotImplementedError

    def rules_label(self, state: State, seat: int, command: Command, public: bool) -> str:
        raise NotImplementedError

    def decide_actor(self, state: State, actor: str, rng: Drbg) -> list[Event]:
        raise Illegal("no_actor", None, f"{self.title} has no game-driven actor {actor!r}")

    def rules_actor_label(self, state: State, actor: str, events: list[Event]) -> str | None:
        """Words for what ``actor`` did in one step (``events``, decided on ``state``); None: the
        kit's plain "<actor> plays"."""
        return None

    def rules_what_followed(self, state: State, seat: int, command: Command, events: list[Event]) -> str | None:
        """Words for what the batch of ``seat``'s ``command`` (its ``events``, decided on ``state``)
        did beyond the command itself: an actor's turn the command let go on (Indagar's last
        player picks a monster's target, and the monster moves and attacks in the same batch).
        None: the command's label says it all."""
        return None

    # -- the protocol, given ---------------------------------------------------

    def validate_options(self, options: dict | None, seats: int) -> dict:
        require(self.min_players <= seats <= self.max_players, "bad_player_count", self.players_rule,
                f"{self.title} is for {self.min_players} to {self.max_players} players")
        return self.check_options(check_options(self.options_schema, options), seats)

    def start(self, options: dict, seats: list[Seat], rng: Drbg) -> list[Event]:
        return self.setup(self.validate_options(options, len(seats)), seats, rng)

    def initial_state(self) -> State:
        return {}

    def turn(self, state: State) -> Turn:
        return Turn.over() if platform.ended(state) else self.rules_turn(state)

    def active_seats(self, state: State) -> set[int]:
        return set(self.turn(state).seats)

    def is_terminal(self, state: State) -> bool:
        return self.turn(state).terminal

    def decide(self, state: State, seat: int, command: Command, rng: Drbg) -> list[Event]:
        check_command(self.command_schema, command)
        require(not platform.ended(state), "game_over", self.over_rule, "the game has ended")
        return self.rules_decide(state, seat, command, rng)

    def legal_commands(self, state: State, seat: int) -> list[Command]:
        return [] if platform.ended(state) else self.rules_legal(state, seat)

    def label(self, state: State, seat: int | None, command: Command, *, public: bool = False) -> str:
        """A short human label of ``command`` by ``seat`` in ``state`` (the state it is
        decided in), so every client names moves alike ("Dig D2 at (10,3)-(11,3)").

        ``public=False``: for ``seat`` itself (legal-actions), from what that seat may
        see. ``public=True``: for anyone else (an event list), so it names nothing the
        acting seat alone knows (a card discarded face down). The kit labels the
        platform commands; a game labels its own in ``rules_label``."""
        if command.get("type") in PLATFORM_COMMANDS:
            return platform.label(command)
        return self.rules_label(state, seat, command, public)

    def actor_label(self, state: State, actor: str, events: list[Event], *, public: bool = False) -> str:
        """A short human label of a game-driven actor's step: the command names only the actor, so
        the words come from the step's ``events`` (``public``: as a spectator sees them), decided on
        ``state``."""
        return self.rules_actor_label(state, actor, self._as_shown(events, public)) or f"{actor} plays"

    def what_followed(self, state: State, seat: int | None, command: Command, events: list[Event], *,
                      public: bool = False) -> str | None:
        """What the batch of a seat's ``command`` did beyond the command, in words, from its
        ``events`` (``public``: as a spectator sees them), decided on ``state``; None when
        nothing did (a move list then shows the command's label alone)."""
        if command.get("type") in PLATFORM_COMMANDS:
            return None
        return self.rules_what_followed(state, seat, command, self._as_shown(events, public))

    def _as_shown(self, events: list[Event], public: bool) -> list[Event]:
        """``events`` as a spectator sees them (``public``: redacted, those hidden whole left out), else as they are."""
        return [x for x in (self.redact(e, None) for e in events) if x is not None] if public else list(events)

    def decide_platform(self, state: State, seat: int | None, command: Command, rng: Drbg) -> list[Event]:
        """The kit's default: see ``domain.kit.platform``. Override to give a
        platform command a meaning under this game's rules."""
        require(not self.is_terminal(state), "game_over", self.over_rule, "the game has ended")
        return platform.decide(state, seat, command, self.players(state))

    def players(self, state: State) -> int:
        """Number of seats at the table (for checking a platform command's seat).

        Every current game reads it from its own state (the conformance suite
        checks each overrides this); counting the scoreboard's lines, as here,
        scores the whole game to count chairs and is kept only for the frozen
        rules versions, which are never edited."""
        return len(self.rules_scores(state).seats)

    def teams(self, state: State) -> list[list[int]] | None:
        """The seats that play as one side (``[[0, 3], [1, 2]]``), or None when every seat
        plays for itself. Ratings rate each team as one side; the scoreboard is unchanged."""
        return None

    def scores(self, state: State) -> Scoreboard:
        board = self.rules_scores(state)
        return platform.outcome_board(state, board) if platform.ended(state) else board

    def redact(self, event: Event, seat: int | None) -> Event:
        return self.secrecy.redact(event, seat)

    def dump_state(self, state: State) -> dict:
        return copy_state(state)

    def load_state(self, data: dict) -> State:
        return copy_state(data)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"

