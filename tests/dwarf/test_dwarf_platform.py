"""DWARF served by the platform on a real Redis: a solo game at each level (the automaton's
steps appended as game-driven actor steps) and 2-5 seat bot games run to the end, and
their exports verify (a replay re-runs every seat command and every automaton step)."""
from __future__ import annotations

import pytest

from application.replay import verify

TABLES = [(1, "greedy", {"solo_level": level}) for level in ("eldhusfifl", "andvettr", "andvettr-fadir")] + \
    [(n, bot, {}) for n, bot in ((2, "greedy"), (3, "andvettr"), (4, "random"), (5, "eldhusfifl"))]


@pytest.mark.parametrize("seats,bot,options", TABLES,
                         ids=[f"{t[0]}-{t[1]}-{t[2].get('solo_level', 'seats')}" for t in TABLES])
def test_DW_SOLO_1_DW_COMB_1_games_on_the_platform_end_and_verify(service, seats, bot, options):
    """DW-SOLO-1, DW-SOLO-4, DW-COMB-1: one POST creates the game; bots and the automaton
    play it to the end; the export verifies."""
    gid = service.create("dwarf", [{"name": f"{bot}{i}", "bot": bot} for i in range(seats)], options)["id"]
    actor_steps = 0
    for _ in range(3000):
        g = service.load(gid)
        if g.game.is_terminal(g.state):
            break
        if g.game.turn(g.state).actor:
            assert service.actor_turn(gid, g.version) is not None
            actor_steps += 1
        else:
            assert service.bot_turn(gid, g.version) is not None
    assert service.finalize(gid)
    assert (actor_steps > 0) == (seats == 1)
    board = service.load(gid)
    assert board.game.scores(board.state).final
    verdict = verify(list(service.export(gid, admin=False)))
    assert verdict.ok, verdict.problems


HUMAN_TABLES = [[{"name": "you"}]] * 3 + [[{"name": "you"}, {"name": "g", "bot": "greedy"}, {"name": "a", "bot": "andvettr"}]]
HUMAN_OPTIONS = [{"solo_level": level} for level in ("eldhusfifl", "andvettr", "andvettr-fadir")] + [{}]


@pytest.mark.parametrize("seats,options", list(zip(HUMAN_TABLES, HUMAN_OPTIONS)),
                         ids=["eldhusfifl", "andvettr", "andvettr-fadir", "3-seats"])
def test_DW_SOLO_2_DW_AMB_14_a_human_seat_through_the_api_to_a_verified_end(client, service, seats, options):
    """DW-SOLO-2, DW-AMB-14, DW-END: the README's client loop over HTTP: one POST creates the
    game, the human seat posts the first legal command (an ``order`` too when one is asked)
    at the listed version, the automaton and the bots move in between; the game ends, the
    scores are final and the export verifies at /v1/audit/verify."""
    created = client.post("/v1/games", json={"game": "dwarf", "seats": seats, "options": options})
    assert created.status_code == 201, created.json
    gid, token = created.json["id"], created.json["seats"][0]["token"]
    me = {"Authorization": f"Bearer {token}"}
    for _ in range(3000):
        summary = client.get(f"/v1/games/{gid}", headers=me).json
        g = service.load(gid)
        if g.game.is_terminal(g.state):
            break
        legal = client.get(f"/v1/games/{gid}/legal-actions", headers=me).json
        if legal["commands"]:
            move = {"expected_version": legal["version"], "command": legal["commands"][0]}
            assert client.post(f"/v1/games/{gid}/actions", json=move, headers=me).status_code == 201
        elif g.game.turn(g.state).actor:
            assert service.actor_turn(gid, summary["version"]) is not None
        else:
            assert service.bot_turn(gid, summary["version"]) is not None
    assert service.finalize(gid)
    assert client.get(f"/v1/games/{gid}/scores").json["final"]
    export = client.get(f"/v1/games/{gid}/export")
    verdict = client.post("/v1/audit/verify", data=export.data, content_type="application/x-ndjson").json
    assert verdict["ok"], verdict["problems"]


def test_DW_SOLO_4_the_moves_list_says_what_the_automaton_placed(client, service):
    """GET /moves words each automaton step by its placement, as a seat's placement is worded,
    not "automaton plays"."""
    gid = service.create("dwarf", [{"name": "g", "bot": "greedy"}], {"solo_level": "andvettr"})["id"]
    for _ in range(12):
        g = service.load(gid)
        assert service.actor_turn(gid, g.version) if g.game.turn(g.state).actor else service.bot_turn(gid, g.version)
    moves = client.get(f"/v1/games/{gid}/moves").json["moves"]
    steps = [m["label"] for m in moves if m["actor"] == "automaton"]
    assert len(steps) >= 4 and all(x.startswith(("Place a worker on ", "Pass: ")) for x in steps), steps
