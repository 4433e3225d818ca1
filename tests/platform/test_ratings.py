"""Ratings (issue 9): openskill Plackett-Luce per game id, once per finished game, players and bots."""
from __future__ import annotations

import threading

import pytest

from application import joining
from application.ratings import MODEL, bot_id, left_out, rate_finished, skipped
from workers import table
from workers.follower import Follow

RATINGS = next(f for f in table.FOLLOWERS if f.name == "ratings")

AT = "2026-01-01T00:00:00.000Z"


def board(*places):
    return {"seats": [{"seat": i, "place": p} for i, p in enumerate(places)],
            "participants": [{"id": f"seat:{i}", "place": p} for i, p in enumerate(places)],
            "outcome": {"kind": "win"}}


def seats(*pids):
    return [{"seat": i, "name": p, "bot": None, "player": p} for i, p in enumerate(pids)]


def finished_game(service, players, guesses):
    """A tiny game joined by ``players`` and played to its end with the given guesses."""
    gid = service.create("tiny", [{"open": True}] * len(players), {"turns": len(guesses)})["id"]
    for p in players:
        joining.join(service, gid, p)
    for digit in guesses:
        g = service.load(gid)
        seat = min(g.game.active_seats(g.state))
        service.submit(gid, seat, g.version, {"type": "guess", "target": 1 - seat, "digit": digit}, f"c{g.version}")
    assert service.finalize(gid)
    return gid


def test_a_finished_game_moves_both_ratings_once(service):
    ann = service.players.register("ann", AT)[0]
    bob = service.players.register("bob", AT)[0]
    gid = finished_game(service, [ann, bob], range(10))
    assert rate_finished(service, gid)
    assert not rate_finished(service, gid)  # redelivered: nothing more
    assert Follow(service, RATINGS).step() >= 1  # the follower sees the GameFinished: rated already
    a, b = service.ratings.of("tiny", ann.id), service.ratings.of("tiny", bob.id)
    assert a["games"] == b["games"] == 1 and a["sigma"] < 25 / 3 and b["sigma"] < 25 / 3
    scores = service.scores(gid)
    if scores["seats"][0]["place"] == scores["seats"][1]["place"]:
        assert a["mu"] == pytest.approx(b["mu"])
    else:
        winner = scores["ranking"][0]
        assert (a, b)[winner]["mu"] > 25 > (a, b)[1 - winner]["mu"]
    lines = service.ratings.leaderboard("tiny")["players"]
    assert [line["ordinal"] for line in lines] == sorted((line["ordinal"] for line in lines), reverse=True)
    assert {line["player"] for line in lines} == {ann.id, bob.id} and lines[0]["name"] in ("ann", "bob")
    assert service.ratings.history(ann.id)[0]["game_id"] == gid


def test_ties_are_shared_and_matches_openskill(service):
    assert service.ratings.rate("tiny", "g1", seats("pa", "pb", "pc"), board(1, 1, 3), AT)
    a, b, c = (service.ratings.of("tiny", p) for p in ("pa", "pb", "pc"))
    assert a == b and a["mu"] > c["mu"]
    expected = MODEL.rate([[MODEL.rating()], [MODEL.rating()], [MODEL.rating()]], ranks=[1, 1, 3])
    assert a["mu"] == pytest.approx(expected[0][0].mu) and c["sigma"] == pytest.approx(expected[2][0].sigma)


def test_teams_are_rated_as_teams(service):
    """Mountain King 2v2: teammates share a place; rated as two teams of two, not four tied sides."""
    service.ratings.rate("tiny", "g2", seats("pa", "pb", "pc", "pd"), board(1, 2, 2, 1), AT, teams=[[0, 3], [1, 2]])
    a, b, c, d = (service.ratings.of("tiny", p) for p in ("pa", "pb", "pc", "pd"))
    assert a == d and b == c and a["mu"] > b["mu"]
    expected = MODEL.rate([[MODEL.rating(), MODEL.rating()], [MODEL.rating(), MODEL.rating()]], ranks=[1, 2])
    assert a["mu"] == pytest.approx(expected[0][0].mu) and b["mu"] == pytest.approx(expected[1][0].mu)
    assert a["mu"] - 25 == pytest.approx(1.96, abs=0.01)  # four tied sides gave +0.93
    assert a["sigma"] == pytest.approx(expected[0][0].sigma)


def test_a_free_for_all_is_rated_seat_by_seat(service):
    service.ratings.rate("tiny", "g2b", seats("pa", "pb", "pc", "pd"), board(1, 2, 2, 1), AT)
    a, b = service.ratings.of("tiny", "pa"), service.ratings.of("tiny", "pb")
    expected = MODEL.rate([[MODEL.rating()] for _ in range(4)], ranks=[1, 2, 2, 1])
    assert a["mu"] == pytest.approx(expected[0][0].mu) and b["mu"] == pytest.approx(expected[1][0].mu)


def test_mountain_king_names_its_2v2_teams():
    from domain import registry
    from domain.core import Drbg
    from domain.kit.driver import table
    game = registry.get("mountain-king")
    seats4 = table(game, 4)
    for options, teams in (({"teams": True, "start_player": 1}, [[1, 0], [2, 3]]), ({}, None)):
        opts = game.validate_options(options, 4)
        state = game.initial_state()
        for e in game.start(opts, seats4, Drbg(b"s" * 32, "start")):
            state = game.evolve(state, e)
        assert game.teams(state) == teams
    assert registry.get("tiny").teams(None) is None  # every other game: each seat for itself


def test_one_bot_in_several_seats_is_not_rated(service):
    """A bot 3rd and 1st does not "beat" the player 2nd: its seats are left out of the game's rating."""
    table_ = [{"seat": 0, "name": "r1", "bot": "random"}, {"seat": 1, "name": "ann", "bot": None, "player": "pa"},
              {"seat": 2, "name": "r2", "bot": "random"}, {"seat": 3, "name": "bob", "bot": None, "player": "pb"}]
    assert service.ratings.rate("tiny", "g6", table_, board(3, 2, 1, 4), AT)
    assert service.ratings.of("tiny", bot_id("random")) is None
    a, b = service.ratings.of("tiny", "pa"), service.ratings.of("tiny", "pb")
    expected = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[2, 4])
    assert a["mu"] == pytest.approx(expected[0][0].mu) and b["mu"] == pytest.approx(expected[1][0].mu)
    assert not service.ratings.rate("tiny", "g7", table_[:3], board(3, 2, 1), AT)  # one rated side left


def test_bots_have_identities_and_anonymous_seats_are_not_rated(service):
    gid = service.create("tiny", [{"name": "anon"}, {"name": "r", "bot": "random"}], {"turns": 2})["id"]
    while not service.finalize(gid):
        g = service.load(gid)
        seat = min(g.game.active_seats(g.state))
        service.submit(gid, seat, g.version, {"type": "pass"}, f"c{g.version}")
    assert not rate_finished(service, gid)  # one rated side only: the bot
    ann = service.players.register("ann", AT)[0]
    service.ratings.rate("tiny", "g3", [{"seat": 0, "name": "ann", "bot": None, "player": ann.id},
                                        {"seat": 1, "name": "r", "bot": "random"}], board(2, 1), AT)
    assert service.ratings.of("tiny", bot_id("random"))["mu"] > 25
    assert service.players.get(bot_id("random")).name == "random (bot)"


def test_aborted_games_are_not_rated(service):
    scores = {**board(1, 2), "outcome": {"kind": "aborted"}}
    assert not service.ratings.rate("tiny", "g4", seats("pa", "pb"), scores, AT)
    assert service.ratings.of("tiny", "pa") is None


def test_why_a_game_moves_no_rating_and_which_seats_are_left_out():
    """The reasons ``rate`` skips a game on, as a page words them (``verdict``)."""
    assert skipped(seats("pa", "pb"), board(1, 2), None) is None
    assert skipped(seats("pa", "pb"), {**board(1, 2), "outcome": {"kind": "aborted"}}, None) == "aborted"
    assert skipped(seats("pa"), board(1), None) == "solo"  # DWARF or Indagar against the game itself
    assert skipped(seats("pa", "pb"), board(1, 2), [[0, 1]]) == "one_rated_side"
    table_ = [{"seat": 0, "name": "r1", "bot": "random"}, {"seat": 1, "name": "anon", "bot": None},
              {"seat": 2, "name": "r2", "bot": "random"}, {"seat": 3, "name": "ann", "bot": None, "player": "pa"}]
    assert skipped(table_, board(1, 2, 3, 4), None) == "one_rated_side"
    assert left_out(table_) == [{"seat": 0, "why": "shared"}, {"seat": 1, "why": "anonymous"},
                                {"seat": 2, "why": "shared"}]


def test_the_scores_say_whether_the_game_moved_ratings_and_why_not(client, service):
    """A game's page and a player's page said nothing of a game that moved no rating: its scores
    carry the rating line, pending until the rating job has run."""
    ann = service.players.register("ann", AT)[0]
    bob = service.players.register("bob", AT)[0]
    gid = finished_game(service, [ann, bob], range(10))
    assert client.get(f"/v1/games/{gid}/scores").json["rating"] == {"status": "pending", "reason": None, "left_out": []}
    rate_finished(service, gid)
    assert client.get(f"/v1/games/{gid}/scores").json["rating"]["status"] == "rated"
    gid = service.create("tiny", [{"name": "anon"}, {"name": "r", "bot": "random"}], {"turns": 2})["id"]
    assert client.get(f"/v1/games/{gid}/scores").json["rating"] is None  # running
    while not service.finalize(gid):
        g = service.load(gid)
        service.submit(gid, min(g.game.active_seats(g.state)), g.version, {"type": "pass"}, f"c{g.version}")
    assert client.get(f"/v1/games/{gid}/scores").json["rating"] == {
        "status": "skipped", "reason": "one_rated_side", "left_out": [{"seat": 0, "why": "anonymous"}]}


def test_concurrent_rating_jobs_lose_no_update(service):
    go = threading.Barrier(6)

    def rate(n):
        go.wait()
        service.ratings.rate("tiny", f"race{n}", seats("pa", "pb"), board(1, 2), AT)

    threads = [threading.Thread(target=rate, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert service.ratings.of("tiny", "pa")["games"] == 6 == service.ratings.of("tiny", "pb")["games"]


def test_profile_and_leaderboard_over_http(client):
    service = client.application.extensions["delve.service"]
    ann = client.post("/v1/players", json={"name": "ann"}).json
    service.ratings.rate("tiny", "g5", seats(ann["id"], "pz"), board(1, 2), AT)
    profile = client.get(f"/v1/players/{ann['id']}").json
    assert profile["ratings"]["tiny"]["games"] == 1 and profile["rating_history"][0]["game_id"] == "g5"
    lines = client.get("/v1/ratings/tiny").json
    assert lines["game"] == "tiny" and lines["players"][0]["player"] == ann["id"]
    assert lines["players"][0]["name"] == "ann"
    assert client.get("/v1/ratings/nope").json["code"] == "unknown_game"
    full = client.get("/v1/ratings/tiny?limit=1")  # two rated: ann and pz
    assert full.headers["Link"] == '</v1/ratings/tiny?offset=1&limit=1>; rel="next"'
    last = client.get("/v1/ratings/tiny?offset=1&limit=2")
    assert len(last.json["players"]) == 1 and "Link" not in last.headers
