"""Tournaments: the director's and entrants' commands and the tournament's progress.

A tournament is an event-sourced stream like a game's (``application.tournament_log``:
its own key prefix, loads, appends and the list's indexes); its reads are
``application.tournament_reads`` and who may enter ``application.tournament_entrants``.

A tournament's log records its settings, organizer, clock and committed
seed, every entrant, the start, each round's pairing (``RoundPaired``, with
the ids of the games it seats), each game's result with that game's chain
head (``GameFinished``), the director's results (``ResultDecided``) and corrections
(``ResultCorrected``), the rounds' completion, and at the end the seed
(``SeedRevealed``) and final standings. Everything the pairing rules need is
in the log, so ``delve verify`` re-derives every round
(application/tournament_verify.py).

The decisions are pure (``domain.tournament.decide``); this service looks up
what they need, runs them on the event store's repository (``events.repository``:
the log's state cached and snapshotted like a game's) and appends what they
return. Requests only append what a director or an entrant decided (create,
register, withdraw, start, a table's result: ``ResultDecided`` or
``ResultCorrected``, whose game the service then aborts if it still runs);
every pairing, report and ending is appended by ``advance``, which the
``tournaments`` follower runs when a game of the tournament closes or the log
itself moves, and the ``tstart`` job when ``start_at`` comes
(workers/table.py). Every append is conditional on the log's version, so a
re-read feed entry or two processes at once never pair a round twice.
``RoundPaired`` is appended *before* its games exist, naming
ids derived from (tournament, round, table); every later ``advance`` creates
the games of the current round that do not exist yet and seats their player
entrants, so a crash between the two steps is repaired by the next job and
can neither lose a game nor create one twice.
"""
from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timezone
from typing import Callable, Iterator

from domain import registry
from domain.core import Illegal, require
from domain.tournament import Config
from domain.tournament import decide
from domain.tournament.log import TOURNAMENT, TournamentStatus, config_of
from errors import Forbidden, VersionConflict
from application import clocks, tournament_games
from application import tournament_entrants as entry
from application.names import display_name
from application.service import GameService
from application.tournament_log import TournamentLog
from application.tournament_reads import TournamentReads

REGISTER_RETRIES = 16  # registrations lost to concurrent ones before a 409
MAX_STEPS = 1_000  # appends one advance may make: far above a round's reports, pairing and end
DIRECTOR = decide.ADMIN  # the caller holding the admin token; a player caller is its player id
# start_at times the server schedules: a timer job at year 9999 overflowed every time it was looked at.
START_AT_RANGE = (datetime(2000, 1, 1, tzinfo=timezone.utc), datetime(2100, 12, 31, 23, 59, 59, tzinfo=timezone.utc))


def parse_start_at(value: object) -> str | None:
    """``start_at`` as a UTC ISO 8601 stamp (an offset is required, or a trailing Z); Illegal otherwise."""
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        when = None
    require(when is not None and when.tzinfo is not None, "bad_start_at", "TRN-START-1",
            "start_at is an ISO 8601 time with its UTC offset, e.g. 2026-11-23T18:00:00Z")
    try:  # 9999-12-31T23:59:59-23:59 is a valid stamp whose UTC time no datetime can hold
        utc = when.astimezone(timezone.utc)
    except OverflowError:
        utc = None
    require(utc is not None and START_AT_RANGE[0] <= utc <= START_AT_RANGE[1], "start_at_out_of_range",
            "TRN-START-1", f"start_at is a time the server can schedule, from {START_AT_RANGE[0]:%Y-%m-%d} to "
            f"{START_AT_RANGE[1]:%Y-%m-%d} (UTC)")
    return utc.isoformat(timespec="seconds").replace("+00:00", "Z")


def start_time(t: dict) -> datetime | None:
    """When the tournament's ``start_at`` timer fires (None: no timer)."""
    at = t.get("start_at")
    return datetime.fromisoformat(at.replace("Z", "+00:00")) if at else None


class TournamentService:
    def __init__(self, games: GameService):
        self.games = games
        self.log = TournamentLog(games.store, games.signer)
        self.store = self.log.store
        self.reads = TournamentReads(self.log, games)
        self._seated: set[str] = set()  # games this process saw fully created and seated
        self._closed: set[str] = set()  # games of decided tables this process closed

    # -- director's and entrants' commands ----------------------------------------------

    def create(self, body: dict, caller: str = DIRECTOR) -> dict:
        """Validate and log a new tournament with its first entrants; ``caller`` (the admin,
        or a player id) becomes its organizer. Created with entrants and no ``start_at``
        it starts at once (TRN-START-1): the ``TournamentStarted`` is in the same batch,
        and the follower pairs round 1."""
        game = registry.get(body.get("game"))
        config = Config.parse({k: body[k] for k in ("format", "table_size", "rounds", "points", "bye_points")
                               if k in body}, min_players=game.min_players, max_players=game.max_players)
        options = game.validate_options(dict(body.get("options") or {}), config.table_size)
        clock = clocks.control(body.get("clock"), game)
        start_at = parse_start_at(body.get("start_at"))
        entrants: list[dict] = []
        invited: list[str] = []
        for raw in body.get("entrants") or []:
            if entry.invites(raw, caller):
                invited.append(entry.invitee(self.games.players, raw, entrants, invited, clock))
            else:
                entrants.append(entry.entrant(self.games.players, self.games.ratings, game, raw, entrants, clock))
        entry.check_size(config, len(entrants) + len(invited))
        seed = secrets.token_bytes(32)
        tid = "t" + secrets.token_hex(8)
        organizer = None if caller == DIRECTOR else caller
        events = decide.created(tid, name=display_name(body.get("name") or tid, 80, "a tournament's name"),
                                game=game.id, options=options, config=config, rules_version=game.rules_version,
                                clock=clock, start_at=start_at, organizer=organizer,
                                seed_commitment=hashlib.sha256(seed).hexdigest(), entrants=entrants,
                                invitations=bool(invited))
        state = TOURNAMENT.initial_state()
        for ev in events:
            TOURNAMENT.evolve(state, ev)
        self.log.create(tid, {"status": state["status"], "seed": seed.hex(), "game": game.id,
                              "format": config.format, "name": state["name"], "organizer": organizer or ""},
                        events, state)
        for e in entrants:
            self.log.index_player(tid, e)
        for pid in invited:
            self._invite(tid, state, pid, caller)
        return {**self.get(tid), "invited": invited}

    def register(self, tid: str, raw: dict, caller: str = DIRECTOR) -> dict:
        """Add an entrant while registration is open: a bot (its organizer or the admin), or a
        player by that player itself (others are invited: ``invite``). Entrants registering at
        the same moment each get in: a registration that lost the race for the log's next
        version is decided again on the new log (a 409 only after many lost races in a row)."""
        for _ in range(REGISTER_RETRIES):
            try:
                return self._register(tid, raw, caller)
            except VersionConflict:
                continue
        raise VersionConflict(self.store.version(tid))

    def _register(self, tid: str, raw: dict, caller: str) -> dict:
        was = self.log.load(tid)
        t = was.state
        player = raw.get("player") if isinstance(raw, dict) else None
        if not (player is not None and player == caller):
            self._require_manager(t, caller)
            require(player is None, "consent_required", "TRN-REG-1",
                    "a player enters only by themselves: invite them (POST .../entrants answers 202) instead")
        decide.check_registering(t)
        entry.check_size(config_of(t), len(t["entrants"]) + 1)
        entrant = entry.entrant(self.games.players, self.games.ratings, registry.get(t["game"], t.get("rules_version")),
                                raw, t["entrants"], t.get("clock"))
        self.log.append(was, decide.register(entrant, was.version, caller))
        self.log.index_player(tid, entrant)
        return entrant

    def invite(self, tid: str, player: str, caller: str = DIRECTOR) -> dict:
        """The organizer (or the admin) asks ``player`` to enter: an invitation the player accepts
        (entering themselves) or declines, at /v1/players/me/invitations."""
        t = self.log.load(tid).state
        self._require_manager(t, caller)
        decide.check_registering(t)
        entry.invitee(self.games.players, {"player": player}, t["entrants"], [], t.get("clock"))
        return self._invite(tid, t, player, caller)

    def _invite(self, tid: str, t: dict, player: str, caller: str) -> dict:
        return self.games.invitations.add(player, {
            "id": tid, "kind": "tournament", "tournament": tid, "name": t["name"], "game": t["game"],
            "clock": t.get("clock"), "by": caller, "created_at": clocks.now_iso()})

    def withdraw(self, tid: str, entrant_id: str, caller: str = DIRECTOR, from_round: int | None = None) -> None:
        """An entrant leaves (its player, the organizer or the admin): paired no more from the
        next round, games already paired play on (TRN-WD-1); or from the round being played, its
        game there forfeited and aborted (TRN-WD-2). The follower sees the withdrawal and
        advances the tournament, which may now end a knockout."""
        for _ in range(REGISTER_RETRIES):
            was = self.log.load(tid)
            entrant = decide.find_entrant(was.state, entrant_id)
            if not (entrant.get("player") and entrant["player"] == caller):
                self._require_manager(was.state, caller)
            step = decide.withdraw(was.state, entrant, from_round, by=caller)
            try:
                self.log.append(was, step)
            except VersionConflict:
                continue  # a report or another decision landed: decide again on the new log
            self._close_settled(was.state, step)
            return
        raise VersionConflict(self.store.version(tid))

    def decide_result(self, tid: str, round_no: int, table: int, body: dict, caller: str = DIRECTOR) -> dict:
        """The director's result for a table of the round being played (TRN-DIR-1): logged, then
        the table's game, if it still runs, is aborted; the decided result stands whatever it does."""
        return self._direct(tid, caller, lambda t: decide.decide_result(t, round_no, table, body, caller))

    def correct_result(self, tid: str, round_no: int, table: int, body: dict, caller: str = DIRECTOR) -> dict:
        """The director's correction of a table's recorded result (TRN-DIR-3): logged with the result it
        replaces; later pairings and the standings count it. A game still running at the table (a
        decision's abort lost in a crash) is aborted, as for a decision."""
        return self._direct(tid, caller, lambda t: decide.correct_result(t, round_no, table, body, caller))

    def _direct(self, tid: str, caller: str, decision: Callable[[dict], decide.Step]) -> dict:
        """Log a director's ``decision`` on the latest log (decided again when a report or another
        command landed first: it may now be refused), then close the tables' games it settled."""
        for _ in range(REGISTER_RETRIES):
            was = self.log.load(tid)
            self._require_manager(was.state, caller)
            step = decision(was.state)
            try:
                self.log.append(was, step)
            except VersionConflict:
                continue
            self._close_settled(was.state, step)
            return self.get(tid)
        raise VersionConflict(self.store.version(tid))

    def _close_settled(self, t: dict, step: decide.Step) -> None:
        """Abort the games of the tables a step decided or corrected (``t``: the log after the step)."""
        for ev in step.events:
            if ev["type"] in decide.DIRECTOR_EVENTS:
                d = ev["data"]
                tournament_games.close(self.games, t["rounds"][d["round"] - 1]["tables"][d["table"]])

    def start(self, tid: str, caller: str = DIRECTOR) -> dict:
        """Close registration now (TRN-START-1); the follower pairs round 1."""
        was = self.log.load(tid)
        self._require_manager(was.state, caller)
        self.log.append(was, decide.start(was.state, caller))
        return self.get(tid)

    def start_when_due(self, tid: str, now: datetime | None = None) -> bool:
        """The ``start_at`` timer's job: close registration if it is still open and its
        time has come, then pair round 1. A field too small for the format at that
        time leaves registration open (the organizer may start it later)."""
        was = self.log.load(tid)
        due = start_time(was.state)
        if was.state["status"] != TournamentStatus.REGISTERING or due is None \
                or (now or datetime.now(timezone.utc)) < due:
            return False
        try:
            self.log.append(was, decide.start(was.state, decide.START_AT))
        except Illegal:
            return False
        self.advance(tid)
        return True

    # -- progress (the follower and the start timer) -------------------------------------

    def advance(self, tid: str) -> bool:
        """Create and seat the current round's games, record finished games, complete the
        round, pair the next or finish (``decide.progress``), until nothing is left to do.

        Idempotent and safe to run concurrently: every append is conditional on the
        version it was decided on, and a lost race is decided again on the new log.
        Returns whether anything was appended.
        """
        moved = False
        for _ in range(MAX_STEPS):
            try:
                if not self._step(tid):
                    break
            except VersionConflict:
                continue  # a director's command or another process landed in between: read the log again
            moved = True
        return moved

    def _step(self, tid: str) -> bool:
        was = self.log.load(tid)
        t = was.state
        if t["status"] != TournamentStatus.RUNNING:
            return False  # registering (a start will append TournamentStarted) or finished
        current = t["rounds"][-1] if t["rounds"] else None
        if current is not None:
            for table in current["tables"]:
                if table["game_id"] not in self._seated:
                    tournament_games.ensure(self.games, tid, t, current["round"], table)
                    self._seated.add(table["game_id"])
                if table.get("decision") and table["game_id"] not in self._closed:
                    tournament_games.close(self.games, table)  # after a crash between the decision and the abort
                    self._closed.add(table["game_id"])
        step = decide.progress(t, bytes.fromhex(was.meta["seed"]),
                               lambda round_no, i, table: tournament_games.report(self.games, round_no, i, table))
        if step is None:
            return False
        self.log.append(was, step)
        return True

    # -- reads (application.tournament_reads) ----------------------------------------------

    def get(self, tid: str) -> dict:
        return self.reads.get(tid)

    def state(self, tid: str) -> tuple[dict, int]:
        return self.reads.state(tid)

    def status(self, tid: str) -> str:
        return self.reads.status(tid)

    def list(self, status: str | None = None, game: str | None = None, offset: int = 0, limit: int = 20,
             fmt: str | None = None, player: str | None = None) -> dict:
        return self.reads.list(status, game, offset, limit, fmt, player)

    def events(self, tid: str, after: int = 0, limit: int = 100) -> list[dict]:
        return self.reads.events(tid, after, limit)

    def wait(self, tid: str, after: int, block_ms: int) -> tuple[list[dict], bool]:
        return self.reads.wait(tid, after, block_ms)

    def bundle(self, tid: str) -> Iterator[str]:
        return self.reads.bundle(tid)

    # -- helpers -------------------------------------------------------------------------

    def _require_manager(self, t: dict, caller: str) -> None:
        """The admin, or the player who organizes this tournament."""
        if caller != DIRECTOR and caller != t.get("organizer"):
            raise Forbidden("not_organizer", "only the tournament's organizer (or the admin) may do this")
