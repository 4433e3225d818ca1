"""Player identities: a name and a bearer token that speaks for every seat the player holds.

A player is not part of any game's chain: it is an account, kept in a hash
``<prefix>:players:<id>`` with the sha256 of its token (the token itself is
shown once, like a seat token), a reverse index from token hash to id, and a
sorted set of the games the player sat in. Seats a player takes are recorded
in the game's own events (``SeatTaken``), so the chain, not this index, is
the record of who played; the index only makes the profile cheap to read.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime

import redis

from domain.core import Illegal
from events.store import GameNotFound, as_text
from application.tokens import hash_token, new_token


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    created_at: str

    def to_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "created_at": self.created_at}


class PlayerNotFound(Exception):
    pass


class Players:
    """The player directory. Keys live beside the lobby's, outside any game partition."""

    def __init__(self, r: redis.Redis, prefix: str):
        self.r = r
        self.prefix = prefix

    def _key(self, *parts: str) -> str:
        return ":".join((self.prefix, "players", *parts))

    def register(self, name: str, now: str) -> tuple[Player, str]:
        """A new player and its token (the only time the token is seen in clear)."""
        name = name.strip() if isinstance(name, str) else ""
        if not 1 <= len(name) <= 40:
            raise Illegal("bad_player_name", None, "a player name is 1-40 characters")
        pid, token = "p" + secrets.token_hex(8), new_token()
        # The two keys lie in different Redis Cluster slots, so no MULTI: the player first, then the
        # token's pointer to it. A crash between them leaves a player whose token nobody was shown.
        self.r.hset(self._key(pid), mapping={"name": name, "created_at": now, "token": hash_token(token)})
        self.r.set(self._key("token", hash_token(token)), pid)
        return Player(pid, name, now), token

    def get(self, pid: str) -> Player:
        raw = self.r.hgetall(self._key(pid)) if pid and ":" not in pid else {}
        if not raw:
            raise PlayerNotFound(pid)
        f = {as_text(k): as_text(v) for k, v in raw.items()}
        return Player(pid, f["name"], f["created_at"])

    def ensure_bot(self, pid: str, bot: str, now: str) -> None:
        """A bot's stable identity (no token: nobody logs in as a bot), made on its first rated game."""
        if not self.r.exists(self._key(pid)):
            self.r.hset(self._key(pid), mapping={"name": f"{bot} (bot)", "created_at": now, "bot": bot})

    def name_of(self, pid: str) -> str | None:
        name = self.r.hget(self._key(pid), "name")
        return as_text(name) if name is not None else None

    def exists(self, pid: str) -> bool:
        return isinstance(pid, str) and ":" not in pid and bool(self.r.exists(self._key(pid)))

    def by_token_digest(self, digest: str) -> str | None:
        """The id of the player whose token hashes to ``digest``, if any."""
        pid = self.r.get(self._key("token", digest))
        return as_text(pid) if pid is not None else None

    def by_token(self, token: str | None) -> Player | None:
        pid = self.by_token_digest(hash_token(token)) if token else None
        return self.get(pid) if pid else None

    def note_game(self, pid: str, game_id: str, at: str) -> None:
        """Index a game on the player's profile (idempotent)."""
        when = datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()
        self.r.zadd(self._key(pid, "games"), {game_id: when})

    def forget_game(self, pid: str, game_id: str) -> None:
        self.r.zrem(self._key(pid, "games"), game_id)

    def games(self, pid: str, limit: int = 100) -> list[str]:
        """The player's games, newest first."""
        return [as_text(g) for g in self.r.zrevrange(self._key(pid, "games"), 0, limit - 1)]


def profile(players: Players, store, pid: str, ratings: dict[str, dict], history: list[dict],
            *, private: bool = False) -> dict:
    """The profile: name, ratings (and their latest changes) and the player's games, newest
    first: the public ones, or with ``private`` (the player asking about themselves) all."""
    player = players.get(pid)
    games = []
    for gid in players.games(pid):
        try:
            meta = store.meta(gid)
        except GameNotFound:
            continue
        visibility = meta.get("visibility", "public")
        if visibility == "private" and not private:
            continue
        seat = next((s["seat"] for s in json.loads(meta["seats"]) if s.get("player") == pid), None)
        games.append({"id": gid, "game": meta["game"], "status": meta["status"], "seat": seat,
                      "visibility": visibility, "created_at": meta["created_at"]})
    return {**player.to_dict(), "ratings": ratings, "rating_history": history, "games": games}
