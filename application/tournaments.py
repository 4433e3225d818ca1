"""Tournaments as event-sourced streams: the same store, envelope and hash
chain as games, under their own key prefix (``<prefix>:tourney``) so the game
reactor's feeds never see them (the tournament reactor reads that prefix's
feeds: workers/tournament_reactor.py).

A tournament's log records its settings, organizer, clock and committed
seed, every entrant, the start, each round's pairing (``RoundPaired``, with
the ids of the games it seats), each game's result with that game's chain
head (``GameFinished``), the rounds' completion, and at the end the seed
(``SeedRevealed``) and final standings. Everything the pairing rules need is
in the log, so ``delve verify`` re-derives every round
(application/tournament_verify.py).

Requests only append what a director or an entrant decided (create,
register, withdraw, start); every pairing, report and ending is appended by
``advance``, which runs in rq jobs only: the job table's ``tournament`` kind
when a game of the tournament ends, and the tournament reactor's kinds when
the log itself moves or ``start_at`` comes (workers/table.py). ``advance``
holds a short Redis lock per tournament and every append is conditional on
the log's version, so a redelivered job or two workers at once never pair a
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
from domain.tournament import Config, check_field, is_complete, pair_round, standings
from domain.tournament.log import RULES_VERSION, config_of, fold, game_id_for, pairing_view
from application import attestation, clocks, tournament_games
from application.names import display_name
from application.players import PlayerNotFound
from application.service import Forbidden, GameService
from events.errors import GameNotFound, VersionConflict
import settings

STANDINGS_FIELD = "standings_signature"  # the tournament meta field holding the signed final standings

LOCK_MS = 30_000
REGISTER_RETRIES = 16  # registrations lost to concurrent ones before a 409
MAX_STEPS = 1_000  # appends one advance may make: far above a round's reports, pairing and end
STATUSES = ("registering", "running", "finished")
BOT_RATING = 0.0
DIRECTOR = "admin"  # the caller holding the admin token; a player caller is its player id
# start_at times the server schedules: a timer job at year 9999 overflowed every time it was looked at.
START_AT_RANGE = (datetime(2000, 1, 1, tzinfo=timezone.utc), datetime(2100, 12, 31, 23, 59, 59, tzinfo=timezone.utc))


class TournamentNotFound(Exception):
    pass


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
        self._heads: dict[str, tuple[int, str]] = {}  # tid -> (version, head) as last read
        self._seated: set[str] = set()  # games this process saw fully created and seated

    # -- director's and entrants' commands ----------------------------------------------

    def create(self, body: dict, caller: str = DIRECTOR) -> dict:
        """Validate and log a new tournament with its first entrants; ``caller`` (the admin,
        or a player id) becomes its organizer. Created with entrants and no ``start_at``
        it starts at once (TRN-START-1): the ``TournamentStarted`` is in the same batch,
        and a job pairs round 1."""
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
        # Pending invitations keep registration open: it closes at start_at or when the organizer starts it.
        starts = bool(entrants) and start_at is None and not invited
        if starts:  # otherwise the field is checked at the start (TRN-START-1)
            check_field(config, len(entrants))
        seed = secrets.token_bytes(32)
        tid = "t" + secrets.token_hex(8)
        created = {"type": "TournamentCreated", "data": {
            "tournament": tid, "name": display_name(body.get("name") or tid, 80, "a tournament's name"),
            "game": game.id, "options": options,
            "config": config.to_dict(), "rules_version": game.rules_version, "clock": clock, "start_at": start_at,
            "organizer": None if caller == DIRECTOR else caller, "seed_commitment": hashlib.sha256(seed).hexdigest()}}
        events = [created] + [{"type": "EntrantRegistered", "data": {"entrant": e}} for e in entrants]
        if starts:
            events.append({"type": "TournamentStarted", "data": {"entrants": len(entrants)}})
        status = "running" if starts else "registering"
        self.store.create(tid, {"status": status, "seed": seed.hex(), "game": game.id, "format": config.format,
                                "name": created["data"]["name"],
                                "organizer": created["data"]["organizer"] or ""},
                          events, command_id=f"create:{tid}", rules_version=RULES_VERSION)
        self._index(tid, game.id, status)
        for e in entrants:
            self._index_player(tid, e)
        for pid in invited:
            self._invite(tid, created["data"], pid, caller)
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
        t, version = self._load(tid)
        player = raw.get("player") if isinstance(raw, dict) else None
        if not (player is not None and player == caller):
            self._require_manager(t, caller)
            require(player is None, "consent_required", "TRN-REG-1",
                    "a player enters only by themselves: invite them (POST .../entrants answers 202) instead")
        require(t["status"] == "registering", "registration_closed", "TRN-REG-1",
                "entrants register before the tournament starts")
        self._check_size(config_of(t), len(t["entrants"]) + 1)
        entrant = self._entrant(registry.get(t["game"], t.get("rules_version")), raw, t["entrants"], t.get("clock"))
        self._append(tid, version, [{"type": "EntrantRegistered", "data": {"entrant": entrant}}], f"register:{version}")
        self._index_player(tid, entrant)
        return entrant

    def invite(self, tid: str, player: str, caller: str = DIRECTOR) -> dict:
        """The organizer (or the admin) asks ``player`` to enter: an invitation the player accepts
        (entering themselves) or declines, at /v1/players/me/invitations."""
        t, _version = self._load(tid)
        self._require_manager(t, caller)
        require(t["status"] == "registering", "registration_closed", "TRN-REG-1",
                "entrants register before the tournament starts")
        self._invitee({"player": player}, t["entrants"], [], t.get("clock"))
        return self._invite(tid, t, player, caller)

    def _invite(self, tid: str, t: dict, player: str, caller: str) -> dict:
        return self.games.invitations.add(player, {
            "id": tid, "kind": "tournament", "tournament": tid, "name": t["name"], "game": t["game"],
            "clock": t.get("clock"), "by": caller, "created_at": datetime.now(timezone.utc).isoformat(
                timespec="seconds").replace("+00:00", "Z")})

    def withdraw(self, tid: str, entrant_id: str, caller: str = DIRECTOR) -> None:
        """An entrant leaves (its player, the organizer or the admin): paired no more;
        games already paired play on (TRN-WD-1). The tournament reactor sees the
        withdrawal and runs the job that may now end a knockout."""
        t, version = self._load(tid)
        found = [e for e in t["entrants"] if e["id"] == entrant_id]
        require(bool(found), "no_such_entrant", None, f"tournament {tid} has no entrant {entrant_id!r}")
        if not (found[0].get("player") and found[0]["player"] == caller):
            self._require_manager(t, caller)
        require(t["status"] != "finished", "tournament_finished", None, "the tournament has finished")
        require(not found[0]["withdrawn"], "already_withdrawn", "TRN-WD-1", f"{entrant_id} has withdrawn already")
        self._append(tid, version, [{"type": "EntrantWithdrew", "data": {"entrant": entrant_id}}],
                     f"withdraw:{entrant_id}")

    def start(self, tid: str, caller: str = DIRECTOR) -> dict:
        """Close registration now (TRN-START-1); a job pairs round 1."""
        t, version = self._load(tid)
        self._require_manager(t, caller)
        self._start(tid, t, version)
        return self.get(tid)

    def start_when_due(self, tid: str, now: datetime | None = None) -> bool:
        """The ``start_at`` timer's job: close registration if it is still open and its
        time has come, then pair round 1. A field too small for the format at that
        time leaves registration open (the organizer may start it later)."""
        t, version = self._load(tid)
        due = start_time(t)
        if t["status"] != "registering" or due is None or (now or datetime.now(timezone.utc)) < due:
            return False
        try:
            self._start(tid, t, version)
        except Illegal:
            return False
        self.advance(tid)
        return True

    def _start(self, tid: str, t: dict, version: int) -> None:
        require(t["status"] == "registering", "already_started", "TRN-START-1", f"the tournament is {t['status']}")
        here = [e for e in t["entrants"] if not e["withdrawn"]]
        check_field(config_of(t), len(here))
        self._append(tid, version, [{"type": "TournamentStarted", "data": {"entrants": len(here)}}], f"start:{tid}",
                     meta={"status": "running"})
        self._index(tid, t["game"], "running")

    # -- progress (rq jobs only) -----------------------------------------------------------

    def advance(self, tid: str) -> bool:
        """Create and seat the current round's games, record finished games, complete the
        round, pair the next or finish.

        Idempotent and safe to run concurrently (a lock, then appends
        conditional on the version). Returns whether anything was appended.
        """
        token = secrets.token_hex(8)
        # Wait for a worker advancing it now: it may have looked at our game
        # before it finished, so giving up here could leave a result unreported.
        deadline = time.monotonic() + LOCK_MS / 1000
        while not self.store.locks.take(tid, token, LOCK_MS):
            if time.monotonic() > deadline:
                raise TimeoutError(f"tournament {tid} stayed locked for {LOCK_MS} ms; the job will be retried")
            time.sleep(0.05)
        try:
            moved = False
            for _ in range(MAX_STEPS):
                try:
                    if not self._step(tid):
                        break
                except VersionConflict:
                    continue  # a director's command landed in between: read the log again
                moved = True
            return moved
        finally:
            self.store.locks.release(tid, token)

    def _step(self, tid: str) -> bool:
        t, version = self._load(tid)
        if t["status"] != "running":
            return False  # registering (a start will append TournamentStarted) or finished
        config = config_of(t)
        current = t["rounds"][-1] if t["rounds"] else None
        if current is not None:
            for table in current["tables"]:
                if table["game_id"] not in self._seated:
                    tournament_games.ensure(self.games, tid, t, current["round"], table)
                    self._seated.add(table["game_id"])
            for i, table in enumerate(current["tables"]):
                if table["result"] is None:
                    report = tournament_games.report(self.games, current["round"], i, table)
                    if report is not None:
                        self._append(tid, version, [report], f"report:{table['game_id']}")
                        return True
            if any(table["result"] is None for table in current["tables"]):
                return False  # games still running
            if not current["completed"]:
                self._append(tid, version, [{"type": "RoundCompleted", "data": {
                    "round": current["round"],
                    "standings": standings(config, t["entrants"], pairing_view(t["rounds"]))}}],
                    f"complete:{tid}:{current['round']}")
                return True
        seed = bytes.fromhex(self.store.meta(tid)["seed"])
        if is_complete(config, t["entrants"], pairing_view(t["rounds"])):
            final = standings(config, t["entrants"], pairing_view(t["rounds"]))
            self._append(tid, version, [{"type": "SeedRevealed", "data": {"seed": seed.hex()}},
                                        {"type": "TournamentFinished", "data": {"standings": final}}],
                         f"finish:{tid}", meta={"status": "finished"}, stamp=("finished_at",))
            self._index(tid, t["game"], "finished")
            self.signed_standings(tid)
            return True
        paired = pair_round(config, t["entrants"], pairing_view(t["rounds"]), seed)
        tables = [{"seats": tb["seats"], "game_id": game_id_for(tid, paired["round"], i)}
                  for i, tb in enumerate(paired["tables"])]
        self._append(tid, version, [{"type": "RoundPaired", "data": {
            "round": paired["round"], "tables": tables, "byes": paired["byes"]}}], f"pair:{tid}:{paired['round']}")
        return True  # the next step creates the round's games

    # -- reads ---------------------------------------------------------------------------

    def get(self, tid: str) -> dict:
        t, version = self._load(tid)
        meta = self.store.meta(tid)
        config = config_of(t)
        return {"id": tid, "name": t["name"], "game": t["game"], "format": config.format,
                "table_size": config.table_size, "status": t["status"], "version": version,
                "config": t["config"], "options": t["options"], "clock": t.get("clock"),
                "start_at": t.get("start_at"), "organizer": t.get("organizer"), "entrants": t["entrants"],
                "planned_rounds": config.default_rounds(len(t["entrants"])),
                "rounds": [{"round": r["round"], "completed": r["completed"], "byes": r["byes"],
                            "tables": [{"game_id": tb["game_id"], "seats": tb["seats"], "result": tb["result"]}
                                       for tb in r["tables"]]} for r in t["rounds"]],
                "standings": standings(config, t["entrants"], pairing_view(t["rounds"])),
                "seed_commitment": t["seed_commitment"], "seed": t["seed"], "chain_head": meta["head"],
                "created_at": meta["created_at"], "finished_at": meta.get("finished_at")}

    def state(self, tid: str) -> tuple[dict, int]:
        """The folded log and its version (what the tournament reactor decides on)."""
        return self._load(tid)

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
        return envs, self._require(tid)["status"] == "finished"

    def bundle(self, tid: str) -> Iterator[str]:
        """One NDJSON file: a header line, the tournament log, every game's export (with its
        signatures), then the signed final standings."""
        t, _ = self._load(tid)
        require(t["status"] == "finished", "bundle_before_end", None,
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
        if signer is None or meta.get("status") != "finished":
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
        """A new entrant ``e<n>``: a bot (``{"bot", "level"?, "name"?}``, rating 0), or a player
        (``{"player": id}``, their name, and their rating's ordinal in this game for
        the seeding, 0 when unrated: TRN-RANK-1). Players play only with a clock
        (TRN-CLK-1), and enter once (TRN-REG-1)."""
        index = len(entrants)
        require(isinstance(raw, dict) and (isinstance(raw.get("bot"), str) or isinstance(raw.get("player"), str)),
                "bad_entrant", "TRN-REG-1", 'an entrant is {"player": "<player id>"} or {"bot": "<bot>", "name"?}')
        if raw.get("player") is not None:
            pid = raw["player"]
            try:
                player = self.games.players.get(pid)
            except PlayerNotFound:
                raise Illegal("unknown_player", "TRN-REG-1",
                              f"no player {pid!r}; create one with POST /v1/players") from None
            require(all(e.get("player") != pid for e in entrants), "already_registered", "TRN-REG-1",
                    f"player {pid} is an entrant already")
            require(clock is not None, "clock_required", "TRN-CLK-1",
                    "a tournament with player entrants needs a clock, so no game can wait for a player forever")
            line = self.games.ratings.of(game.id, pid)
            return {"id": f"e{index}", "name": player.name, "bot": None, "player": pid,
                    "rating": round(line["ordinal"], 6) if line else BOT_RATING}
        bot = search.parse_bot(raw["bot"], raw.get("level"))  # {"bot": "search", "level": "hard"}: search-hard
        require(bot in game.bots, "unknown_bot", None, f"no bot {bot!r}; choose one of {sorted(game.bots)}")
        name = display_name(raw.get("name") or f"{bot}-{index + 1}", 60, "an entrant's name", "bad_entrant")
        return {"id": f"e{index}", "name": name, "bot": bot, "player": None, "rating": BOT_RATING}

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

    def _load(self, tid: str) -> tuple[dict, int]:
        """The folded log and its version; the head is kept for the append that may follow."""
        self._require(tid)
        envs = list(self.store.reads.iter_all(tid))
        self._heads[tid] = (len(envs), envs[-1]["hash"])
        return fold({"type": e["type"], "data": e["data"]} for e in envs), len(envs)

    def _append(self, tid: str, version: int, events: list[dict], command_id: str,
                meta: dict | None = None, stamp: tuple[str, ...] = ()) -> None:
        """Append if the log is still at ``version`` (and the head read with it): VersionConflict otherwise."""
        read, head = self._heads[tid]
        if read != version:
            raise VersionConflict(read)
        self.store.append(tid, version, events, expected_head=head, seat=None, command_id=command_id, command=None,
                          rules_version=RULES_VERSION, meta=meta, stamp=stamp)
