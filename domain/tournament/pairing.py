"""One entry point per question the platform and the verifier ask: pair the
next round, how many rounds are planned, is the tournament over."""
from __future__ import annotations

from domain.core import Drbg
from domain.tournament import knockout, round_robin, swiss
from domain.tournament.config import Config
from domain.tournament.history import active, initial_rank, read
from domain.tournament.seating import seat_order
from domain.tournament.standings import standings


def round_stream(number: int) -> str:
    """The DRBG stream of round ``number``'s draws (TRN-SEED-1)."""
    return f"round:{number}"


def pair_round(config: Config, entrants: list[dict], rounds: list[dict], seed: bytes) -> dict:
    """The next round ``{round, tables: [{seats}], byes}`` from the rounds so far.

    Pure: the same entrants (with their withdrawals), the same finished
    rounds and the same seed give the same round, which is what the
    verifier re-derives.
    """
    number = len(rounds) + 1
    rng = Drbg(seed, round_stream(number))
    h = read(config, entrants, rounds)
    rank = initial_rank(entrants)
    here = {e["id"] for e in active(entrants)}
    if config.format == "round-robin":
        paired = round_robin.pair(config, number, rank, here, h, rng)
    elif config.format == "swiss":
        order = [s["entrant"] for s in standings(config, entrants, rounds) if s["entrant"] in here]
        paired = swiss.pair(config, order, h, rng)
    else:
        paired = knockout.pair(config, knockout.remaining(rank, here, rounds, pairing=config.pairing))
        paired["tables"] = [{"seats": seat_order(t["seats"], h, rng)} for t in paired["tables"]]
    return {"round": number, **paired}


def check_field(config: Config, entrants: int) -> None:
    """Refuse a field the format cannot seat to the end (TRN-CFG-2, TRN-KO-3); raises Illegal."""
    config.check_size(entrants)
    if config.format == "knockout":
        knockout.check_field(config, entrants)


def planned_rounds(config: Config, entrants: list[dict]) -> int | None:
    """Rounds a round-robin or Swiss plays (0 for fewer than two entrants; None for a knockout: until
    one remains)."""
    return config.default_rounds(len(entrants))


def is_complete(config: Config, entrants: list[dict], rounds: list[dict]) -> bool:
    """No round may be paired any more: the last one is finished and the format is done."""
    if any(waits(config, t) for r in rounds for t in r["tables"]):
        return False
    here = {e["id"] for e in active(entrants)}
    if config.format == "knockout":
        left = knockout.remaining(initial_rank(entrants), here, rounds, pairing=config.pairing)
        return len(left) < 2 or (len(left) <= config.table_size and len(left) < config.min_table)
    return len(here) < config.table_size or len(rounds) >= (planned_rounds(config, entrants) or 0)


def waits(config: Config, table: dict) -> bool:
    """Does the round wait for this table? While it has no result, and, in a knockout from
    pairing version 3, while its game was aborted and no director has decided it (TRN-DIR-2)."""
    result = table.get("result")
    return result is None or (config.format == "knockout" and config.pairing >= 3
                              and knockout.awaits_decision(result))
