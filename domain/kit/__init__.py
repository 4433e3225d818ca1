"""The game kit: what every game shares, written once (issue 6).

Usage -- a game in a few pieces::

    from domain.core import GameType, Scoreboard, Turn
    from domain.kit import BaseGame, Batch, Handlers, command, command_schema, random_bot, rule

    handlers = Handlers()                                    # one handler per event type

    @handlers.on("Rolled")
    def _rolled(state, data): state["total"] += data["value"]

    class Dice(BaseGame):
        id, title, rules_version = "dice", "Dice", "dice-1"
        game_type = GameType(1, 4, actors=("house",))
        options_schema = {"type": "object", "additionalProperties": False,
                          "properties": {"rounds": {"type": "integer", "minimum": 1, "default": 3}}}
        command_schema = command_schema("Dice command", [
            command("roll", "Roll the die (DICE-2)."),
            command("stop", "Stop (DICE-3).", {"at": rule({"type": "integer"}, "bad_stop", "DICE-3")})])
        bots = {"random": random_bot}
        secrecy = Secrecy(Secret("Dealt", ("card",), seen_by=("seat",)))  # redact: others see no card
        evolve = staticmethod(handlers.evolver())            # unknown event types raise UnknownEvent

        def setup(self, options, seats, rng): ...            # options are schema-checked, defaults filled
        def rules_turn(self, state): return Turn.to_seats({state["current"]})  # or Turn.to_actor("house"), Turn.over()
        def rules_decide(self, state, seat, command, rng):   # command already fits command_schema
            b = Batch(state, self.evolve)                    # each emit folds onto a private copy
            b.emit("Rolled", seat=seat, value=1 + rng.randbelow(6))
            return b.events
        def rules_legal(self, state, seat): ...
        def rules_scores(self, state): return Scoreboard.rank(final, {0: {...}, "actor:house": {...}})
        def rules_label(self, state, seat, command, public):  # "Stop at 5"; public: nothing only seat knows
            return "Roll" if command["type"] == "roll" else f"Stop at {command['at']}"
        def decide_actor(self, state, actor, rng): ...       # the house's step (platform appends it)
        def rules_actor_label(self, state, actor, events):   # its step in words, from its events
            return f"Roll {events[0]['data']['value']}"

    GAME = Dice()

State: a plain JSON-ready dict (``copy_state``; ``dump_state``/``load_state``
are copies); ``state["platform"]`` is the kit's. ``BaseGame`` gives
``validate_options``, ``start``, ``decide`` (schema first), ``legal_commands``,
``turn``, ``active_seats``, ``is_terminal``, ``scores``, ``label`` (the
platform commands' labels; ``wording`` formats places and resource mixes alike),
``actor_label`` (an actor's step, from its events as a spectator sees them; "<actor> plays"
unless the game words it), ``what_followed`` (what a seat's command set going in its batch, from
``rules_what_followed``; None unless the game words it), ``decide_platform``
(resign/timeout/forfeit: the seat places last and the game ends; abort: outcome
``aborted`` -- see ``domain.kit.platform``; override to change) and the state copy.

Play a whole game with the server's DRBG streams::

    from domain.kit import play, table
    g = play(GAME, table(GAME, 3, "random"), {}, seed=b"any seed")
    g.terminal, g.scores().to_dict(), g.steps   # steps: (version, seat, command, events)

Every game's ``bots`` add the search bot's levels (``search-easy``, ``search-normal``,
``search-hard``: ``domain.kit.search``), built from the game's sampler module::

    SEARCH = SearchSpec(observe=observe, rollout=heuristic, evaluate=evaluate, depth=8,
                        playouts={"easy": 15, "normal": 60, "hard": 250}, playout_ms=15.0)
    bots = {**BOTS, **search.bots(SEARCH)}

A content table a test position may replace entries of (``given`` lines; ``domain.kit.tables``)::

    TABLES = {"cards": Table("my-game", "cards", load_cards, read=lambda cid, entry: Card(**entry))}
    content_tables = TABLES       # on the game class

Continue a staged position (a test fixture) the same way::

    from domain.kit import Played, run
    g = run(Played(GAME, seats, {}, b"seed", state=staged, version=40), policies={0: my_policy})
"""
from domain.kit.base import BaseGame
from domain.kit.driver import (
    ACTOR_STEP, START_STREAM, Played, Step, actor_command, actor_step, bot_choice, bot_stream, command_stream,
    play, random_bot, run, table,
)
from domain.kit.platform import CONCEDE
from domain.kit.search import Observation, SearchBot, SearchSpec, squash
from domain.kit.schemas import branches, check_command, check_options, command, command_schema, option_defaults, rule
from domain.kit.secrecy import Secrecy, Secret, sizes
from domain.kit.state import Batch, Handlers, State, UnknownEvent, copier, copy_state, evolver
from domain.kit.tables import Table, replaced
from domain.kit import wording

__all__ = [
    "ACTOR_STEP", "CONCEDE", "START_STREAM", "BaseGame", "Batch", "Handlers", "Observation", "Played", "SearchBot",
    "SearchSpec", "Secrecy", "Secret", "State", "Step", "Table", "UnknownEvent",
    "actor_command", "actor_step", "bot_choice", "bot_stream", "branches", "check_command", "check_options",
    "command", "command_schema", "command_stream", "copier", "copy_state", "evolver", "option_defaults", "play",
    "random_bot", "replaced", "rule", "run", "sizes", "squash", "table", "wording",
]
