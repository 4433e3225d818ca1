"""Tournaments as event-sourced streams: the same store, envelope and hash
chain as games, under their own key prefix (``<prefix>:tourney``) so the game
reactor's feeds never see them (the tournament reactor reads that prefix's
feeds: workers/tournament_reactor.py).

A tournament's log records its settings, organizer, clock and committed
seed, every entrant, the start, each round's pairing (``RoundPaired``, with
the ids of the games it seats), each game's result with that game's chain
head (``GameFinished``), the director's results (``ResultDecided``), the rounds' completion, and at the end the seed
(``SeedRevealed``) and final standings. Everything the pairing rules need is
in the log, so ``delve verify`` re-derives every round
(application/tournament_verify.py).

The decisions are pure (``domain.tournament.decide``); this service looks up
what they need, runs them on the event store's repository (``events.repository``:
the log's state cached and snapshotted like a game's) and appends what they
return. Requests only append what a director or an entrant decided (create,
register, withdraw, start, a table's result: ``ResultDecided``, whose game the
service then aborts); every pairing, report and ending is appended by
``advance``, which the ``tournaments`` follower runs when a game of the
tournament closes or the log itself moves, and the ``tstart`` job when
``start_at`` comes (workers/table.py). Every append is conditional on the
log's version, so a re-read feed entry or two processes at once never pair a
round twice. ``RoundPaired`` is appended *before* its games exist, naming
ids derived from (tournament, round, table); every later ``advance`` creates
the games of the current round that do not exist yet and seats their player
entrants, so a crash between the two steps is repaired by the next job and
can neither lose a game nor create one twice.
"""
from __future__ import annotations

import hashlib
import json
import secrets
import time
from datetime import datetime, timezone
from typing import Iterator

from domain import registry
from domain.core import Illegal, canonical_json, require
from domain.kit import search
from domain.tournament import Config, standings
from domain.tournament import decide
from domain.tournament.log import TOURNAMENT, TournamentStatus, config_of, fold, pairing_view
from errors import Forbidden, GameNotFound, PlayerNotFound, TournamentNotFound, VersionConflict
from application import attestation, clocks, tournament_games
from application.names import display_name
from application.service import GameService
from events.repository import Repository, Stored
import settings

STANDINGS_FIELD = "standings_signature"  # the tournament meta field holding the signed final standings

REGISTER_RETRIES = 16  # registrations lost to concurrent ones before a 409
MAX_STEPS = 1_000  # appends one advance may make: far above a round's reports, pairing and end
STATUSES = tuple(TournamentStatus)
DIRECTOR = "admin"  # the caller holding the admin token; a player caller is its player id
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
        base = games.store
        self.store = base.sibling(f"{base.prefix}:tourney")
        self.repo = Repository(self.store, lambda _meta: TOURNAMENT)
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
            if self._invites(raw, caller):
                invited.append(self._invitee(raw, entrants, invited, clock))
            else:
                entrants.append(self._entrant(game, raw, entrants, clock))
        self._check_size(config, len(entrants) + len(invited))
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
        self.repo.create(tid, TOURNAMENT, {"status": state["status"], "seed": seed.hex(), "game": game.id,
                                           "format": config.format, "name": state["name"],
                                           "organizer": organizer or ""},
                         events, command_id=f"create:{tid}", state=state)
        self._index(tid, game.id, state["status"])
        for e in entrants:
            self._index_player(tid, e)
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
        was = self._load(tid)
        t = was.state
        player = raw.get("player") if isinstance(raw, dict) else None
        if not (player is not None and player == caller):
            self._require_manager(t, caller)
            require(player is None, "consent_required", "TRN-REG-1",
                    "a player enters only by themselves: invite them (POST .../entrants answers 202) instead")
        decide.check_registering(t)
        self._check_size(config_of(t), len(t["entrants"]) + 1)
        entrant = self._entrant(registry.get(t["game"], t.get("rules_version")), raw, t["entrants"], t.get("clock"))
        self._append(was, decide.register(entrant, was.version))
        self._index_player(tid, entrant)
        return entrant

    def invite(self, tid: str, player: str, caller: str = DIRECTOR) -> dict:
        """The organizer (or the admin) asks ``player`` to enter: an invitation the player accepts
        (entering themselves) or declines, at /v1/players/me/invitations."""
        t = self._load(tid).state
        self._require_manager(t, caller)
        decide.check_registering(t)
        self._invitee({"player": player}, t["entrants"], [], t.get("clock"))
        return self._invite(tid, t, player, caller)

    def _invite(self, tid: str, t: dict, player: str, caller: str) -> dict:
        return self.games.invitations.add(player, {
            "id": tid, "kind": "tournament", "tournament": tid, "name": t["name"], "game": t["game"],
            "clock": t.get("clock"), "by": caller, "created_at": datetime.now(timezone.utc).isoformat(
                timespec="seconds").replace("+00:00", "Z")})

    def withdraw(self, tid: str, entrant_id: str, caller: str = DIRECTOR, from_round: int | None = None) -> None:
        """An entrant leaves (its player, the organizer or the admin): paired no more from the
        next round, games already paired play on (TRN-WD-1); or from the round being played, its
        game there forfeited and aborted (TRN-WD-2). The follower sees the withdrawal and
        advances the tournament, which may now end a knockout."""
        for _ in range(REGISTER_RETRIES):
            was = self._load(tid)
            entrant = decide.find_entrant(was.state, entrant_id)
            if not (entrant.get("player") and entrant["player"] == caller):
                self._require_manager(was.state, caller)
            step = decide.withdraw(was.state, entrant, from_round, by=caller)
            try:
                self._append(was, step)
            except VersionConflict:
                continue  # a report or another decision landed: decide again on the new log
            self._close_decided(was.state, step)
            return
        raise VersionConflict(self.store.version(tid))

    def decide_result(self, tid: str, round_no: int, table: int, body: dict, caller: str = DIRECTOR) -> dict:
        """The director's result for a table of the round being played (TRN-DIR-1): logged, then
        the table's game, if it still runs, is aborted; the decided result stands whatever it does."""
        for _ in range(REGISTER_RETRIES):
            was = self._load(tid)
            self._require_manager(was.state, caller)
            step = decide.decide_result(was.state, round_no, table, body, caller)
            try:
                self._append(was, step)
            except VersionConflict:
                continue  # a game's report landed first: decide again (it may now be refused)
            self._close_decided(was.state, step)
            return self.get(tid)
        raise VersionConflict(self.store.version(tid))

    def _close_decided(self, t: dict, step: decide.Step) -> None:
        """Abort the games of the tables a step decided (``t``: the log after the step)."""
        for ev in step.events:
            if ev["type"] == "ResultDecided":
                d = ev["data"]
                tournament_games.close(self.games, t["rounds"][d["round"] - 1]["tables"][d["table"]])

    def start(self, tid: str, caller: str = DIRECTOR) -> dict:
        """Close registration now (TRN-START-1); the follower pairs round 1."""
        was = self._load(tid)
        self._require_manager(was.state, caller)
        self._append(was, decide.start(was.state))
        return self.get(tid)

    def start_when_due(self, tid: str, now: datetime | None = None) -> bool:
        """The ``start_at`` timer's job: close registration if it is still open and its
        time has come, then pair round 1. A field too small for the format at that
        time leaves registration open (the organizer may start it later)."""
        was = self._load(tid)
        due = start_time(was.state)
        if was.state["status"] != TournamentStatus.REGISTERING or due is None \
                or (now or datetime.now(timezone.utc)) < due:
            return False
        try:
            self._append(was, decide.start(was.state))
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
        was = self._load(tid)
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
        self._append(was, step)
        return True

    # -- reads ---------------------------------------------------------------------------

    def get(self, tid: str) -> dict:
        was = self._load(tid)
        t, meta = was.state, was.meta
        config = config_of(t)
        return {"id": tid, "name": t["name"], "game": t["game"], "format": config.format,
                "table_size": config.table_size, "status": t["status"], "version": was.version,
                "config": t["config"], "options": t["options"], "clock": t.get("clock"),
                "start_at": t.get("start_at"), "organizer": t.get("organizer"), "entrants": t["entrants"],
                "planned_rounds": config.default_rounds(len(t["entrants"])),
                "rounds": [{"round": r["round"], "completed": r["completed"], "byes": r["byes"],
                            "tables": [{"game_id": tb["game_id"], "seats": tb["seats"], "result": tb["result"],
                                        "decision": tb.get("decision")}
                                       for tb in r["tables"]]} for r in t["rounds"]],
                "standings": standings(config, t["entrants"], pairing_view(t["rounds"])),
                "seed_commitment": t["seed_commitment"], "seed": t["seed"], "chain_head": meta["head"],
                "created_at": meta["created_at"], "finished_at": meta.get("finished_at")}

    def state(self, tid: str) -> tuple[dict, int]:
        """The folded log and its version (what the start timer is scheduled from)."""
        was = self._load(tid)
        return was.state, was.version
    def status(self, tid: str) -> str:
        """The status alone, from the meta hash (cheap: no fold)."""
        return self._require(tid)["status"]

    def list(self, status: str | None = None, game: str | None = None, offset: int = 0, limit: int = 20,
             fmt: str | None = None, player: str | None = None) -> dict:
        """Newest first. Read from the narrowest index that applies (a player's, a status's,
        a game's, else all), then filtered on the others by each tournament's meta."""
        index = (f"player:{player}" if player else f"status:{status}" if status else f"game:{game}" if game
                 else "all")
        _total, ids = self.store.indexes.page(index)
        wanted = {"status": status, "game": game, "format": fmt}
        rows = [{"id": tid, "name": m.get("name") or tid, "game": m["game"], "format": m.get("format"),
                 "status": m["status"], "organizer": m.get("organizer") or None, "created_at": m["created_at"]}
                for tid, m in zip(ids, self.store.reads.metas(ids))
                if m and all(v is None or m.get(k) == v for k, v in wanted.items())]
        return {"total": len(rows), "tournaments": rows[offset:offset + limit]}

    def events(self, tid: str, after: int = 0, limit: int = 100) -> list[dict]:
        """The log's envelopes: public from the start (the seed enters it only at the end)."""
        self._require(tid)
        return self.store.read(tid, after=after, limit=limit)

    def wait(self, tid: str, after: int, block_ms: int) -> tuple[list[dict], bool]:
        """The log's envelopes after ``after``, blocking up to ``block_ms`` for the first
        (the SSE stream), and whether the tournament has finished."""
        self._require(tid)
        envs = self.store.reads.wait(tid, after, block_ms)
        # Read after the wait: "finished" is reported only once every event before it was sent.
        return envs, self._require(tid)["status"] == TournamentStatus.FINISHED

    def bundle(self, tid: str) -> Iterator[str]:
        """One NDJSON file: a header line, the tournament log, every game's export (with its
        signatures), then the signed final standings."""
        t = self._load(tid).state
        require(t["status"] == TournamentStatus.FINISHED, "bundle_before_end", None,
                "the bundle is published once the tournament has finished (its seed is revealed then)")
        game_ids = [tb["game_id"] for r in t["rounds"] for tb in r["tables"]]
        signed = self.signed_standings(tid)
        yield canonical_json({"bundle": "delve-tournament", "tournament": tid, "games": game_ids}) + "\n"
        yield from self.store.export(tid)
        for gid in game_ids:
            yield from self.games.export(gid, admin=False)
        if signed:
            yield canonical_json(attestation.signature_line(signed)) + "\n"

    def signed_standings(self, tid: str) -> dict | None:
        """The finished tournament's standings signed with its log's head and every game's head
        (stored in its meta; None without a key or before the end)."""
        meta = self.store.meta(tid)
        if meta.get(STANDINGS_FIELD):
            return json.loads(meta[STANDINGS_FIELD])
        signer = self.games.signer
        if signer is None or meta.get("status") != TournamentStatus.FINISHED:
            return None
        log = list(self.store.reads.iter_all(tid))
        t = fold({"type": e["type"], "data": e["data"]} for e in log)
        heads = {tb["game_id"]: tb["chain_head"] for r in t["rounds"] for tb in r["tables"]}
        final = next(e for e in reversed(log) if e["type"] == "TournamentFinished")["data"]["standings"]
        signed = signer.sign(attestation.standings_statement(tid, t["game"], len(log), log[-1]["hash"], heads, final))
        self.store.reads.mark(tid, STANDINGS_FIELD, json.dumps(signed))
        return signed

    # -- helpers -------------------------------------------------------------------------

    def _entrant(self, game, raw: dict, entrants: list[dict], clock: dict | None) -> dict:
        """A new entrant (``decide``): a bot (``{"bot", "level"?, "name"?}``), or a player (``{"player": id}``)
        with their name and their rating's ordinal in this game for the seeding (TRN-RANK-1)."""
        decide.check_entrant(raw)
        if raw.get("player") is None:
            entrant = decide.bot_entrant(entrants, search.parse_bot(raw["bot"], raw.get("level")), game.bots)
            return {**entrant, "name": display_name(raw.get("name") or entrant["name"], 60, "an entrant's name",
                                                    "bad_entrant")}
        pid = raw["player"]
        try:
            player = self.games.players.get(pid)
        except PlayerNotFound:
            raise Illegal("unknown_player", "TRN-REG-1", f"no player {pid!r}; create one with POST /v1/players") from None
        line = self.games.ratings.of(game.id, pid)
        return decide.player_entrant(entrants, pid, player.name, line["ordinal"] if line else None, clock)

    @staticmethod
    def _invites(raw: object, caller: str) -> bool:
        """A player entrant named by someone else: they are invited, not entered."""
        return isinstance(raw, dict) and isinstance(raw.get("player"), str) and raw["player"] != caller

    def _invitee(self, raw: dict, entrants: list[dict], invited: list[str], clock: dict | None) -> str:
        """The id of a player who may be invited: one that exists, is not in yet, to a clocked tournament."""
        pid = raw["player"]
        if not self.games.players.exists(pid):
            raise Illegal("unknown_player", "TRN-REG-1", f"no player {pid!r}; create one with POST /v1/players")
        require(pid not in invited and all(e.get("player") != pid for e in entrants), "already_registered",
                "TRN-REG-1", f"player {pid} is an entrant (or invited) already")
        require(clock is not None, "clock_required", "TRN-CLK-1",
                "a tournament with player entrants needs a clock, so no game can wait for a player forever")
        return pid

    @staticmethod
    def _check_size(config: Config, entrants: int) -> None:
        """The quotas that bound a tournament's work: entrants, and the games its format plans for them."""
        cap = settings.get("DELVE_TOURNAMENT_MAX_ENTRANTS")
        require(entrants <= cap, "too_many_entrants", None,
                f"a tournament holds at most {cap} entrants (DELVE_TOURNAMENT_MAX_ENTRANTS)")
        games, most = config.planned_games(entrants), settings.get("DELVE_TOURNAMENT_MAX_GAMES")
        require(games <= most, "too_many_games", None,
                f"{config.format} with {entrants} entrants at tables of {config.table_size} plans {games} games; "
                f"a tournament may plan at most {most} (DELVE_TOURNAMENT_MAX_GAMES): fewer entrants, fewer rounds "
                "or larger tables")

    def _require_manager(self, t: dict, caller: str) -> None:
        """The admin, or the player who organizes this tournament."""
        if caller != DIRECTOR and caller != t.get("organizer"):
            raise Forbidden("not_organizer", "only the tournament's organizer (or the admin) may do this")

    def _index(self, tid: str, game: str, status: str) -> None:
        """The tournament list's indexes (the lobby's kind, under the tournament prefix)."""
        others = [f"status:{s}" for s in STATUSES if s != status]
        self.store.indexes.put(tid, time.time(), ["all", f"game:{game}", f"status:{status}"], others)

    def _index_player(self, tid: str, entrant: dict) -> None:
        if entrant.get("player"):
            self.store.indexes.put(tid, time.time(), [f"player:{entrant['player']}"], [])

    def _require(self, tid: str) -> dict[str, str]:
        """The tournament's meta hash; TournamentNotFound when there is none."""
        try:
            return self.store.meta(tid)
        except GameNotFound:
            raise TournamentNotFound(tid) from None

    def _load(self, tid: str) -> Stored:
        """The log's meta hash, folded state, version and head (TournamentNotFound when there is none)."""
        try:
            return self.repo.load(tid)
        except GameNotFound:
            raise TournamentNotFound(tid) from None

    def _append(self, was: Stored, step: decide.Step) -> None:
        """Append a decided batch if the log is still where it was read (VersionConflict otherwise);
        a status it changes is recorded in the meta and the list's indexes with it."""
        before = was.state["status"]
        state = was.state
        for ev in step.events:
            TOURNAMENT.evolve(state, ev)
        status = state["status"]
        meta = {"status": status} if status != before else None
        closes = status == TournamentStatus.FINISHED and before != TournamentStatus.FINISHED
        stamp = ("finished_at",) if closes else ()
        self.repo.append(was, step.events, command_id=step.command_id, state=state, meta=meta, stamp=stamp)
        if meta:
            self._index(was.id, state["game"], status)
        if closes:
            self.signed_standings(was.id)
