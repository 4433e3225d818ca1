"""A player's own feed: one stream per player of what concerns them in every game.

Like lichess's account event stream, so a bot or a client can play many games
without polling each: ``seat_reserved`` (a game waits for you), ``game_started``,
``your_turn`` (game id, version, seat and the clock's deadline), ``game_finished``
(with the outcome). Each player has a Redis stream ``<prefix>:players:<id>:feed``
(the newest thousand or so entries), read with XREAD BLOCK; its entry ids are the
resume cursor (``Last-Event-ID``).

The notifications of a game are derived from the game as it rests at a
version (:func:`owed`), written by a worker job the reactor schedules per
version (``workers.table``'s ``notify`` kind); the game's meta remembers the
last version notified, so a redelivered job writes nothing twice. A version
the reactor skips (two moves in quick succession) is not announced on its
own: the feed says whose turn it is now, not every turn that passed.
"""
from __future__ import annotations

import json

from application import clocks
from application.status import ENDED, GameStatus
from events.accounts import PlayerFeeds


class PlayerFeed:
    """Notifications as the player's feed holds them (``events.accounts.PlayerFeeds`` keeps the streams)."""

    def __init__(self, feeds: PlayerFeeds):
        self.feeds = feeds

    def publish(self, pid: str, kind: str, data: dict) -> str:
        return self.feeds.publish(pid, {"type": kind, **data})

    def wait(self, pid: str, after: str, block_ms: int, count: int = 100) -> list[tuple[str, dict]]:
        """``(entry id, notification)`` after the entry id ``after`` ("0" from the start, "$" only new ones)."""
        return self.feeds.wait(pid, after, block_ms, count)

    def last_id(self, pid: str) -> str:
        """The id of the newest entry ("0-0" for an empty feed): a cursor that skips the history."""
        return self.feeds.last_id(pid)


def players_of(meta: dict[str, str]) -> dict[int, str]:
    """Seat -> player id of the seats players hold."""
    return {s["seat"]: s["player"] for s in json.loads(meta["seats"]) if s.get("player")}


def owed(game_id: str, meta: dict[str, str], version: int, active: set[int]) -> list[tuple[str, str, dict]]:
    """``(player id, kind, data)`` the game at ``version`` owes its players since the last notified version."""
    held = players_of(meta)
    last = int(meta.get("notified", "0"))
    if not held or last >= version:
        return []
    out = []
    started = int(meta.get("started_version", "0"))
    if last < started <= version:
        out += [(pid, "game_started", {"game_id": game_id, "game": meta["game"], "seat": seat, "version": version})
                for seat, pid in held.items()]
    if meta["status"] in ENDED:
        out += [(pid, "game_finished", {"game_id": game_id, "seat": seat, "status": meta["status"],
                                        "version": version}) for seat, pid in held.items()]
    else:
        deadline = clocks.deadline_iso(meta)
        out += [(pid, "your_turn", {"game_id": game_id, "seat": seat, "version": version, "deadline": deadline})
                for seat, pid in held.items() if seat in active]
    return out


def notify(svc, game_id: str, version: int) -> int:
    """Publish what the game resting at ``version`` owes its players; returns how many were written."""
    g = svc.load(game_id)
    if g.version != version:
        return 0  # it moved on: the job of the newer version says what is owed now
    playing = g.meta["status"] == GameStatus.ACTIVE and not g.game.is_terminal(g.state)
    items = owed(game_id, g.meta, version, g.game.active_seats(g.state) if playing else set())
    for pid, kind, data in items:
        svc.feed.publish(pid, kind, data)
    svc.store.reads.mark(game_id, "notified", str(version))
    return len(items)
