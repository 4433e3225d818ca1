"""What drives a tournament: its followers (a crash between pairing and game creation,
a re-read entry), the start_at timer, clocks and adjudication (application/tournaments.py,
workers/table.py, workers/tournament_reactor.py)."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from domain.tournament.log import game_id_for
from errors import GameNotFound
from application import clocks, consent
from application import tournament_games
from application.tournament_verify import verify_bundle
from application.tournaments import TournamentService
from workers import table
from workers.follower import Follow
from workers.tournament_reactor import TournamentReactor
from tests.tournament.test_tournament_service import bots, driver, ts  # noqa: F401 - fixtures

CLOCK = {"per_move_s": 5, "on_timeout": "forfeit"}
FOLLOWERS = {f.name: f for f in table.FOLLOWERS}


class Killed(Exception):
    """Stands for the worker dying at this point of the job."""


def _types(ts, tid):
    return [e["type"] for e in ts.events(tid, limit=1000)]


def _exists(service, gid) -> bool:
    try:
        service.store.meta(gid)
        return True
    except GameNotFound:
        return False


def test_an_advance_killed_between_pairing_and_creating_the_games_is_repaired_by_the_rerun(ts, monkeypatch):
    """The advance appends RoundPaired (game ids derived from tournament, round, table), then
    creates the games; killed after the pairing, and again after one game of two, the
    follower stays at the entry, and its next step (in a fresh process) creates the
    missing game only; no run pairs the round twice."""
    t = ts.create({"game": "tiny", "format": "swiss", "table_size": 2, "rounds": 2, "options": {"turns": 1},
                   "entrants": bots(4)})
    tid = t["id"]
    ids = [game_id_for(tid, 1, 0), game_id_for(tid, 1, 1)]
    real = tournament_games.ensure

    def killed(*args):
        raise Killed()
    monkeypatch.setattr(tournament_games, "ensure", killed)
    assert Follow(ts.games, FOLLOWERS["tournaments"]).step() == 0  # the policy died: the entry waits
    assert _types(ts, tid).count("RoundPaired") == 1 and not any(_exists(ts.games, g) for g in ids)
    assert [t["game_id"] for t in ts.get(tid)["rounds"][0]["tables"]] == ids

    made = []

    def one_then_killed(games, tid_, t_, round_no, tb):
        if made:
            raise Killed()
        made.append(tb["game_id"])
        return real(games, tid_, t_, round_no, tb)
    monkeypatch.setattr(tournament_games, "ensure", one_then_killed)
    with pytest.raises(Killed):
        TournamentService(ts.games).advance(tid)
    assert made == ids[:1] and _exists(ts.games, ids[0]) and not _exists(ts.games, ids[1])
    head = ts.games.store.meta(ids[0])["head"]

    monkeypatch.setattr(tournament_games, "ensure", real)
    assert Follow(ts.games, FOLLOWERS["tournaments"]).step() >= 1  # from its tracked position, in a fresh process
    assert all(_exists(ts.games, g) for g in ids)
    assert ts.games.store.meta(ids[0])["head"] == head  # found, not created again
    assert ts.games.store.meta(ids[1])["tournament"] == tid
    assert TournamentService(ts.games).advance(tid) is False  # once more: nothing to do
    assert Follow(ts.games, FOLLOWERS["tournaments"]).step() == 0  # each entry was applied once
    assert _types(ts, tid).count("RoundPaired") == 1


def test_the_rerun_tournament_plays_out_and_verifies(ts, driver, monkeypatch):  # noqa: F811
    """After a killed advance, the followers and jobs carry the tournament to the end."""
    calls = []
    real = tournament_games.ensure

    def killed_once(*args):
        if not calls:
            calls.append(1)
            raise Killed()
        return real(*args)
    monkeypatch.setattr(tournament_games, "ensure", killed_once)
    t = ts.create({"game": "tiny", "format": "round-robin", "table_size": 2, "options": {"turns": 1},
                   "entrants": bots(4)})
    with pytest.raises(Killed):
        ts.advance(t["id"])
    from delve.tournament import play_out
    done = play_out(ts, t["id"], driver)
    assert done["status"] == "finished" and len(done["rounds"]) == 3
    assert verify_bundle(list(ts.bundle(t["id"]))).ok


def test_TRN_START_1_start_at_is_a_timer_job(ts):
    at = datetime(2030, 5, 1, 12, 0, 0, tzinfo=timezone.utc)
    t = ts.create({"game": "tiny", "format": "swiss", "table_size": 2, "rounds": 1, "options": {"turns": 1},
                   "entrants": bots(2), "start_at": "2030-05-01T14:00:00+02:00"})
    assert t["status"] == "registering" and t["start_at"] == "2030-05-01T12:00:00Z"
    due = table.tournament_due(ts.state(t["id"])[0])
    assert [(k.name, when) for k, when in due] == [("tstart", at)]
    assert table.OPENING.job_id(t["id"], 3) == f"tstart-{t['id']}"  # one timer per tournament
    assert ts.start_when_due(t["id"], now=at - timedelta(seconds=1)) is False
    assert ts.get(t["id"])["status"] == "registering"
    assert ts.start_when_due(t["id"], now=at) is True  # starts, and pairs round 1 in the same job
    after = ts.get(t["id"])
    assert after["status"] == "running" and len(after["rounds"]) == 1
    started = [e["data"] for e in ts.events(t["id"], limit=100) if e["type"] == "TournamentStarted"]
    assert started == [{"entrants": 2, "by": "start_at"}]  # the log says the timer started it, not a person
    assert ts.start_when_due(t["id"], now=at) is False  # a redelivered timer does nothing


def test_TRN_START_1_a_timer_that_finds_too_few_entrants_leaves_registration_open(ts):
    t = ts.create({"game": "tiny", "format": "swiss", "table_size": 2, "options": {"turns": 1},
                   "entrants": bots(1), "start_at": "2020-01-01T00:00:00Z"})
    assert ts.start_when_due(t["id"]) is False
    assert ts.get(t["id"])["status"] == "registering"


def test_the_tournament_reactor_schedules_only_the_start_timer(ts, service):
    scheduled = []

    class Recorder:
        def schedule(self, kind, key, version, at=None):
            scheduled.append((kind, key, version, at))
            return "enqueued"
    reactor = TournamentReactor(service, Recorder(), group="g-test", start_id="0", sweep_every=0)
    t = ts.create({"game": "tiny", "format": "swiss", "table_size": 2, "options": {"turns": 1},
                   "entrants": bots(2)})
    reactor.step()
    assert scheduled == [] and t["status"] == "running"  # pairing it is the tournaments follower's
    later = ts.create({"game": "tiny", "format": "swiss", "table_size": 2, "entrants": bots(2),
                       "start_at": "2031-01-01T00:00:00Z"})
    scheduled.clear()
    reactor.sweep()  # repairs a lost enqueue from the indexes alone
    assert scheduled == [("tstart", later["id"], 3, datetime(2031, 1, 1, 0, 0, 0, tzinfo=timezone.utc))]


def _two_players(service):
    ann, _ = service.players.register("ann", "2026-01-01T00:00:00Z")
    bob, _ = service.players.register("bob", "2026-01-01T00:00:00Z")
    return ann, bob


def _entered(ts, service, body: dict, players: list) -> dict:
    """The admin's tournament, which invites ``players``; each accepts (entering in that order); started."""
    t = ts.create({**body, "entrants": [{"player": p.id} for p in players]})
    assert t["status"] == "registering" and t["invited"] == [p.id for p in players] and t["entrants"] == []
    for p in players:
        consent.accept(service, p, t["id"])
    return ts.start(t["id"])


def test_TRN_PTS_3_TRN_DIR_2_an_aborted_knockout_game_places_nobody_and_waits_for_the_director(ts, service):
    """Pairing version 3: the better seed no longer advances from an aborted game without play
    (finding 2 of issue 25; version 2's rule, TRN-KO-2, is kept for its tournaments)."""
    ann, bob = _two_players(service)
    t = _entered(ts, service, {"game": "tiny", "format": "knockout", "table_size": 2, "options": {"turns": 2},
                               "clock": CLOCK}, [bob, ann])
    ts.advance(t["id"])
    gid = ts.get(t["id"])["rounds"][0]["tables"][0]["game_id"]
    summary = service.summary(gid, None)
    assert summary["status"] == "active" and [s["player"] for s in summary["seats"]] and summary["deadline"]
    service.platform(gid, None, "abort")  # the admin aborts it
    assert service.store.meta(gid)["status"] == "aborted"
    assert Follow(service, FOLLOWERS["tournament-games"]).step() >= 1  # the GameFinished entry reports it
    done = ts.get(t["id"])
    result = done["rounds"][0]["tables"][0]["result"]
    assert result["outcome"] == "aborted" and set(result["places"].values()) == {None}
    assert done["status"] == "running" and not done["rounds"][0]["completed"]
    ts.decide_result(t["id"], 1, 0, {"kind": "adjudicated", "places": {"e0": 2, "e1": 1},
                                     "reason": "the position was won for ann"})
    ts.advance(t["id"])
    done = ts.get(t["id"])
    assert done["status"] == "finished" and done["rounds"][0]["tables"][0]["decision"]["kind"] == "adjudicated"
    assert done["standings"][0]["entrant"] == "e1"  # ann, although bob is the better seed
    assert verify_bundle(list(ts.bundle(t["id"]))).ok


def test_TRN_CLK_1_a_player_who_runs_out_of_time_is_adjudicated_by_the_clock(ts, service):
    ann, bob = _two_players(service)
    t = _entered(ts, service, {"game": "tiny", "format": "round-robin", "table_size": 2, "options": {"turns": 2},
                               "clock": CLOCK}, [ann, bob])
    ts.advance(t["id"])
    gid = ts.get(t["id"])["rounds"][0]["tables"][0]["game_id"]
    g = service.load(gid)
    assert [s["player"] for s in json.loads(g.meta["seats"])] == [ann.id, bob.id]  # seat i is entrant seats[i]
    late = (datetime.now(timezone.utc) + timedelta(seconds=60)).isoformat().replace("+00:00", "Z")
    expired = clocks.expire(service, gid, g.version, late)
    assert expired["policy"] == "forfeit"
    service.finalize(gid)
    Follow(service, FOLLOWERS["tournament-games"]).step()
    done = ts.get(t["id"])
    result = done["rounds"][0]["tables"][0]["result"]
    loser = done["rounds"][0]["tables"][0]["seats"][expired["seat"]]
    assert result["places"][loser] == 2 and done["status"] == "finished"
    assert done["standings"][0]["points"] == 1 and done["standings"][0]["entrant"] != loser
    assert verify_bundle(list(ts.bundle(t["id"]))).ok
