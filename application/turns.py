"""What the platform decides itself: bot turns, game-driven actors' steps, platform commands
(``resign``/``timeout``/``forfeit`` with the seat, ``abort`` with seat null, decided by
``Game.decide_platform``) and closing a game that is over (``finished``, or ``aborted`` when its
outcome is). rq jobs and HTTP handlers call these, and each goes through ``application.commands``,
so a bot's move is checked, decided and appended exactly like a human's."""
from __future__ import annotations

from domain.core import PLATFORM_COMMANDS, Illegal
from domain.kit import actor_command, actor_step, bot_choice
from errors import NotActive, VersionConflict
from application import clocks, lobby, records, seeding
from application.commands import Commands
from application.status import GameStatus

RETRIES = 10  # platform commands without an expected version: decide again this often on a moved game


class Turns:
    def __init__(self, commands: Commands):
        self.commands = commands
        self.store, self.repo, self.signer = commands.store, commands.repo, commands.signer

    def platform(self, game_id: str, seat: int | None, kind: str, expected_version: int | None = None) -> dict:
        """A platform command: ``resign``/``timeout``/``forfeit`` of ``seat``, or ``abort`` (seat None).

        ``Game.decide_platform`` says what it means; the batch records the
        command (``{"type": kind}``) and the seat, so ``verify`` re-runs it. A
        command that ends the game closes it at once (``finalize``). Without an
        ``expected_version`` it applies to whatever version the game is at.
        """
        if kind not in PLATFORM_COMMANDS:
            raise Illegal("unknown_command", None, f"{kind!r} is not one of {sorted(PLATFORM_COMMANDS)}")
        command = {"type": kind}
        for _ in range(RETRIES):
            g = self.commands.load(game_id)
            if expected_version is not None and expected_version != g.version:
                raise VersionConflict(g.version)
            if g.finished:
                raise NotActive(game_id)
            self.commands.dealt(g)
            evs = g.game.decide_platform(g.state, seat, command, self.commands.rng(g))
            try:
                result = self.commands.append(g, game_id, evs, seat, command, f"{kind}:{game_id}:{g.version}")
            except VersionConflict:
                if expected_version is not None:
                    raise
                continue  # a move landed in between: decide again on the new state
            if result["terminal"]:
                self.finalize(game_id)
            return result
        raise VersionConflict(self.store.version(game_id))

    def finalize(self, game_id: str) -> bool:
        """Append SeedRevealed and GameFinished once the game is over (by its rules or a
        platform command); the status becomes ``aborted`` for an aborted outcome, else ``finished``.

        Idempotent: a game not yet terminal, or already closed, is left alone.
        """
        while True:
            g = self.commands.load(game_id)
            if g.meta["status"] != GameStatus.ACTIVE or not g.game.is_terminal(g.state):
                return False
            board = g.game.scores(g.state)
            evs = [{"type": "SeedRevealed", "data": seeding.revealed(g.meta)},
                   {"type": "GameFinished", "data": {"scores": board.to_dict()}}]
            status = GameStatus.ABORTED if board.result().kind == "aborted" else GameStatus.FINISHED
            try:
                self.repo.append(g, evs, command_id=f"finalize:{game_id}", meta={"status": status},
                                 stamp=("finished_at",))
            except VersionConflict:
                continue
            records.sign_record(self.store, self.signer, game_id, {**g.meta, "status": status})
            lobby.project(self.store, game_id)
            return True

    def bot_turn(self, game_id: str, version: int) -> dict | None:
        """Play one bot command if the game is still at ``version`` and a bot is to act."""
        g = self.commands.load(game_id)
        if g.version != version or g.meta["status"] != GameStatus.ACTIVE or g.game.is_terminal(g.state):
            return None
        bots = [s for s in g.seats if s.bot and s.index in g.game.active_seats(g.state)]
        if not bots:
            return None
        seat = min(bots, key=lambda s: s.index)
        command = bot_choice(g.game, g.state, seat.index, g.game.bots[seat.bot], bytes.fromhex(g.meta["seed"]),
                             version, clocks.time_left(g.meta, seat.index))
        try:
            return self.commands.submit_loaded(g, game_id, seat.index, version, command,
                                               command_id=f"bot:{game_id}:{version}")
        except VersionConflict:
            return None  # someone else moved first; the reactor will schedule the next turn

    def actor_turn(self, game_id: str, version: int) -> dict | None:
        """Append the game-driven actor's step if the game is still at ``version`` and an actor is to move.

        The batch has no seat and records ``{"type": "actor_step", "actor": name}``;
        ``verify`` re-runs ``decide_actor`` on the same DRBG stream.
        """
        g = self.commands.load(game_id)
        if g.version != version or g.meta["status"] != GameStatus.ACTIVE:
            return None
        actor = g.game.turn(g.state).actor
        if actor is None:
            return None
        evs = actor_step(g.game, g.state, actor, bytes.fromhex(g.meta["seed"]), version)
        try:
            return self.commands.append(g, game_id, evs, None, actor_command(actor), f"actor:{game_id}:{version}")
        except VersionConflict:
            return None
