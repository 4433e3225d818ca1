"""Reads of a game, each as one caller may see it: the summary with its view, legal commands, events
(now or as they come), a past position, the list of moves, the scores, and the lobby's pages.

A version is named by its chain head, so what is computed for one (a view, a legal-command list, a
past state, the moves up to it) is kept (``application.redaction.Computed``) and never recomputed."""
from __future__ import annotations

import json
import time
from typing import Iterator

from domain import registry
from domain.core import PLATFORM_COMMANDS, Illegal, Turn
from errors import NoSuchMove, NoSuchVersion, NotHeld
from application import clocks, lobby, moves, ratings
from application.access import ADMIN
from application.loaded import Loaded
from application.redaction import Computed, redacted
from application.status import GameStatus, ended
from events.repository import Repository
from events.store import RedisEventStore


class Shared(list):
    """A seat's redacted events handed to every stream of a game that the hub woke with the same news:
    ``rendered`` keeps each wire format's text of them, so thousands of streams serialize them once."""

    def __init__(self, events: list[dict]):
        super().__init__(events)
        self.rendered: dict[str, str] = {}


SUMMARY_META = ("status", "seats", "visibility", "seed", "created_at", "finished_at", "tournament", "round")
"""The meta fields a game's summary shows or depends on (beside its clock's): the key of its kept body."""


def summary_meta(meta: dict[str, str]) -> dict[str, str | None]:
    """The summary's meta fields: :meth:`Queries.summary` reads the meta only through this (and the
    clock's fields, which make a summary unkept), so its kept body's key cannot miss a field."""
    return {f: meta.get(f) for f in SUMMARY_META}


class Queries:
    def __init__(self, store: RedisEventStore, repo: Repository):
        self.store, self.repo = store, repo
        self.computed = Computed()

    def summary(self, game_id: str, seat: int | None, g: Loaded | None = None) -> dict:
        g = g or self.repo.load(game_id)
        m = summary_meta(g.meta)
        dealt = bool(m["seed"])  # a game waiting for players (or cancelled so) shows its seats only
        closed = ended(m) and dealt
        turn = g.game.turn(g.state) if dealt and not ended(m) else Turn.over()
        outcome = g.game.scores(g.state).result().to_dict() if closed else {
            "kind": "aborted" if ended(m) else "pending", "winners": []}
        return {"id": game_id, "game": g.game.id, "status": m["status"], "version": g.version,
                "active_seats": sorted(turn.seats), "turn": turn.to_dict(), "outcome": outcome,
                "seats": json.loads(m["seats"]), "view": self.computed.view(g, seat) if dealt else {},
                "visibility": m["visibility"] or "public",
                "tournament": {"id": m["tournament"], "round": int(m["round"])} if m["tournament"] else None,
                **clocks.summary(g.meta, int(time.time() * 1000)),
                "created_at": m["created_at"], "finished_at": m["finished_at"]}

    @staticmethod
    def summary_key(game_id: str, seat: int | None, g: Loaded) -> tuple | None:
        """Everything :meth:`summary` of ``g`` for ``seat`` depends on, or None when a clock makes it
        depend on the time as well: the HTTP layer keeps each encoded summary under this key."""
        if g.meta.get("clock_control"):
            return None
        return ("summary", game_id, g.version, g.head, seat, *summary_meta(g.meta).values())

    @staticmethod
    def legal_key(game_id: str, seat: int | None, g: Loaded) -> tuple:
        """Everything :meth:`legal` of ``g`` for ``seat`` depends on (the key of its encoded body)."""
        return ("legal", game_id, g.version, g.head, seat, g.meta["status"])

    def legal(self, game_id: str, seat: int | None, g: Loaded | None = None) -> dict:
        g = g or self.repo.load(game_id)
        playing = g.meta["status"] == GameStatus.ACTIVE
        cmds, labels = self.computed.once(("legal", g.version, g.head, seat), lambda: self._labelled(g, seat)) \
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
                "events": redacted(game, envs, seat, finished=ended(g_meta))}

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
                    yield redacted(registry.of(meta), envs, seat, finished)
                else:  # the same news reached every stream of the game: each seat's view is made once
                    key = ("redacted", seat, after, finished)
                    if key not in news.memo:
                        news.memo[key] = Shared(redacted(registry.of(meta), envs, seat, finished))
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
            at = self.repo.load(game_id, upto=version, meta=meta)
            here, *after = self.store.states.replayed(game_id, after=version - 1, limit=2)
            if after and after[0]["command_id"] == here["command_id"]:
                # One command's events land together: the game never rested between them.
                held = [b[-1]["seq"] for b in moves.batches(self.store.reads.iter_all(game_id))]
                raise NotHeld(version, *moves.nearest_held(held, version))
            out = {"version": version, "view": self.computed.view(at, seat), "move": move["move"] if move else None,
                   "label": move["label"] if move else None}
            if finished or seat == ADMIN:
                out["state"] = at.game.dump_state(at.state)
            return out

        # The chain head names every event up to now, so (head, version, seat, closed?) names the answer:
        # a viewer scrubbing back and forth through a replay costs one round trip per step it saw before.
        return self.computed.once(("state_at", game_id, meta.get("head"), finished, version, seat, bool(move)), replay)

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
                "moves": self.computed.once(("moves", game_id, meta.get("head"), reveal, seat), listed)}

    def move(self, game_id: str, seat: int | None, n: int, meta: dict[str, str] | None = None) -> dict:
        """Move ``n`` as ``seat`` may see it; its ``last_seq`` is the version after it."""
        listed = self.moves(game_id, seat, meta)["moves"]
        if not 1 <= n <= len(listed):
            raise NoSuchMove(game_id, f"moves run from 1 to {len(listed)}" if listed else "no move has been played yet")
        return listed[n - 1]

    def scores(self, game_id: str) -> dict:
        g = self.repo.load(game_id)
        if not g.meta.get("seed"):
            raise Illegal("game_not_started", None, "the game waits for players: nothing is scored before the start")
        board = g.game.scores(g.state).to_dict()
        board["final"] = g.finished
        board["rating"] = ratings.verdict(g.meta, board, g.game.teams(g.state))
        return board

    def list_games(self, game: str | None, status: str | None, offset: int, limit: int,
                   after: str | None = None) -> dict:
        return lobby.page(self.store, game, status, offset, limit, after)
