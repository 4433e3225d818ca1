"""The job table: every kind of follow-up job, and every follower, declared once.

A :class:`JobKind` says when a game needs the job (``due``, asked with the
game as the reactor loaded it after a feed entry or a sweep), the job's
deterministic id, and what the job does (``run``, through the application
service). The reactor asks the table which kinds are due, the rq scheduler
enqueues ``workers.jobs.run(kind, game_id, version)`` under the kind's id,
and the in-process driver runs ``kind.run`` directly: adding a kind is one
entry here. Work that follows the logs entry by entry, at its own tracked
position (the lobby projection, ratings, players' notifications, tournament
progress), is a :class:`Follower` in ``FOLLOWERS``; the reactor process runs
them beside the reactor.

Job ids are ``<kind>-<game>-<version>`` for a job tied to one version (a bot
turn: a later version needs a new job) and ``<kind>-<game>`` for a job a game
needs once (finalize). DESIGN.md spells them ``bot:<game>:<version>``; rq
accepts only ``[A-Za-z0-9_-]`` in a job id, so the separator is a dash. A
redelivered feed entry or a second reactor computes the same id, and the
scheduler keeps at most one live job per id.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable

from domain.tournament.log import TournamentStatus
from errors import GameNotFound, NotDue
from application import clocks, feed, lobby, ratings
from application.loaded import Loaded
from application.service import GameService
from events.store import RedisEventStore
from events.tracking import Transaction
from application.tournaments import TournamentService, start_time
from workers.follower import FeedEntry, Follower


@dataclass(frozen=True)
class JobKind:
    name: str
    due: Callable[[Loaded], bool]
    run: Callable[[GameService, str, int], Any]
    per_version: bool = True
    when: Callable[[Loaded], datetime | None] | None = None  # run at this time (a timer), not at once

    def job_id(self, game_id: str, version: int) -> str:
        return f"{self.name}-{game_id}-{version}" if self.per_version else f"{self.name}-{game_id}"


def _over(g: Loaded) -> bool:
    return g.finished or g.game.is_terminal(g.state)


def _bot_due(g: Loaded) -> bool:
    """A seat played by a bot is to act."""
    return not _over(g) and any(s.bot and s.index in g.game.active_seats(g.state) for s in g.seats)


def _moved(result: dict | None) -> dict | None:
    """What a turn job reports (rq keeps it as the job's result): the version reached, or None."""
    return None if result is None else {"version": result["version"], "terminal": result["terminal"]}


def _bot_run(service: GameService, game_id: str, version: int) -> dict | None:
    """Play the bot to act at ``version``; None if the game has moved on (the job re-checks it)."""
    return _moved(service.bot_turn(game_id, version))


def _actor_due(g: Loaded) -> bool:
    """A game-driven actor (an automaton, a monster, the house) is to move."""
    return not _over(g) and g.game.turn(g.state).actor is not None


def _actor_run(service: GameService, game_id: str, version: int) -> dict | None:
    """Append the actor's step decided at ``version``; None if the game has moved on."""
    return _moved(service.actor_turn(game_id, version))


def _finalize_due(g: Loaded) -> bool:
    """The rules say the game is over and the platform has not closed it yet."""
    return not g.finished and g.game.is_terminal(g.state)


def _finalize_run(service: GameService, game_id: str, version: int) -> bool:
    """Append SeedRevealed + GameFinished (once only; ``version`` is not needed)."""
    return service.finalize(game_id)


def _clock_due(g: Loaded) -> bool:
    """A clock runs for a seat to act (``application.clocks``)."""
    return not _over(g) and clocks.deadline(g.meta) is not None


def _clock_when(g: Loaded) -> datetime | None:
    """The deadline: the timer (workers/timers.py) is due then, by Redis's clock."""
    return clocks.deadline(g.meta)


def _clock_run(service: GameService, game_id: str, version: int) -> dict | None:
    """At the deadline of ``version``: apply the timeout policy if the game still rests there.

    Judged by the store Redis's clock, which stamped the moves: a timer the queue
    Redis's clock released early (two hosts' clocks) is put back, not dropped.
    """
    now = service.store.now_ms()
    due = clocks.deadline_ms(service.store.meta(game_id))
    if due is not None and now < due:
        raise NotDue(due)
    done = clocks.expire(service, game_id, version, clocks.iso(now))
    if done is None:
        g = service.load(game_id)
        if g.version == version and not _over(g) and (clocks.deadline_ms(g.meta) or now + 1) <= now:
            raise NotDue(now)  # still due: the append lost a race (Redis's clock read twice); again shortly
    return done


def _compact_due(g: Loaded) -> bool:
    """A closed game whose log is still a stream (issue 13: one compressed archive per finished game)."""
    return g.finished and g.meta.get("compacted") != "1"


def _compact_run(service: GameService, game_id: str, version: int) -> bool:
    """Replace the game's stream, snapshot and idempotency keys by its archive (once per game)."""
    return service.compact(game_id)


def _never(g: Loaded) -> bool:
    """A kind a tournament's log makes due (``tournament_due``), never a game."""
    return False


def _open_run(service: GameService, tournament_id: str, version: int) -> bool:
    """At ``start_at``: close registration and pair round 1 (nothing if started already)."""
    return TournamentService(service).start_when_due(tournament_id)


def _at_start(t: dict) -> datetime | None:
    """``start_at``: the timer (workers/timers.py) is due then."""
    return start_time(t)


TABLE: tuple[JobKind, ...] = (
    JobKind("bot", _bot_due, _bot_run),
    JobKind("actor", _actor_due, _actor_run),
    JobKind("finalize", _finalize_due, _finalize_run, per_version=False),
    JobKind("clock", _clock_due, _clock_run, when=_clock_when),
    JobKind("compact", _compact_due, _compact_run, per_version=False),
)
# The kind keyed by a tournament id, scheduled by the tournament reactor (workers/tournament_reactor.py).
OPENING = JobKind("tstart", _never, _open_run, per_version=False)
KINDS: dict[str, JobKind] = {k.name: k for k in (*TABLE, OPENING)}


def tournament_due(t: dict) -> list[tuple[JobKind, datetime | None]]:
    """The jobs a tournament's folded log (``domain.tournament.log``) needs: the start timer
    while registration is open with a ``start_at``. Its progress is the ``tournaments``
    follower's (below), not a job's."""
    if t["status"] == TournamentStatus.REGISTERING and t.get("start_at"):
        return [(OPENING, _at_start(t))]
    return []


def kind(name: str) -> JobKind:
    """The kind named ``name``; KeyError names the known ones (a job enqueued by a newer release)."""
    try:
        return KINDS[name]
    except KeyError:
        raise KeyError(f"no job kind {name!r}; known: {sorted(KINDS)}") from None


def due(g: Loaded) -> list[JobKind]:
    """The kinds ``g`` needs now, in table order; none before anything is dealt (waiting, or cancelled so)."""
    if not g.meta.get("seed"):
        return []
    return [k for k in TABLE if k.due(g)]


def job_id(name: str, game_id: str, version: int) -> str:
    return kind(name).job_id(game_id, version)


# -- followers: each feed entry handled exactly once (workers/follower.py) -------------


def _project_lobby(service: GameService, entry: FeedEntry, tx: Transaction) -> None:
    """Index the game in the lobby as its meta says now (repairs a crash before the service did)."""
    try:
        lobby.project(service.store, entry.game_id, tx)
    except GameNotFound:
        pass  # deleted since: nothing to index


def _rate(service: GameService, entry: FeedEntry, tx: Transaction) -> None:
    """A game finished: update its players' and bots' ratings (``application.ratings``; once per game)."""
    if "GameFinished" in entry.types:
        ratings.rate_finished(service, entry.game_id)


def _notify(service: GameService, entry: FeedEntry, tx: Transaction) -> None:
    """Tell the game's players what it owes them at the version this entry reached (``application.feed``):
    nothing when the game has moved on since (a later entry says what is owed then)."""
    try:
        if feed.players_of(service.store.meta(entry.game_id)):
            feed.notify(service, entry.game_id, entry.to_seq)
    except GameNotFound:
        pass


CLOSING = frozenset({"GameFinished", "GameCancelled"})


def _report_to_tournament(service: GameService, entry: FeedEntry, tx: Transaction) -> None:
    """A game closed: if a tournament seats it, advance that tournament (report it, maybe pair on)."""
    if entry.types & CLOSING:
        tid = service.store.meta(entry.game_id).get("tournament")
        if tid:
            TournamentService(service).advance(tid)


def _advance_tournament(service: GameService, entry: FeedEntry, tx: Transaction) -> None:
    """A tournament's log moved (started, a round paired or reported, an entrant withdrew): advance it."""
    TournamentService(service).advance(entry.game_id)


def tournament_logs(service: GameService) -> RedisEventStore:
    """The store whose feeds announce the tournament logs' appends (their own key prefix)."""
    return TournamentService(service).store


FOLLOWERS: tuple[Follower, ...] = (
    Follower("lobby", _project_lobby),
    Follower("ratings", _rate),
    Follower("notifications", _notify),
    Follower("tournament-games", _report_to_tournament),
    Follower("tournaments", _advance_tournament, tournament_logs),
)
