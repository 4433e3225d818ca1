"""Who may enter a tournament: a bot or a player entrant checked for the log (``domain.tournament.decide``),
a player someone else names (invited, not entered), and the quotas that bound a tournament's size."""
from __future__ import annotations

from domain.core import Game, Illegal, require
from domain.kit import search
from domain.tournament import Config, decide
from errors import PlayerNotFound
from application.names import display_name
from application.players import Players
from application.ratings import Ratings
import settings


def entrant(players: Players, ratings: Ratings, game: Game, raw: dict, entrants: list[dict],
            clock: dict | None) -> dict:
    """A new entrant (``decide``): a bot (``{"bot", "level"?, "name"?}``), or a player (``{"player": id}``)
    with their name and their rating's ordinal in this game for the seeding (TRN-RANK-1)."""
    decide.check_entrant(raw)
    if raw.get("player") is None:
        bot = decide.bot_entrant(entrants, search.parse_bot(raw["bot"], raw.get("level")), game.bots)
        return {**bot, "name": display_name(raw.get("name") or bot["name"], 60, "an entrant's name", "bad_entrant")}
    pid = raw["player"]
    try:
        player = players.get(pid)
    except PlayerNotFound:
        raise Illegal("unknown_player", "TRN-REG-1", f"no player {pid!r}; create one with POST /v1/players") from None
    line = ratings.of(game.id, pid)
    return decide.player_entrant(entrants, pid, player.name, line["ordinal"] if line else None, clock)


def invites(raw: object, caller: str) -> bool:
    """A player entrant named by someone else: they are invited, not entered."""
    return isinstance(raw, dict) and isinstance(raw.get("player"), str) and raw["player"] != caller


def invitee(players: Players, raw: dict, entrants: list[dict], invited: list[str], clock: dict | None) -> str:
    """The id of a player who may be invited: one that exists, is not in yet, to a clocked tournament."""
    pid = raw["player"]
    if not players.exists(pid):
        raise Illegal("unknown_player", "TRN-REG-1", f"no player {pid!r}; create one with POST /v1/players")
    require(pid not in invited and all(e.get("player") != pid for e in entrants), "already_registered",
            "TRN-REG-1", f"player {pid} is an entrant (or invited) already")
    require(clock is not None, "clock_required", "TRN-CLK-1",
            "a tournament with player entrants needs a clock, so no game can wait for a player forever")
    return pid


def check_size(config: Config, entrants: int) -> None:
    """The quotas that bound a tournament's work: entrants, and the games its format plans for them."""
    cap = settings.get("DELVE_TOURNAMENT_MAX_ENTRANTS")
    require(entrants <= cap, "too_many_entrants", None,
            f"a tournament holds at most {cap} entrants (DELVE_TOURNAMENT_MAX_ENTRANTS)")
    games, most = config.planned_games(entrants), settings.get("DELVE_TOURNAMENT_MAX_GAMES")
    require(games <= most, "too_many_games", None,
            f"{config.format} with {entrants} entrants at tables of {config.table_size} plans {games} games; "
            f"a tournament may plan at most {most} (DELVE_TOURNAMENT_MAX_GAMES): fewer entrants, fewer rounds "
            "or larger tables")
