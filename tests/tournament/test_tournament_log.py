"""The tournament log as an aggregate: folded by the store like a game's log, failing loudly on
what it does not know, and decided by pure functions (domain/tournament/log.py, decide.py)."""
from __future__ import annotations

import pytest

from domain.core import Illegal
from domain.kit import UnknownEvent
from domain.tournament import Config, decide
from domain.tournament.log import TOURNAMENT, fold

CONFIG = Config.parse({"format": "swiss", "table_size": 2, "rounds": 1}, min_players=2, max_players=2)


def created(entrants: int, start_at: str | None = None) -> list[dict]:
    bots = []
    for _ in range(entrants):
        bots.append(decide.bot_entrant(bots, "random", {"random": None}))
    return decide.created("t1", name="cup", game="tiny", options={}, config=CONFIG, rules_version="tiny-1",
                          clock=None, start_at=start_at, organizer=None, seed_commitment="00" * 32, entrants=bots)


def test_an_unknown_event_is_an_error_not_skipped():
    with pytest.raises(UnknownEvent):
        fold([*created(2), {"type": "RoundRenamed", "data": {}}])


def test_a_tournament_with_entrants_and_no_start_time_starts_in_its_first_batch():
    assert fold(created(2))["status"] == "running"
    assert fold(created(2, start_at="2030-01-01T00:00:00Z"))["status"] == "registering"


def test_TRN_CFG_2_a_field_too_small_is_refused_when_it_starts_at_once():
    with pytest.raises(Illegal) as refused:
        created(1)
    assert refused.value.rule == "TRN-CFG-2"


def test_progress_pairs_reports_completes_and_finishes():
    t = fold(created(2))
    seed = bytes(32)
    paired = decide.progress(t, seed, lambda *_: None)
    assert [e["type"] for e in paired.events] == ["RoundPaired"] and paired.command_id == "pair:t1:1"
    TOURNAMENT.evolve(t, paired.events[0])
    assert decide.progress(t, seed, lambda *_: None) is None  # its game still runs
    table = t["rounds"][0]["tables"][0]
    result = {"places": {e: i + 1 for i, e in enumerate(table["seats"])},
              "scores": {e: 0 for e in table["seats"]}, "outcome": "win"}
    report = {"type": "GameFinished", "data": {"round": 1, "table": 0, "game_id": table["game_id"],
                                               "chain_head": "ab" * 32, "result": result}}
    step = decide.progress(t, seed, lambda round_no, i, tb: report)
    assert step.events == [report] and step.command_id == f"report:{table['game_id']}"
    TOURNAMENT.evolve(t, report)
    completed = decide.progress(t, seed, lambda *_: None)
    assert [e["type"] for e in completed.events] == ["RoundCompleted"]
    TOURNAMENT.evolve(t, completed.events[0])
    finished = decide.progress(t, seed, lambda *_: None)
    assert [e["type"] for e in finished.events] == ["SeedRevealed", "TournamentFinished"]
    for ev in finished.events:
        TOURNAMENT.evolve(t, ev)
    assert t["status"] == "finished" and decide.progress(t, seed, lambda *_: None) is None
