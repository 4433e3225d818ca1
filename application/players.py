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

from errors import GameNotFound, PlayerNotFound
from events.accounts import PlayerRecords
from application.names import display_name
from application.tokens import hash_token, new_token


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    created_at: str

    def to_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "created_at": self.created_at}


class Players:
    """The player directory (``events.accounts.PlayerRecords`` keeps its keys)."""

    def __init__(self, records: PlayerRecords):
        self.records = records

    def register(self, name: str, now: str) -> tuple[Player, str]:
        """A new player and its token (the only time the token is seen in clear)."""
        name = display_name(name, 40, "a player name", "bad_player_name")
        pid, token = "p" + secrets.token_hex(8), new_token()
        self.records.create(pid, {"name": name, "created_at": now, "token": hash_token(token)}, hash_token(token))
        return Player(pid, name, now), token

    def get(self, pid: str) -> Player:
        f = self.records.get(pid) if pid and ":" not in pid else None
        if not f:
            raise PlayerNotFound(pid)
        return Player(pid, f["name"], f["created_at"])

    def ensure_bot(self, pid: str, bot: str, now: str) -> None:
        """A bot's stable identity (no token: nobody logs in as a bot), made on its first rated game."""
        self.records.create_once(pid, {"name": f"{bot} (bot)", "created_at": now, "bot": bot})

    def name_of(self, pid: str) -> str | None:
        return self.records.field(pid, "name")

    def exists(self, pid: str) -> bool:
        return isinstance(pid, str) and ":" not in pid and self.records.exists(pid)

    def by_token_digest(self, digest: str) -> str | None:
        """The id of the player whose token hashes to ``digest``, if any."""
        return self.records.by_token(digest)

    def by_token(self, token: str | None) -> Player | None:
        pid = self.by_token_digest(hash_token(token)) if token else None
        return self.get(pid) if pid else None

    def note_game(self, pid: str, game_id: str, at: str) -> None:
        """Index a game on the player's profile (idempotent)."""
        self.records.note_game(pid, game_id, datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp())

    def forget_game(self, pid: str, game_id: str) -> None:
        self.records.forget_game(pid, game_id)

    def games(self, pid: str, limit: int = 100) -> list[str]:
        """The player's games, newest first."""
        return self.records.games(pid, limit)


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
