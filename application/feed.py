"""A player's own feed: one stream per player of what concerns them in every game.

Like lichess's account event stream, so a bot or a client can play many games
without polling each: ``seat_reserved`` (a game waits for you), ``game_started``,
``your_turn`` (game id, version, seat and the clock's deadline), ``game_finished``
(with the outcome). Each player has a Redis stream ``<prefix>:players:<id>:feed``
(the newest MAXLEN entries), read with XREAD BLOCK; its entry ids are the
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

import redis

from application import clocks
from events.store import as_text

MAXLEN = 1000  # entries kept per player (approximate trim)


class PlayerFeed:
    def __init__(self, r: redis.Redis, prefix: str):
        self.r, self.prefix = r, prefix

    def _key(self, pid: str) -> str:
        return ":".join((self.prefix, "players", pid, "feed"))

    def publish(self, pid: str, kind: str, data: dict) -> str:
        entry = self.r.xadd(self._key(pid), {"e": json.dumps({"type": kind, **data})}, maxlen=MAXLEN,
                            approximate=True)
        return as_text(entry)

    def wait(self, pid: str, after: str, block_ms: int, count: int = 100) -> list[tuple[str, dict]]:
        """``(entry id, notification)`` after the entry id ``after`` ("0" from the start, "$" only new ones)."""
        try:
            got = self.r.xread({self._key(pid): after}, count=count, block=block_ms)
        except redis.TimeoutError:
            return []
        if not got:
            return []
        return [(as_text(eid), json.loads(fields[b"e"] if b"e" in fields else fields["e"])) for eid, fields in got[0][1]]

    def last_id(self, pid: str) -> str:
        """The id of the newest entry ("0-0" for an empty feed): a cursor that skips the history."""
        newest = self.r.xrevrange(self._key(pid), count=1)
        return as_text(newest[0][0]) if newest else "0-0"


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
    if meta["status"] in ("finished", "aborted"):
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
    playing = g.meta["status"] == "active" and not g.game.is_terminal(g.state)
    items = owed(game_id, g.meta, version, g.game.active_seats(g.state) if playing else set())
    for pid, kind, data in items:
        svc.feed.publish(pid, kind, data)
    svc.store.mark(game_id, "notified", str(version))
    return len(items)
