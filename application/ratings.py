"""Ratings: openskill's Plackett-Luce model over every finished game, per game id.

Plackett-Luce (Weng & Lin 2011, as implemented by the ``openskill`` package)
rates any number of participants from one finishing order, with ties and
teams, which is what a table of 2-10 seats needs; Elo and Glicko only rate
pairs. Each identity has ``mu`` (the estimated skill) and ``sigma`` (its
uncertainty); leaderboards sort by the ``ordinal`` ``mu - 3 sigma``, a skill
the player is very likely above. Everyone starts at mu 25, sigma 25/3.

Who is rated: a seat held by a player (its player id) and a bot seat (the
bot's own stable identity ``bot-<name>``, so bots have ratings and profiles
too). Seats that joined with a bare seat token are anonymous and not rated;
a game with fewer than two rated sides changes nothing. Places come from the
``GameFinished`` scoreboard; equal places are ties. In a team game (the
scoreboard lists ``team:`` participants) the seats that share a place are
rated as one team. An aborted game is not rated.

Once per game: the store applies the update in one MULTI/EXEC guarded by
WATCH on the set of rated games and the game's rating table
(``events.accounts.RatingRecords.rate_once``), so a redelivered job, or two
jobs racing, apply it exactly once and never lose a concurrent update.
"""
from __future__ import annotations

import json

from openskill.models import PlackettLuce

from application.players import Players
from application.status import GameStatus
from events.accounts import RatingRecords, RatingUpdate

MODEL = PlackettLuce()


def bot_id(bot: str) -> str:
    return f"bot-{bot}"


class Ratings:
    """The rating model over ``events.accounts.RatingRecords`` (which keeps the keys and the WATCH/MULTI)."""

    def __init__(self, records: RatingRecords, players: Players):
        self.records, self.players = records, players

    # -- reads -------------------------------------------------------------------

    def of(self, game: str, pid: str) -> dict | None:
        line = self.records.line(game, pid)
        return _line(line) if line else None

    def of_player(self, pid: str, games: list[str]) -> dict[str, dict]:
        out = {}
        for game in games:
            line = self.of(game, pid)
            if line:
                out[game] = line
        return out

    def history(self, pid: str, limit: int = 50) -> list[dict]:
        return self.records.history(pid, limit)

    def leaderboard(self, game: str, offset: int = 0, limit: int = 100) -> dict:
        return {"game": game, "players": [{"player": pid, "name": self.players.name_of(pid), **_line(line)}
                                          for pid, line in self.records.board(game, offset, limit)]}

    # -- the update ----------------------------------------------------------------

    def rate(self, game: str, game_id: str, seats: list[dict], scores: dict, at: str) -> bool:
        """Apply one finished game; False when it was rated before (or rates nobody)."""
        if (scores.get("outcome") or {}).get("kind") == "aborted":
            return False
        sides = _sides(seats, scores)
        if len(sides) < 2:
            return False
        for seat in seats:
            if seat.get("bot"):
                self.players.ensure_bot(bot_id(seat["bot"]), seat["bot"], at)

        def update(before: dict[str, dict | None]) -> list[RatingUpdate]:
            teams = [[_model_rating(before[pid], pid) for pid in members] for _place, members in sides]
            changes = []
            for team in MODEL.rate(teams, ranks=[place for place, _members in sides]):
                for rating in team:
                    pid = rating.name
                    line = {"mu": rating.mu, "sigma": rating.sigma, "games": (before[pid] or {}).get("games", 0) + 1}
                    changes.append((pid, line, rating.ordinal(),
                                    {"game": game, "game_id": game_id, "at": at, **_line(line)}))
            return changes

        return self.records.rate_once(game, game_id, [pid for _place, members in sides for pid in members], update)


def _sides(seats: list[dict], scores: dict) -> list[tuple[int, list[str]]]:
    """``[(place, [identity, ...]), ...]``: one side per rated seat, or per team in a team game."""
    places = {s["seat"]: s["place"] for s in scores.get("seats", []) if s.get("place") is not None}
    who = {s["seat"]: s.get("player") or (bot_id(s["bot"]) if s.get("bot") else None) for s in seats}
    rated = [(places[i], pid) for i, pid in who.items() if pid and i in places]
    teams = any(p.get("id", "").startswith("team:") for p in scores.get("participants", []))
    if not teams:
        # One bot name may fill several seats: each seat is the same identity, rated once at its best place.
        best: dict[str, int] = {}
        for place, pid in rated:
            best[pid] = min(place, best.get(pid, place))
        return sorted((place, [pid]) for pid, place in best.items())
    grouped: dict[int, list[str]] = {}
    for place, pid in sorted(rated):
        if all(pid not in members for members in grouped.values()):
            grouped.setdefault(place, []).append(pid)
    return sorted(grouped.items())


def _model_rating(line: dict | None, pid: str):
    if line is None:
        return MODEL.rating(name=pid)
    return MODEL.rating(mu=line["mu"], sigma=line["sigma"], name=pid)


def _line(line: dict) -> dict:
    return {"mu": line["mu"], "sigma": line["sigma"], "ordinal": line["mu"] - 3 * line["sigma"],
            "games": line["games"]}


def rate_finished(svc, game_id: str) -> bool:
    """The rating job of a finished game (``workers.table``'s ``rate`` kind): rate it, then mark its meta."""
    meta = svc.store.meta(game_id)
    if meta["status"] != GameStatus.FINISHED:
        return False
    last = svc.store.read(game_id, after=int(meta["version"]) - 1)
    if not last or last[-1]["type"] != "GameFinished":
        return False
    done = svc.ratings.rate(meta["game"], game_id, json.loads(meta["seats"]), last[-1]["data"]["scores"],
                            last[-1]["at"])
    svc.store.reads.mark(game_id, "rated", "1")
    return done
