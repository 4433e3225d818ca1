"""A tournament's decisions: the events each director's, entrant's or progress step appends.

Pure, like a game's ``decide``: each takes the folded log (``domain.tournament.log``)
and what the application looked up (a player's name and rating, a closed
game's report) and returns events, or raises Illegal citing the rule
(``TRN-*``, README.md). The application runs them on the event store's
repository; who may ask (the organizer, the admin) is the application's check.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from domain.core import require
from domain.tournament.config import Config
from domain.tournament.log import TournamentStatus, config_of, game_id_for, pairing_view
from domain.tournament.pairing import check_field, is_complete, pair_round
from domain.tournament.standings import standings

UNRATED = None
"""The seeding rating recorded for a bot or a player without a rating in this game (TRN-RANK-1):
seeded after every rated entrant. Logs written before this recorded 0.0 instead, and keep it."""


class Step(NamedTuple):
    """One batch and the command id it is recorded under (the same id for the same decision)."""

    events: list[dict]
    command_id: str


def created(tid: str, *, name: str, game: str, options: dict, config: Config, rules_version: str,
            clock: dict | None, start_at: str | None, organizer: str | None, seed_commitment: str,
            entrants: list[dict], invitations: bool = False) -> list[dict]:
    """A new tournament with its first entrants; created with entrants, no ``start_at`` and no
    pending ``invitations`` it starts at once (TRN-START-1), so its field must be big enough then."""
    starts = bool(entrants) and start_at is None and not invitations
    if starts:  # otherwise the field is checked at the start (TRN-START-1)
        check_field(config, len(entrants))
    events = [{"type": "TournamentCreated", "data": {
        "tournament": tid, "name": name, "game": game, "options": options, "config": config.to_dict(),
        "rules_version": rules_version, "clock": clock, "start_at": start_at, "organizer": organizer,
        "seed_commitment": seed_commitment}}]
    events += [{"type": "EntrantRegistered", "data": {"entrant": e}} for e in entrants]
    if starts:
        events.append({"type": "TournamentStarted", "data": {"entrants": len(entrants)}})
    return events


def check_entrant(raw: object) -> None:
    require(isinstance(raw, dict) and (isinstance(raw.get("bot"), str) or isinstance(raw.get("player"), str)),
            "bad_entrant", "TRN-REG-1", 'an entrant is {"player": "<player id>"} or {"bot": "<bot>", "name"?}')


def player_entrant(entrants: list[dict], pid: str, name: str, rating: float | None, clock: dict | None) -> dict:
    """The next entrant ``e<n>``: a player, seeded by its rating's ordinal in this game (unrated
    players after every rated entrant: TRN-RANK-1). Players play only with a clock (TRN-CLK-1), and enter once (TRN-REG-1)."""
    require(all(e.get("player") != pid for e in entrants), "already_registered", "TRN-REG-1",
            f"player {pid} is an entrant already")
    require(clock is not None, "clock_required", "TRN-CLK-1",
            "a tournament with player entrants needs a clock, so no game can wait for a player forever")
    return {"id": f"e{len(entrants)}", "name": name, "bot": None, "player": pid,
            "rating": round(rating, 6) if rating is not None else UNRATED}


def bot_entrant(entrants: list[dict], bot: str, bots: dict) -> dict:
    """The next entrant ``e<n>``: one of the game's bots, named ``<bot>-<n>`` (the caller may
    give it a display name of its own)."""
    index = len(entrants)
    require(bot in bots, "unknown_bot", None, f"no bot {bot!r}; choose one of {sorted(bots)}")
    return {"id": f"e{index}", "name": f"{bot}-{index + 1}", "bot": bot, "player": None, "rating": UNRATED}


def check_registering(t: dict) -> None:
    require(t["status"] == TournamentStatus.REGISTERING, "registration_closed", "TRN-REG-1",
            "entrants register before the tournament starts")


def register(entrant: dict, version: int) -> Step:
    """The entrant joins (recorded under the log's ``version``: a register is no idempotent decision)."""
    return Step([{"type": "EntrantRegistered", "data": {"entrant": entrant}}], f"register:{version}")


def find_entrant(t: dict, entrant_id: str) -> dict:
    found = [e for e in t["entrants"] if e["id"] == entrant_id]
    require(bool(found), "no_such_entrant", None, f"tournament {t['tournament']} has no entrant {entrant_id!r}")
    return found[0]


def withdraw(t: dict, entrant: dict) -> Step:
    """An entrant leaves: paired no more; games already paired play on (TRN-WD-1)."""
    require(t["status"] != TournamentStatus.FINISHED, "tournament_finished", None, "the tournament has finished")
    require(not entrant["withdrawn"], "already_withdrawn", "TRN-WD-1", f"{entrant['id']} has withdrawn already")
    return Step([{"type": "EntrantWithdrew", "data": {"entrant": entrant["id"]}}], f"withdraw:{entrant['id']}")


def start(t: dict) -> Step:
    """Close registration (TRN-START-1): the field present must suit the format."""
    require(t["status"] == TournamentStatus.REGISTERING, "already_started", "TRN-START-1",
            f"the tournament is {t['status']}")
    here = [e for e in t["entrants"] if not e["withdrawn"]]
    check_field(config_of(t), len(here))
    return Step([{"type": "TournamentStarted", "data": {"entrants": len(here)}}], f"start:{t['tournament']}")


Report = Callable[[int, int, dict], "dict | None"]
"""``(round, table index, table) -> the GameFinished report of its closed game, or None``."""


def progress(t: dict, seed: bytes, report: Report) -> Step | None:
    """The next step of a running tournament: the first table of the round whose game has
    closed is reported; once all are, the round completes; then the next round is paired
    (TRN-PAIR-*) or, when the format says it is over, the seed is revealed and the final
    standings recorded. None while games still run, or the tournament is not running."""
    if t["status"] != TournamentStatus.RUNNING:
        return None
    tid, config = t["tournament"], config_of(t)
    view = pairing_view(t["rounds"])
    current = t["rounds"][-1] if t["rounds"] else None
    if current is not None:
        for i, table in enumerate(current["tables"]):
            if table["result"] is None:
                done = report(current["round"], i, table)
                if done is not None:
                    return Step([done], f"report:{table['game_id']}")
        if any(table["result"] is None for table in current["tables"]):
            return None  # games still running
        if not current["completed"]:
            return Step([{"type": "RoundCompleted", "data": {
                "round": current["round"], "standings": standings(config, t["entrants"], view)}}],
                f"complete:{tid}:{current['round']}")
    if is_complete(config, t["entrants"], view):
        return Step([{"type": "SeedRevealed", "data": {"seed": seed.hex()}},
                     {"type": "TournamentFinished", "data": {"standings": standings(config, t["entrants"], view)}}],
                    f"finish:{tid}")
    paired = pair_round(config, t["entrants"], view, seed)
    tables = [{"seats": tb["seats"], "game_id": game_id_for(tid, paired["round"], i)}
              for i, tb in enumerate(paired["tables"])]
    return Step([{"type": "RoundPaired", "data": {"round": paired["round"], "tables": tables,
                                                  "byes": paired["byes"]}}], f"pair:{tid}:{paired['round']}")

