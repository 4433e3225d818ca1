"""The application service: the one path every command takes.

HTTP handlers and rq jobs (bot turns, game-driven actor steps, finalisation)
all call this module, so a bot's move is checked, decided and appended exactly
like a human's. Options and commands are validated against the game's JSON
Schemas before the rules see them -- by the game's own ``validate_options`` and
``decide`` (``domain.kit.BaseGame``, ``domain.kit.schemas``: 422 with a stable
code and the rule), so verify and the driver enforce them too. Every batch records what caused it, so ``verify`` can
re-run it: a seat's command (``seat`` n), a game-driven actor's step (``seat``
null, command ``{"type": "actor_step", "actor": ...}``), or a platform command
(``resign``/``timeout``/``forfeit`` with the seat, ``abort`` with ``seat``
null), decided by ``Game.decide_platform``. A game ends ``finished`` or, when
its outcome is ``aborted``, ``aborted``. It owns
seat tokens (stored only as hashes), the game seed (secret until the end) and
the lobby indexes.
"""
from __future__ import annotations

import hmac
import json
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from collections import OrderedDict
from typing import Any, Callable, Iterator

from domain import registry
from domain.core import PLATFORM_COMMANDS, Drbg, Game, Illegal, Seat, State, Turn, fold
from domain.kit import START_STREAM, actor_command, actor_step, bot_choice, command_stream
from application import clocks, lobby, moves, records, seating, seeding
from application.signing import Signer
from application.errors import Forbidden, NoSuchMove, NoSuchVersion, NotActive, NotHeld
from application.feed import PlayerFeed
from application.invitations import Invitations
from events.envelope import PLATFORM_EVENTS
from application.players import Players
from application.ratings import Ratings
from application.status import ENDED, GameStatus
from events.errors import VersionConflict
from events.repository import Repository, Stored
from events.store import RedisEventStore
from application.tokens import hash_token, new_token

ADMIN = -1  # the pseudo-seat of a request bearing the admin token
COMPUTED_KEPT = 2048  # views and legal-command lists kept per process (``GameService._once``)


def ended(meta: dict[str, str]) -> bool:
    """Has the platform closed this game (finished or aborted)?"""
    return meta.get("status") in ENDED


def now_iso() -> str:
    """This process's clock, for what is not stamped by an append (player accounts, a clock job's check)."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class Loaded(Stored):
    """A game as the repository loaded it (``kind`` is its ``Game``)."""

    @property
    def game(self) -> Game:
        return self.kind

    @property
    def seats(self) -> list[Seat]:
        return [Seat.from_dict(s) for s in json.loads(self.meta["seats"])]

    @property
    def finished(self) -> bool:
        """Closed by the platform: ``finished`` or ``aborted``."""
        return ended(self.meta)



class Shared(list):
    """A seat's redacted events handed to every stream of a game that the hub woke with the same news:
    ``rendered`` keeps each wire format's text of them, so thousands of streams serialize them once."""

    def __init__(self, events: list[dict]):
        super().__init__(events)
        self.rendered: dict[str, str] = {}

class GameService:
    def __init__(self, store: RedisEventStore, admin_token: str | None = None, signer: Signer | None = None):
        self.store = store
        self.repo = Repository(store, registry.of, Loaded)
        self.signer = signer  # signs seed commitments and closed records (application.signing); None: unsigned
        self.admin_token_hash = hash_token(admin_token) if admin_token else None
        self.players = Players(store.players)
        self.ratings = Ratings(store.ratings, self.players)
        self.feed = PlayerFeed(store.player_feeds)
        self.invitations = Invitations(store.invitations)
        self._computed: OrderedDict[tuple, Any] = OrderedDict()

    # -- auth ------------------------------------------------------------------

    def authenticate(self, game_id: str, token: str | None, meta: dict[str, str] | None = None) -> int | None:
        """The seat a bearer token belongs to, ADMIN, or None for a spectator.

        Tokens are compared as hashes in constant time; an unknown token is
        Forbidden rather than silently treated as a spectator. ``meta`` saves
        a read when the caller holds the game's meta hash already.
        A player token stands for the seat its player holds; elsewhere it (or
        the game's invite token) is a spectator's. A private game shows
        nothing to a caller with neither.
        """
        meta = meta if meta is not None else self.store.meta(game_id)
        if not token:
            if meta.get("visibility") == "private":
                raise Forbidden("private_game", "this game is private: send a seat, player or invite token")
            return None
        digest = hash_token(token)
        if self.admin_token_hash and hmac.compare_digest(digest, self.admin_token_hash):
            return ADMIN
        found = None
        for key, value in meta.items():
            if key.startswith("token:") and hmac.compare_digest(digest, value):
                found = int(key.split(":", 1)[1])
        if found is not None:
            return found
        if meta.get("invite") and hmac.compare_digest(digest, meta["invite"]):
            return None
        player = self.players.by_token_digest(digest)
        if player is not None:
            seat = seating.seat_of(json.loads(meta["seats"]), player)
            if seat is None and meta.get("visibility") == "private":
                raise Forbidden("private_game", "this game is private and this player holds no seat of it: "
                                "send a seat or invite token")
            return seat
        raise Forbidden("invalid_token", "this token does not belong to any seat of this game")

    # -- create ----------------------------------------------------------------

    def create(self, game_id: str, seats: list[dict], options: dict, tags: dict[str, str] | None = None, *,
               creator: str | None = None, visibility: str = "public", clock: dict | None = None,
               derived_id: str | None = None, rules_version: str | None = None) -> dict:
        """Create a game: validate, seed, deal, append. Returns the create response.

        ``tags`` are extra meta fields (a tournament game names its tournament
        there, so the job table can tell it apart). Seats may be left open or
        reserved for a player (``application.seating``); such a game waits in status
        ``open`` with nothing dealt until the last seat is taken
        (``application.joining``). ``creator`` (a player id) may cancel it; a
        ``private`` game hands out an invite token for spectators; ``clock`` is
        a time control (``application.clocks``). ``derived_id`` is given only by a caller
        that derives it (a tournament's table), to create it at most once: a
        taken id raises GameExists and writes nothing. ``rules_version`` (default: the
        current one) is given by a tournament, whose tables keep the version it started with.
        """
        game = registry.get(game_id, rules_version)
        if not game.min_players <= len(seats) <= game.max_players:
            raise Illegal("bad_player_count", None,
                          f"{game.title} takes {game.min_players}-{game.max_players} seats, not {len(seats)}")
        seats = [seating.named_bot(i, s) for i, s in enumerate(seats)]
        for i, s in enumerate(seats):
            if s.get("bot") is not None and s["bot"] not in game.bots:
                raise Illegal("unknown_bot", None,
                              f"seat {i}: no bot {s['bot']!r}; choose one of {sorted(game.bots)}")
        roster = seating.roster(seats, self.players.exists)
        opts = game.validate_options(options, len(seats))
        ctl = clocks.control(clock, game)
        table = [Seat.from_dict(s) for s in roster]
        seed = secrets.token_bytes(32)
        gid = derived_id or "g" + secrets.token_hex(8)
        created = {"type": "GameCreated", "data": {
            "game": game.id, "options": opts, "seats": roster,
            "rules_version": game.rules_version, "seed_commitment": seeding.commitment(seed),
            **({"clock": ctl} if ctl else {})}}
        waiting = seating.waiting(roster)
        start = [] if waiting else game.start(opts, table, Drbg(seed, START_STREAM))
        state = None if waiting else fold(game, start)
        tokens = {s.index: new_token() for s in table if s.bot is None and not roster[s.index].get("open")}
        invite = new_token() if visibility == "private" else None
        meta = {"game": game.id, "status": GameStatus.OPEN if waiting else "active",
                ("server_seed" if waiting else "seed"): seed.hex(), "seats": json.dumps(roster),
                "rules_version": game.rules_version, "visibility": visibility, "creator": creator or "",
                **({"invite": hash_token(invite)} if invite else {}),
                **({"clock_control": json.dumps(ctl)} if ctl and waiting else {}),
                **({} if waiting else clocks.at_start(ctl, len(table), game.active_seats(state), 1 + len(start))),
                **records.commitment_meta(self.signer, gid, created["data"]),
                **(tags or {}), **{f"token:{i}": hash_token(t) for i, t in tokens.items()}}
        envs = self.repo.create(gid, game, meta, [created, *start], command_id=f"create:{gid}", state=state)
        self.project_lobby(gid)
        for s in roster:
            if s.get("reserved"):  # taken only if that player accepts (application/invitations.py)
                self.invitations.add(s["reserved"], {"id": gid, "kind": "seat", "game_id": gid, "game": game.id,
                                                     "seat": s["seat"], "by": creator, "created_at": now_iso()})
                self.feed.publish(s["reserved"], "seat_reserved", {"game_id": gid, "game": game.id, "seat": s["seat"]})
        out = {"id": gid, "game": game.id, "version": len(envs), "status": meta["status"],
               "visibility": visibility, "seats": [{**s, "token": tokens.get(s["seat"])} for s in roster]}
        if invite:
            out["invite_token"] = invite
        return out

    # -- commands ---------------------------------------------------------------

    def load(self, game_id: str, upto: int | None = None, meta: dict[str, str] | None = None) -> Loaded:
        """The game with its meta; now (``upto`` None) in one Redis round trip when this process has it cached."""
        return self.repo.load(game_id, upto, meta)

    def submit(self, game_id: str, seat: int, expected_version: int, command: Any, command_id: str) -> dict:
        """Decide and append one command for ``seat``.

        The version check comes first, so a stale client learns that before
        anything about its command. Nothing is written unless decide accepts.
        """
        return self.submit_loaded(self.load(game_id), game_id, seat, expected_version, command, command_id)

    def submit_loaded(self, g: Loaded, game_id: str, seat: int, expected_version: int, command: Any,
                      command_id: str, idem: tuple[str, dict] | None = None) -> dict:
        """``submit`` for a caller that has loaded the game already (a bot turn, the HTTP route).

        ``idem`` = (key, record): an idempotency record, completed here with
        the batch it answers and stored by the append itself (KeyAlreadyUsed
        if the key already names another batch).
        """
        if expected_version != g.version:
            raise VersionConflict(g.version)
        if g.finished:
            raise NotActive(game_id)
        self._dealt(g)
        self._in_time(g, game_id)
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise Illegal("malformed_command", None, "a command is a JSON object with a string 'type'")
        if seat not in range(len(g.seats)):
            raise Forbidden("not_a_seat", "only a seat of this game may act in it")
        evs = g.game.decide(g.state, seat, command, self._rng(g))
        return self._append(g, game_id, evs, seat, command, command_id, idem)

    @staticmethod
    def _dealt(g: Loaded) -> None:
        """Refuse a command for a game still waiting for players (nothing is dealt to act on)."""
        if not g.meta.get("seed"):
            raise Illegal("game_not_started", None, "the game waits for players: it takes commands once every seat "
                          "is taken (see GET /v1/games/{id} for the open seats)")

    def _in_time(self, g: Loaded, game_id: str) -> None:
        """A command stamped after the game's clock fell (Redis's clock, read with the game) comes too
        late: the timeout is applied first, as if on time, and the command is stale (409)."""
        due = clocks.deadline_ms(g.meta) if g.meta.get("clock") else None
        now = self.store.stamp_ms(game_id, g.version) if due is not None else 0
        if due is not None and now >= due:
            clocks.expire(self, game_id, g.version, clocks.iso(now))
            raise VersionConflict(self.store.version(game_id))

    def _rng(self, g: Loaded) -> Drbg:
        """The DRBG of whatever is decided at the game's current version (``domain.kit.driver``)."""
        return Drbg(bytes.fromhex(g.meta["seed"]), command_stream(g.version))

    def _append(self, g: Loaded, game_id: str, evs: list[dict], seat: int | None, command: dict,
                command_id: str, idem: tuple[str, dict] | None = None) -> dict:
        """Append one decided batch with what caused it; fold, cache and snapshot the new state."""
        if not evs:
            # A version must always name a change; a command that changes nothing is refused.
            raise Illegal("no_effect", None, "this command would change nothing")
        state = fold(g.game, evs, g.state)
        terminal = g.game.is_terminal(state)
        if idem is not None:
            idem = (idem[0], {**idem[1], "from_seq": g.version + 1, "version": g.version + len(evs),
                              "terminal": terminal})
        envs, _ = self.repo.append(g, evs, state=state, seat=seat, command_id=command_id, command=command, idem=idem,
                                   meta=self.clock_after(g, game_id, seat, state, g.version + len(evs)))
        return {"version": envs[-1]["seq"], "events": self._redacted(g.game, envs, seat, finished=False),
                "terminal": terminal}

    def clock_after(self, g: Loaded, game_id: str, mover: int | None, state: State, version: int) -> dict[str, str]:
        """The clock record to write with a batch (``application.clocks``); nothing for a game without one."""
        meta = g.meta if int(g.meta.get("version", -1)) == g.version else self.store.meta(game_id)
        active = set() if g.game.is_terminal(state) else g.game.active_seats(state)
        return clocks.after_batch(meta, mover, active, version)

    def replay_action(self, game_id: str, seat: int, record: dict) -> dict:
        """The 201 answer of a committed command, rebuilt from its idempotency record and the log."""
        game = registry.of(self.store.meta(game_id))
        envs = self.store.read(game_id, after=record["from_seq"] - 1, upto=record["version"])
        return {"version": record["version"], "events": self._redacted(game, envs, seat, finished=False),
                "terminal": record["terminal"]}

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
        for _ in range(10):
            g = self.load(game_id)
            if expected_version is not None and expected_version != g.version:
                raise VersionConflict(g.version)
            if g.finished:
                raise NotActive(game_id)
            self._dealt(g)
            evs = g.game.decide_platform(g.state, seat, command, self._rng(g))
            try:
                result = self._append(g, game_id, evs, seat, command, f"{kind}:{game_id}:{g.version}")
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
            g = self.load(game_id)
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
            self.project_lobby(game_id)
            return True

    def bot_turn(self, game_id: str, version: int) -> dict | None:
        """Play one bot command if the game is still at ``version`` and a bot is to act."""
        g = self.load(game_id)
        if g.version != version or g.meta["status"] != GameStatus.ACTIVE or g.game.is_terminal(g.state):
            return None
        bots = [s for s in g.seats if s.bot and s.index in g.game.active_seats(g.state)]
        if not bots:
            return None
        seat = min(bots, key=lambda s: s.index)
        command = bot_choice(g.game, g.state, seat.index, g.game.bots[seat.bot], bytes.fromhex(g.meta["seed"]),
                             version, clocks.time_left(g.meta, seat.index))
        try:
            return self.submit_loaded(g, game_id, seat.index, version, command,
                                      command_id=f"bot:{game_id}:{version}")
        except VersionConflict:
            return None  # someone else moved first; the reactor will schedule the next turn

    def actor_turn(self, game_id: str, version: int) -> dict | None:
        """Append the game-driven actor's step if the game is still at ``version`` and an actor is to move.

        The batch has no seat and records ``{"type": "actor_step", "actor": name}``;
        ``verify`` re-runs ``decide_actor`` on the same DRBG stream.
        """
        g = self.load(game_id)
        if g.version != version or g.meta["status"] != GameStatus.ACTIVE:
            return None
        actor = g.game.turn(g.state).actor
        if actor is None:
            return None
        evs = actor_step(g.game, g.state, actor, bytes.fromhex(g.meta["seed"]), version)
        try:
            return self._append(g, game_id, evs, None, actor_command(actor), f"actor:{game_id}:{version}")
        except VersionConflict:
            return None

    # -- reads -----------------------------------------------------------------

    def summary(self, game_id: str, seat: int | None, g: Loaded | None = None) -> dict:
        g = g or self.load(game_id)
        dealt = bool(g.meta.get("seed"))  # a game waiting for players (or cancelled so) shows its seats only
        turn = g.game.turn(g.state) if dealt and not g.finished else Turn.over()
        closed = g.finished and dealt
        outcome = g.game.scores(g.state).result().to_dict() if closed else {
            "kind": "aborted" if g.finished else "pending", "winners": []}
        return {"id": game_id, "game": g.game.id, "status": g.meta["status"], "version": g.version,
                "active_seats": sorted(turn.seats), "turn": turn.to_dict(), "outcome": outcome,
                "seats": json.loads(g.meta["seats"]), "view": self._view(g, seat) if dealt else {},
                "visibility": g.meta.get("visibility", "public"),
                **clocks.summary(g.meta, int(time.time() * 1000)),
                "created_at": g.meta["created_at"], "finished_at": g.meta.get("finished_at")}

    def legal(self, game_id: str, seat: int | None, g: Loaded | None = None) -> dict:
        g = g or self.load(game_id)
        playing = g.meta["status"] == GameStatus.ACTIVE
        cmds, labels = self._once(("legal", g.version, g.head, seat), lambda: self._labelled(g, seat)) \
            if playing and seat is not None and seat != ADMIN else ([], [])
        return {"version": g.version, "seat": None if seat == ADMIN else seat, "commands": cmds, "labels": labels}

    @staticmethod
    def _labelled(g: Loaded, seat: int) -> tuple[list[dict], list[str]]:
        """The seat's legal commands and the game's label of each, from the seat's viewpoint."""
        cmds = g.game.legal_commands(g.state, seat)
        return cmds, [g.game.label(g.state, seat, c) for c in cmds]

    def events(self, game_id: str, seat: int | None, after: int = 0, limit: int = 100) -> dict:
        g_meta = self.store.meta(game_id)
        game = registry.of(g_meta)
        envs = self.store.read(game_id, after=after, limit=limit)
        return {"version": int(g_meta["version"]),
                "events": self._redacted(game, envs, seat, finished=ended(g_meta))}

    def follow_events(self, game_id: str, seat: int | None, after: int, block_ms: int, until: float,
                      meta: dict[str, str]) -> Iterator[list[dict] | None]:
        """The caller's redacted events after ``after`` as they come: a list per wait of up to
        ``block_ms`` ([] when nothing came: a keep-alive), then None once the game has finished and
        all was sent. Stops quietly at ``until`` (monotonic).

        ``meta`` is the game's as the caller read it before; it is read again only when events
        come (an end is an event), so an idle follower costs no Redis round trip per wait. Events
        the hub read once for every stream of the game come as one :class:`Shared` list per seat.
        """
        finished = ended(meta)
        with self.store.reads.follow(game_id) as follower:
            while time.monotonic() < until:
                envs, news = follower.wait(after, block_ms)
                if not envs:
                    if finished:
                        yield None
                        return
                    yield []
                    continue
                meta = news.meta if news is not None and news.meta else self.store.meta(game_id)
                finished = ended(meta)
                if news is None:
                    yield self._redacted(registry.of(meta), envs, seat, finished)
                else:  # the same news reached every stream of the game: each seat's view is made once
                    key = ("redacted", seat, after, finished)
                    if key not in news.memo:
                        news.memo[key] = Shared(self._redacted(registry.of(meta), envs, seat, finished))
                    yield news.memo[key]
                after = envs[-1]["seq"]

    def state_at(self, game_id: str, seat: int | None, version: int, meta: dict[str, str] | None = None,
                 move: dict | None = None) -> dict:
        """The position at ``version``; ``move`` (a line of ``moves``), when the caller asked for one by
        number, is named in the answer (a plain version costs no read of the whole log)."""
        meta = meta if meta is not None else self.store.meta(game_id)
        current, finished = int(meta["version"]), ended(meta)
        if not 1 <= version <= current:
            raise NoSuchVersion(current)
        first = int(meta.get("started_version", 1)) if meta.get("seed") else current + 1
        if version < first:
            raise Illegal("not_dealt_yet", None, "nothing was dealt at this version: the game waited for players "
                          f"until version {first}" if first <= current else "the game was never dealt")

        def replay() -> dict:
            at = self.load(game_id, upto=version, meta=meta)
            here, *after = self.store.states.replayed(game_id, after=version - 1, limit=2)
            if after and after[0]["command_id"] == here["command_id"]:
                # One command's events land together: the game never rested between them.
                held = [b[-1]["seq"] for b in moves.batches(self.store.reads.iter_all(game_id))]
                raise NotHeld(version, *moves.nearest_held(held, version))
            out = {"version": version, "view": self._view(at, seat), "move": move["move"] if move else None,
                   "label": move["label"] if move else None}
            if finished or seat == ADMIN:
                out["state"] = at.game.dump_state(at.state)
            return out

        # The chain head names every event up to now, so (head, version, seat, closed?) names the answer:
        # a viewer scrubbing back and forth through a replay costs one round trip per step it saw before.
        return self._once(("state_at", game_id, meta.get("head"), finished, version, seat, bool(move)), replay)

    def moves(self, game_id: str, seat: int | None, meta: dict[str, str] | None = None) -> dict:
        """Every move so far, numbered from 1 (``application.moves``), as ``seat`` may see them: before
        the end another seat's command is withheld and its label names only what everyone may see."""
        meta = meta if meta is not None else self.store.meta(game_id)
        reveal = ended(meta) or seat == ADMIN
        game = registry.of(meta)

        def listed() -> list[dict]:
            envs = list(self.store.reads.iter_all(game_id))
            out = []
            for m in moves.moves(game, envs, public=not reveal, viewer=None if reveal else seat):
                line = m.to_dict()
                if not (reveal or m.seat is None or m.seat == seat or m.command.get("type") in PLATFORM_COMMANDS):
                    line["command"] = None
                out.append(line)
            return out

        return {"game_id": game_id, "version": int(meta["version"]),
                "moves": self._once(("moves", game_id, meta.get("head"), reveal, seat), listed)}

    def move(self, game_id: str, seat: int | None, n: int, meta: dict[str, str] | None = None) -> dict:
        """Move ``n`` as ``seat`` may see it; its ``last_seq`` is the version after it."""
        listed = self.moves(game_id, seat, meta)["moves"]
        if not 1 <= n <= len(listed):
            raise NoSuchMove(game_id, f"moves run from 1 to {len(listed)}" if listed else "no move has been played yet")
        return listed[n - 1]

    def scores(self, game_id: str) -> dict:
        g = self.load(game_id)
        if not g.meta.get("seed"):
            raise Illegal("game_not_started", None, "the game waits for players: nothing is scored before the start")
        board = g.game.scores(g.state).to_dict()
        board["final"] = g.finished
        return board

    def audit(self, game_id: str, seat: int | None = None) -> dict:
        """The audit record ``seat`` (None: a spectator) may read.

        The chain head is a hash over every secret dealt so far; published
        while the game runs, anyone could try each candidate card of a batch
        against it (issue 12: every bot batch cracked). So it is withheld from
        everyone but the admin until the end, like the events' own hashes.
        """
        meta = self.store.meta(game_id)
        created = self.store.read(game_id, after=0, limit=1)[0]
        finished = ended(meta)
        return {"seed_commitment": created["data"]["seed_commitment"],
                "chain_head": meta["head"] if finished or seat == ADMIN else None,
                "signatures": records.signatures(self.store, self.signer, game_id, meta, finished),
                "events": int(meta["version"]), "rules_version": meta["rules_version"], "status": meta["status"],
                **seeding.audit_parts(meta, json.loads(meta["seats"]), created["data"], finished)}

    def export(self, game_id: str, admin: bool):
        meta = self.store.meta(game_id)
        if not ended(meta) and not admin:
            raise Forbidden("export_before_end", "an export is public once the game has finished; "
                            "before that only the admin token may read it")
        return records.export(self.store, self.signer, game_id, meta, closed=ended(meta))

    def compact(self, game_id: str) -> bool:
        """Fold a closed game's log into one compressed archive (``events.compaction``);
        export, replay, verify, states, events and streams read it from there. Idempotent."""
        if not ended(self.store.meta(game_id)):
            return False
        return self.store.compaction.compact(game_id)

    # -- lobby -------------------------------------------------------------------

    def project_lobby(self, game_id: str) -> None:
        """Index a game in the lobby (idempotent; the reactor calls it too)."""
        lobby.project(self.store, game_id)

    def list_games(self, game: str | None, status: str | None, offset: int, limit: int,
                   after: str | None = None) -> dict:
        return lobby.page(self.store, game, status, offset, limit, after)

    # -- redaction ---------------------------------------------------------------

    def _view(self, g: Loaded, seat: int | None) -> dict:
        if seat == ADMIN:
            return {"admin": True, "state": g.game.dump_state(g.state)}
        return self._once(("view", g.version, g.head, seat), lambda: g.game.view(g.state, seat))

    def _once(self, key: tuple, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per key: views and legal commands of a version (named by its head
        hash, which names every event before it) never change. LRU-bounded; callers must not
        mutate what it returns (they serialize it)."""
        hit = self._computed.get(key)
        if hit is None:
            hit = self._computed[key] = compute()
            while len(self._computed) > COMPUTED_KEPT:
                self._computed.popitem(last=False)
        else:
            self._computed.move_to_end(key)
        return hit

    def _redacted(self, game: Game, envs: list[dict], seat: int | None, finished: bool) -> list[dict]:
        """What ``seat`` may see of these envelopes.

        After the end (or for the admin) everything is public. Before it, the
        hashes are withheld too: a hash over a low-entropy secret (one card of
        forty) could be brute-forced, so it would leak what redaction hides.
        """
        if finished or seat == ADMIN:
            return envs
        out = []
        for env in envs:
            if env["type"] in PLATFORM_EVENTS:
                ev = {"type": env["type"], "data": env["data"]}
            else:
                ev = game.redact({"type": env["type"], "data": env["data"]}, seat)
            if ev is None:
                continue
            out.append({"seq": env["seq"], "type": ev["type"], "data": ev["data"], "seat": env["seat"],
                        "command_id": env["command_id"] if env["seat"] == seat else None,
                        "command": env["command"] if env["seat"] == seat and seat is not None else None,
                        "at": env["at"]})
        return out
