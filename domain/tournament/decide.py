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
from domain.tournament.config import Config, is_int
from domain.tournament.history import DECISIONS
from domain.tournament.log import TournamentStatus, config_of, game_id_for, pairing_view
from domain.tournament.pairing import check_field, is_complete, pair_round, waits
from domain.tournament.standings import standings

UNRATED = None
"""The seeding rating recorded for a bot or a player without a rating in this game (TRN-RANK-1):
seeded after every rated entrant. Logs written before this recorded 0.0 instead, and keep it."""


ADMIN = "admin"
"""Who the log names for an action of the admin token's holder (a player is named by its player id)."""
START_AT = "start_at"
"""Who the log names for a start the tournament's own ``start_at`` made."""

REASON_CHARS = 300  # the longest reason a director's result records


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
    by = organizer or ADMIN  # who created it registers its first entrants, and starts it with them
    events += [{"type": "EntrantRegistered", "data": {"entrant": e, "by": by}} for e in entrants]
    if starts:
        events.append({"type": "TournamentStarted", "data": {"entrants": len(entrants), "by": by}})
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


def register(entrant: dict, version: int, by: str) -> Step:
    """The entrant joins (recorded under the log's ``version``: a register is no idempotent decision);
    ``by``: the player itself, the organizer or the admin."""
    return Step([{"type": "EntrantRegistered", "data": {"entrant": entrant, "by": by}}], f"register:{version}")


def find_entrant(t: dict, entrant_id: str) -> dict:
    found = [e for e in t["entrants"] if e["id"] == entrant_id]
    require(bool(found), "no_such_entrant", None, f"tournament {t['tournament']} has no entrant {entrant_id!r}")
    return found[0]


def withdraw(t: dict, entrant: dict, from_round: int | None = None, *, by: str) -> Step:
    """An entrant leaves from a round on: by default the next one to be paired, so games already
    paired play on (TRN-WD-1); from the current round, its table there that has no result yet is
    forfeited by it (TRN-WD-2, TRN-DIR-1), and its game aborted by the service. ``by``: the entrant's
    player, the organizer or the admin, named in the withdrawal and in any forfeit it makes."""
    require(t["status"] != TournamentStatus.FINISHED, "tournament_finished", None, "the tournament has finished")
    require(not entrant["withdrawn"], "already_withdrawn", "TRN-WD-1", f"{entrant['id']} has withdrawn already")
    rounds = t["rounds"]
    following = len(rounds) + 1
    current = rounds[-1]["round"] if rounds and not rounds[-1]["completed"] else None
    when = following if from_round is None else from_round
    allowed = [r for r in (current, following) if r is not None]
    require(is_int(when) and when in allowed, "bad_round", "TRN-WD-2",
            f"{entrant['id']} may withdraw from round {' or '.join(map(str, allowed))} "
            f"(the round being played, or the next one to be paired), not from round {when}")
    events = [{"type": "EntrantWithdrew", "data": {"entrant": entrant["id"], "from_round": when, "by": by}}]
    if when == current:
        for i, table in enumerate(rounds[-1]["tables"]):
            if entrant["id"] in table["seats"] and _decidable(config_of(t), table):
                events.append(decided_event(t, when, i, {"kind": "forfeit", "losers": [entrant["id"]],
                                                    "reason": f"withdrew from round {when}"}, by))
    return Step(events, f"withdraw:{entrant['id']}")


def decide_result(t: dict, round_no: int, index: int, body: dict, by: str) -> Step:
    """A director's result for a table of the round being played (TRN-DIR-1): ``body`` is
    ``{kind, reason, losers?, places?, scores?}``. The result stands over whatever the table's
    game does (the service aborts it if it still runs)."""
    event = decided_event(t, round_no, index, body, by)
    return Step([event], f"decide:{event['data']['game_id']}")


def decided_event(t: dict, round_no: object, index: object, body: dict, by: str) -> dict:
    """The ``ResultDecided`` of a table (TRN-DIR-1), or Illegal; the verifier re-runs it on each one logged."""
    require(t["status"] == TournamentStatus.RUNNING, "tournament_not_running", "TRN-DIR-1",
            f"results are decided while the tournament runs; it is {t['status']}")
    table = _table(t, round_no, index, "TRN-DIR-1")
    require(round_no == len(t["rounds"]) and not t["rounds"][-1]["completed"], "round_completed", "TRN-DIR-1",
            f"round {round_no} is completed; only the round being played is decided (a correction changes a "
            "result: TRN-DIR-3)")
    config = config_of(t)
    require(table.get("decision") is None, "already_decided", "TRN-DIR-1",
            f"table {index} of round {round_no} was decided already (a correction changes it: TRN-DIR-3)")
    require(_decidable(config, table), "result_recorded", "TRN-DIR-1",
            f"table {index} of round {round_no} has its game's result already (a correction changes it: TRN-DIR-3)")
    return {"type": "ResultDecided", "data": _director_result(config, table, round_no, index, body, by)}


def correct_result(t: dict, round_no: int, index: int, body: dict, by: str) -> Step:
    """A director's correction of a table's recorded result (TRN-DIR-3): ``body`` as for
    ``decide_result``. Each correction of a table is a command of its own."""
    event = corrected_event(t, round_no, index, body, by)
    done = len(t["rounds"][round_no - 1]["tables"][index].get("corrections", []))
    return Step([event], f"correct:{event['data']['game_id']}:{done + 1}")


def corrected_event(t: dict, round_no: object, index: object, body: dict, by: str) -> dict:
    """The ``ResultCorrected`` of a table that has a result (TRN-DIR-3), naming the ``previous``
    result it replaces, or Illegal; the verifier re-runs it on each one logged."""
    require(t["status"] == TournamentStatus.RUNNING, "tournament_not_running", "TRN-DIR-3",
            f"results are corrected while the tournament runs; it is {t['status']}")
    table = _table(t, round_no, index, "TRN-DIR-3")
    config = config_of(t)
    require(config.format != "knockout" or not t["rounds"][round_no - 1]["completed"], "knockout_settled",
            "TRN-DIR-3", f"round {round_no} of the knockout is completed: who advanced from it was paired on")
    require(not _decidable(config, table), "no_result_to_correct", "TRN-DIR-3",
            f"table {index} of round {round_no} has no result to correct; decide it (TRN-DIR-1)")
    data = _director_result(config, table, round_no, index, body, by)
    require(data["result"] != table["result"], "same_result", "TRN-DIR-3",
            f"table {index} of round {round_no} has this result already")
    return {"type": "ResultCorrected", "data": {**data, "previous": table["result"]}}


def _table(t: dict, round_no: object, index: object, rule: str) -> dict:
    """Table ``index`` of the paired round ``round_no``, or Illegal citing ``rule``."""
    rounds = t["rounds"]
    require(is_int(round_no) and is_int(index) and 1 <= round_no <= len(rounds)
            and 0 <= index < len(rounds[round_no - 1]["tables"]), "no_such_table", rule,
            f"round {round_no} has no table {index} (tables are numbered from 0 in each paired round)")
    return rounds[round_no - 1]["tables"][index]


def _director_result(config: Config, table: dict, round_no: int, index: int, body: dict, by: str) -> dict:
    """A director's result from its request ``{kind, reason, losers?, places?, scores?}``: what
    TRN-DIR-1 decides and TRN-DIR-3 corrects to, or Illegal (the kind's own rules: TRN-DIR-1, TRN-DIR-2)."""
    kind = body.get("kind")
    require(kind in DECISIONS, "bad_decision", "TRN-DIR-1", f"kind is one of {list(DECISIONS)}, not {kind!r}")
    reason = body.get("reason")
    require(isinstance(reason, str) and 0 < len(reason.strip()) <= REASON_CHARS, "reason_required", "TRN-DIR-1",
            f"a director's result gives its reason (1-{REASON_CHARS} characters)")
    seats = table["seats"]
    data = {"round": round_no, "table": index, "game_id": table["game_id"], "kind": kind,
            "reason": reason.strip(), "by": by}
    if kind in ("forfeit", "walkover"):
        losers = body.get("losers")
        require(isinstance(losers, list) and 0 < len(losers) < len(seats) and len(set(losers)) == len(losers)
                and all(e in seats for e in losers), "bad_losers", "TRN-DIR-1",
                f"losers names the entrants of this table ({', '.join(seats)}) who "
                f"{'forfeit' if kind == 'forfeit' else 'never came'}: at least one, not all (everyone forfeiting is "
                "a double_forfeit)")
        winners = [e for e in seats if e not in losers]
        places = {e: 1 if e in winners else len(winners) + 1 for e in seats}
        data["losers"] = [e for e in seats if e in losers]
        result = {"places": places, "scores": {e: 0 for e in seats}}
    elif kind == "double_forfeit":
        require(config.format != "knockout", "knockout_needs_winner", "TRN-DIR-2",
                "a knockout table is decided with a winner: a forfeit, a walkover or an adjudicated result")
        result = {"places": {e: None for e in seats}, "scores": {e: 0 for e in seats}}
    else:
        places, scores = body.get("places"), body.get("scores") or {}
        require(isinstance(places, dict) and set(places) == set(seats) and all(is_int(p) for p in places.values())
                and all(p == 1 + sum(q < p for q in places.values()) for p in places.values()),
                "bad_places", "TRN-DIR-1", f"places gives each entrant of this table ({', '.join(seats)}) its place, "
                "ties sharing one and skipping the places they cover (1, 1, 3)")
        require(isinstance(scores, dict) and set(scores) <= set(seats) and all(is_int(v) for v in scores.values()),
                "bad_scores", "TRN-DIR-1", "scores gives whole game scores to entrants of this table")
        result = {"places": {e: places[e] for e in seats}, "scores": {e: scores.get(e, 0) for e in seats}}
    data["result"] = {**result, "outcome": kind}
    return data


DIRECTOR_EVENTS = {"ResultDecided": decided_event, "ResultCorrected": corrected_event}
"""A director's result events, each with the check that makes it: the service aborts the games of
the tables they settle, and the verifier re-runs each logged one through its check."""


def decision_request(data: dict) -> dict:
    """What a logged ``ResultDecided`` or ``ResultCorrected`` was asked with (the body ``decided_event``
    and ``corrected_event`` take)."""
    body = {"kind": data.get("kind"), "reason": data.get("reason"), "losers": data.get("losers")}
    if data.get("kind") == "adjudicated":
        body.update(places=(data.get("result") or {}).get("places"), scores=(data.get("result") or {}).get("scores"))
    return body


def _decidable(config: Config, table: dict) -> bool:
    """No result yet, or an aborted knockout game nobody decided (TRN-DIR-2)."""
    return table.get("decision") is None and waits(config, table)


def start(t: dict, by: str) -> Step:
    """Close registration (TRN-START-1): the field present must suit the format. ``by``: the organizer,
    the admin, or ``START_AT`` (the tournament's own start time)."""
    require(t["status"] == TournamentStatus.REGISTERING, "already_started", "TRN-START-1",
            f"the tournament is {t['status']}")
    here = [e for e in t["entrants"] if not e["withdrawn"]]
    check_field(config_of(t), len(here))
    return Step([{"type": "TournamentStarted", "data": {"entrants": len(here), "by": by}}], f"start:{t['tournament']}")


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
        if any(waits(config, table) for table in current["tables"]):
            return None  # games still running, or an aborted knockout game awaits the director (TRN-DIR-2)
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

