"""One bot-game driver, drawing from the very DRBG streams the server uses.

The server (``application.service``) and ``verify`` (``application.replay``) name their
streams with the functions below, so a game played here -- in a benchmark, a
test, ``delve play`` -- is the game the server would play with the same seed
and bots: its batches, sealed into envelopes, verify as an export.

Streams (all keyed by the game's secret seed):

- ``start``: ``Game.start``;
- ``v<version>``: the ``decide`` (or ``decide_actor`` / ``decide_platform``) of a
  command decided at ``version``. Versions count envelopes: ``GameCreated`` is
  seq 1, so after the start events the version is ``1 + len(start events)``;
- ``bot:v<version>:s<seat>``: a bot's own choice for ``seat`` at ``version``
  (the bot gets a private copy of the state, as on the server).

When several bot seats may act, the lowest seat moves first (as the
server's bot job does). A game-driven actor's step is recorded with no seat and
the command ``{"type": "actor_step", "actor": name}``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from domain.core import BotPolicy, Command, Drbg, Event, Game, Illegal, Seat, State, fold
from domain.kit.search import with_clock

START_STREAM = "start"
ACTOR_STEP = "actor_step"


def command_stream(version: int) -> str:
    """The DRBG stream of a command decided at ``version``."""
    return f"v{version}"


def bot_stream(version: int, seat: int) -> str:
    """The DRBG stream of a bot's own choice for ``seat`` at ``version``."""
    return f"bot:v{version}:s{seat}"


def actor_command(actor: str) -> Command:
    """The command recorded in the envelope of a game-driven actor's step."""
    return {"type": ACTOR_STEP, "actor": actor}


def random_bot(game: Any, state: State, seat: int, rng: Drbg) -> Command:
    """Uniform over ``legal_commands``: the one random policy every game offers as ``random``."""
    return rng.choice(game.legal_commands(state, seat))


def bot_choice(game: Game, state: State, seat: int, policy: BotPolicy, seed: bytes, version: int,
               time_left_ms: int | None = None) -> Command:
    """A bot's command, chosen on a private copy of the state (whatever the
    policy does while thinking, the state the command is decided on stays the
    one the log produced). ``time_left_ms``: the seat's clock at the last batch's
    stamp (it follows from the log), which caps a thinking bot's budget
    (``search.with_clock``)."""
    private = game.load_state(game.dump_state(state))
    return with_clock(policy, time_left_ms)(game, private, seat, Drbg(seed, bot_stream(version, seat)))


def actor_step(game: Game, state: State, actor: str, seed: bytes, version: int) -> list[Event]:
    """A game-driven actor's events at ``version``."""
    return game.decide_actor(state, actor, Drbg(seed, command_stream(version)))


@dataclass
class Step:
    """One appended batch: who (None = the game or the platform), what, and the events."""

    version: int  # the version the command was decided at
    seat: int | None
    command: Command | None
    events: list[Event]


@dataclass
class Played:
    game: Game
    seats: list[Seat]
    options: dict
    seed: bytes
    steps: list[Step] = field(default_factory=list)  # steps[0] = the start (command None)
    state: State = None
    version: int = 1  # the version the next step is decided at

    @property
    def terminal(self) -> bool:
        return self.game.is_terminal(self.state)

    def scores(self):
        return self.game.scores(self.state)


def table(game: Game, players: int, bot: str = "random") -> list[Seat]:
    """``players`` seats all played by ``bot``."""
    if bot not in game.bots:
        raise Illegal("unknown_bot", None, f"no bot {bot!r}; choose one of {sorted(game.bots)}")
    return [Seat(i, f"{bot}-{i}", bot) for i in range(players)]


def play(game: Game, seats: list[Seat], options: dict | None, seed: bytes, *, max_steps: int = 100_000,
         policies: Mapping[int, BotPolicy] | None = None,
         on_step: Callable[[Played], None] | None = None) -> Played:
    """Start a game and play it to its end (or ``max_steps`` batches) with the seats' bots.

    ``policies`` overrides a seat's bot (a policy under test); ``on_step`` is
    called after every batch. Raises Illegal if a bot's command is refused --
    a bot that breaks the rules is a bug.
    """
    opts = game.validate_options(options, len(seats))
    start = game.start(opts, seats, Drbg(seed, START_STREAM))
    g = Played(game, seats, opts, seed, [Step(1, None, None, start)], fold(game, start), 1 + len(start))
    return run(g, max_steps=max_steps, policies=policies, on_step=on_step)


def run(g: Played, *, max_steps: int = 100_000, policies: Mapping[int, BotPolicy] | None = None,
        on_step: Callable[[Played], None] | None = None) -> Played:
    """Continue ``g`` -- a game from ``play``, or a staged position
    (``Played(game, seats, options, seed, state=..., version=...)``) -- until it
    ends or ``max_steps`` more batches were appended. Same streams as ``play``."""
    game, seed = g.game, g.seed
    policies = dict(policies or {})
    for _ in range(max_steps):
        turn = game.turn(g.state)
        if turn.terminal:
            break
        if turn.actor is not None:
            seat, command = None, actor_command(turn.actor)
            events = actor_step(game, g.state, turn.actor, seed, g.version)
        else:
            seat = min(turn.seats)
            policy = policies.get(seat) or _bot(game, g.seats[seat])
            command = bot_choice(game, g.state, seat, policy, seed, g.version)
            events = game.decide(g.state, seat, command, Drbg(seed, command_stream(g.version)))
        if not events:
            raise Illegal("no_effect", None, f"the step at version {g.version} changed nothing")
        g.steps.append(Step(g.version, seat, command, events))
        g.state = fold(game, events, g.state)
        g.version += len(events)
        if on_step:
            on_step(g)
    return g


def _bot(game: Game, seat: Seat) -> BotPolicy:
    if seat.bot is None or seat.bot not in game.bots:
        raise Illegal("no_bot", None, f"seat {seat.index} has no bot of {game.title}; give it one or a policy")
    return game.bots[seat.bot]
