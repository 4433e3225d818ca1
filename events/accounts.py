"""What lives beside the games, outside any partition: player accounts, ratings, player feeds.

The application (``application.players``, ``application.ratings``,
``application.feed``) decides what goes in them; these keep the keys and the
Redis commands, so no raw client leaves the store.
"""
from __future__ import annotations

import json
from collections.abc import Callable

import redis

from events.keys import Keys
from events.replies import as_text, fields

RatingUpdate = tuple[str, dict, float, dict]  # (identity, its new line, its leaderboard score, its history entry)


class PlayerRecords:
    """``<prefix>:players:<id>`` (a hash), its ``:games`` (a sorted set by time) and the token index."""

    def __init__(self, r: redis.Redis, keys: Keys):
        self.r, self.keys = r, keys

    def create(self, pid: str, record: dict[str, str], token_digest: str) -> None:
        """Write a player, then its token's pointer to it. The two keys lie in different Redis Cluster
        slots, so no MULTI: a crash between them leaves a player whose token nobody was shown."""
        self.r.hset(self.keys.player(pid), mapping=record)
        self.r.set(self.keys.player("token", token_digest), pid)

    def create_once(self, pid: str, record: dict[str, str]) -> None:
        """Write a player unless it exists (a bot's identity, made on its first rated game)."""
        if not self.r.exists(self.keys.player(pid)):
            self.r.hset(self.keys.player(pid), mapping=record)

    def get(self, pid: str) -> dict[str, str] | None:
        raw = self.r.hgetall(self.keys.player(pid))
        return fields(raw) if raw else None

    def field(self, pid: str, name: str) -> str | None:
        value = self.r.hget(self.keys.player(pid), name)
        return as_text(value) if value is not None else None

    def exists(self, pid: str) -> bool:
        return bool(self.r.exists(self.keys.player(pid)))

    def by_token(self, digest: str) -> str | None:
        """The id of the player whose token hashes to ``digest``, if any."""
        pid = self.r.get(self.keys.player("token", digest))
        return as_text(pid) if pid is not None else None

    def note_game(self, pid: str, game_id: str, when: float) -> None:
        self.r.zadd(self.keys.player(pid, "games"), {game_id: when})

    def forget_game(self, pid: str, game_id: str) -> None:
        self.r.zrem(self.keys.player(pid, "games"), game_id)

    def games(self, pid: str, limit: int) -> list[str]:
        """The player's games, newest first."""
        return [as_text(g) for g in self.r.zrevrange(self.keys.player(pid, "games"), 0, limit - 1)]


class RatingRecords:
    """Per game id: a hash of rating lines, a leaderboard (sorted set), the set of games rated;
    per identity: a capped list of rating changes. Every key shares the hash tag ``{ratings}``."""

    def __init__(self, r: redis.Redis, keys: Keys, *, retries: int = 20, history_kept: int = 200):
        self.r, self.keys, self.retries, self.history_kept = r, keys, retries, history_kept

    def line(self, game: str, pid: str) -> dict | None:
        raw = self.r.hget(self.keys.ratings(game), pid)
        return json.loads(raw) if raw else None

    def history(self, pid: str, limit: int) -> list[dict]:
        """The identity's latest ``limit`` changes, newest first."""
        return [json.loads(x) for x in self.r.lrange(self.keys.ratings("history", pid), -limit, -1)][::-1]

    def board(self, game: str, offset: int, limit: int) -> list[tuple[str, dict]]:
        """``(identity, line)`` of the leaderboard from ``offset``, best first."""
        ids = [as_text(p) for p in self.r.zrevrange(self.keys.ratings(game, "board"), offset, offset + limit - 1)]
        lines = self.r.hmget(self.keys.ratings(game), ids) if ids else []
        return [(pid, json.loads(raw)) for pid, raw in zip(ids, lines) if raw]

    def rate_once(self, game: str, game_id: str, ids: list[str],
                  update: Callable[[dict[str, dict | None]], list[RatingUpdate]]) -> bool:
        """Apply ``update`` (the lines of ``ids`` before -> the changes) exactly once per ``game_id``.

        One MULTI/EXEC guarded by WATCH on the set of rated games and the
        game's rating table: a redelivered job, or two jobs racing, apply it
        once and never lose a concurrent update. False if already rated.
        """
        rated, table = self.keys.ratings("rated"), self.keys.ratings(game)
        for _ in range(self.retries):
            with self.r.pipeline(transaction=True) as pipe:  # explicit: a RedisCluster defaults to none
                try:
                    pipe.watch(rated, table)
                    if pipe.sismember(rated, game_id):
                        return False
                    known = dict(zip(ids, pipe.hmget(table, ids)))
                    changes = update({pid: json.loads(raw) if raw else None for pid, raw in known.items()})
                    pipe.multi()
                    for pid, line, score, entry in changes:
                        history = self.keys.ratings("history", pid)
                        pipe.hset(table, pid, json.dumps(line))
                        pipe.zadd(self.keys.ratings(game, "board"), {pid: score})
                        pipe.rpush(history, json.dumps(entry))
                        pipe.ltrim(history, -self.history_kept, -1)
                    pipe.sadd(rated, game_id)
                    pipe.execute()
                    return True
                except redis.WatchError:
                    continue
        raise RuntimeError(f"rating game {game_id}: {self.retries} concurrent updates in a row; the job will retry")


class PlayerFeeds:
    """A stream per player (``<prefix>:players:<id>:feed``), the newest ``maxlen`` entries kept."""

    def __init__(self, r: redis.Redis, keys: Keys, *, maxlen: int = 1000):
        self.r, self.keys, self.maxlen = r, keys, maxlen

    def publish(self, pid: str, notification: dict) -> str:
        entry = self.r.xadd(self.keys.player(pid, "feed"), {"e": json.dumps(notification)}, maxlen=self.maxlen,
                            approximate=True)
        return as_text(entry)

    def wait(self, pid: str, after: str, block_ms: int, count: int) -> list[tuple[str, dict]]:
        """``(entry id, notification)`` after the entry id ``after``, blocking up to ``block_ms`` for the first."""
        try:
            got = self.r.xread({self.keys.player(pid, "feed"): after}, count=count, block=block_ms)
        except redis.TimeoutError:
            return []
        if not got:
            return []
        return [(as_text(eid), json.loads(f[b"e"] if b"e" in f else f["e"])) for eid, f in got[0][1]]

    def last_id(self, pid: str) -> str:
        """The id of the newest entry ("0-0" for an empty feed)."""
        newest = self.r.xrevrange(self.keys.player(pid, "feed"), count=1)
        return as_text(newest[0][0]) if newest else "0-0"


class InvitationRecords:
    """A hash per player (``<prefix>:players:<id>:invitations``): what they are invited to -> the invitation."""

    def __init__(self, r: redis.Redis, keys: Keys):
        self.r, self.keys = r, keys

    def put(self, pid: str, iid: str, invitation: dict, most: int | None) -> bool:
        """Store (or replace) an invitation, unless the player already holds ``most`` others (None: no cap)."""
        key = self.keys.player(pid, "invitations")
        if most is not None and not self.r.hexists(key, iid) and self.r.hlen(key) >= most:
            return False
        self.r.hset(key, iid, json.dumps(invitation))
        return True

    def get(self, pid: str, iid: str) -> dict | None:
        raw = self.r.hget(self.keys.player(pid, "invitations"), iid)
        return json.loads(raw) if raw is not None else None

    def remove(self, pid: str, iid: str) -> None:
        self.r.hdel(self.keys.player(pid, "invitations"), iid)

    def all(self, pid: str) -> list[dict]:
        return [json.loads(v) for v in self.r.hvals(self.keys.player(pid, "invitations"))]
