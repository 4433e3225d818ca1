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
``GameFinished`` scoreboard; equal places are ties. Teams come from the game
itself (``Game.teams``, e.g. Mountain King's 2v2 variant), never from the
places: each team is one side, at its best member's place, so two teams of two
move as openskill rates two teams. One identity in several seats (a bot filling
more than one chair, or a player holding two) is not rated in that game, and
its seats are left out: the other seats are rated among themselves by their
places. An aborted game is not rated. Why a game moved no rating, and which
seats were left out, is a game's ``rating`` line (``verdict``, in its scores).

Once per game: the store applies the update in one MULTI/EXEC guarded by
WATCH on the set of rated games and the game's rating table
(``events.accounts.RatingRecords.rate_once``), so a redelivered job, or two
jobs racing, apply it exactly once and never lose a concurrent update.
"""
from __future__ import annotations

import json
from collections import Counter

from openskill.models import PlackettLuce

from application.players import Players
from application.status import GameStatus, ended
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

    def rate(self, game: str, game_id: str, seats: list[dict], scores: dict, at: str,
             teams: list[list[int]] | None = None) -> bool:
        """Apply one finished game (``teams``: ``Game.teams`` of its final state); False when it
        was rated before (or rates nobody)."""
        if skipped(seats, scores, teams):
            return False
        sides = _sides(seats, scores, teams)
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


def skipped(seats: list[dict], scores: dict, teams: list[list[int]] | None) -> str | None:
    """Why an ended game moves no rating, or None when it does: ``aborted`` (no result), ``solo``
    (one seat: a game's automaton or monsters are not rated, so it has no other side), or
    ``one_rated_side`` (the seats left out, ``left_out``, leave fewer than two sides)."""
    if (scores.get("outcome") or {}).get("kind") == "aborted":
        return "aborted"
    if len(_sides(seats, scores, teams)) >= 2:
        return None
    return "solo" if len(seats) == 1 else "one_rated_side"


def left_out(seats: list[dict]) -> list[dict]:
    """The seats no rating counts, and why: ``anonymous`` (taken with a bare seat token) or
    ``shared`` (its player or bot holds another seat of the game too)."""
    counted = _counted(seats)
    return [{"seat": i, "why": "shared" if pid else "anonymous"} for i, pid in _identities(seats).items()
            if i not in counted]


def verdict(meta: dict, scores: dict, teams: list[list[int]] | None) -> dict | None:
    """An ended game's ``rating`` line, so a page can say why it moved no rating: ``rated``
    (``pending`` until its rating job has run) or ``skipped`` with the ``reason``, and the seats
    ``left_out``; None while the game runs."""
    if not ended(meta):
        return None
    seats = json.loads(meta["seats"])
    reason = skipped(seats, scores, teams)
    status = "skipped" if reason else "rated" if meta.get("rated") else "pending"
    return {"status": status, "reason": reason, "left_out": left_out(seats)}


def _identities(seats: list[dict]) -> dict[int, str | None]:
    """Each seat's rated identity: its player id, ``bot-<name>``, or None (anonymous)."""
    return {s["seat"]: s.get("player") or (bot_id(s["bot"]) if s.get("bot") else None) for s in seats}


def _counted(seats: list[dict]) -> dict[int, str]:
    """The seats a rating counts, with their identities: those whose player or bot holds no other seat."""
    who = _identities(seats)
    held = Counter(pid for pid in who.values() if pid)
    return {i: pid for i, pid in who.items() if pid and held[pid] == 1}


def _sides(seats: list[dict], scores: dict, teams: list[list[int]] | None) -> list[tuple[int, list[str]]]:
    """``[(place, [identity, ...]), ...]``: one side per rated seat, or per team of ``teams``."""
    places = {s["seat"]: s["place"] for s in scores.get("seats", []) if s.get("place") is not None}
    rated = {i: pid for i, pid in _counted(seats).items() if i in places}
    sides = []
    for members in teams or [[i] for i in sorted(rated)]:
        members = [i for i in members if i in rated]
        if members:
            sides.append((min(places[i] for i in members), [rated[i] for i in members]))
    return sorted(sides)


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
    loaded = svc.load(game_id, meta=meta)
    done = svc.ratings.rate(meta["game"], game_id, json.loads(meta["seats"]), last[-1]["data"]["scores"],
                            last[-1]["at"], loaded.game.teams(loaded.state))
    svc.store.reads.mark(game_id, "rated", "1")
    return done
