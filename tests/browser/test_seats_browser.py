"""Issue 9 in the browser: each seat's clock in the viewer, an open game joined
from its page with a player token, and the player's page."""
from __future__ import annotations

import re

from tests.browser.test_viewer_browser import assert_clean

CLOCK = re.compile(r"^(\d+):(\d\d)$")


def _seconds(text: str) -> int:
    match = CLOCK.match(text)
    assert match, f"{text!r} is not a clock"
    return int(match[1]) * 60 + int(match[2])


def test_the_seat_to_act_has_a_running_clock(browser, site, api):
    game = site.clocked
    summary = api.get(f"/v1/games/{game.id}", headers={"Authorization": f"Bearer {game.token}"}).json()
    assert summary["active_seats"] == [0] and len(summary["clocks"]) == 3
    browser.open(f"{site.url}/web/games/{game.id}#token={game.token}")
    browser.wait("return document.querySelectorAll('#seats .clock').length === 3", what="a clock per seat")
    running = browser.js("return [...document.querySelectorAll('#seats tr')].filter((tr) => tr.querySelector("
                         "'.clock.running')).map((tr) => Number(tr.dataset.seat))")
    assert running == summary["active_seats"]
    # Waiting seats show the time the API gives them; the running one counts down from its own.
    for clock in summary["clocks"]:
        text = browser.text(f"#seats tr[data-seat='{clock['seat']}'] .clock")
        if clock["seat"] not in running:
            assert _seconds(text) == -(-clock["remaining_ms"] // 1000)
        else:
            assert _seconds(text) <= -(-clock["remaining_ms"] // 1000)
    first = _seconds(browser.text("#seats .clock.running"))
    browser.wait("return arguments[0] > 0", first, what="a clock with time left")
    browser.wait("const t = document.querySelector('#seats .clock.running').textContent.split(':');"
                 "return Number(t[0]) * 60 + Number(t[1]) < arguments[0]", first, what="the clock to tick down")
    assert "bot heuristic" in browser.text("#seats")
    assert_clean(browser)


def test_an_open_game_is_joined_from_its_page_and_listed_on_the_players_page(browser, site, api):
    game_id, player = site.open_game, site.player
    browser.open(f"{site.url}/web/games/{game_id}")
    browser.wait("return document.getElementById('status').textContent === 'open'", what="the open status")
    browser.wait("return document.querySelector('#board .waiting')", what="the waiting notice")
    assert browser.count("#seats .open-seat") == 1 and browser.count("#seats form.join") == 1
    assert "Waiting for players: 1 open seat(s)" in browser.text("#board")
    browser.js("document.querySelector('#seats .join-token').value = arguments[0];"
               "document.querySelector('#seats form.join button').click()", player.token)
    # Joining the last open seat starts the game; the page then shows that seat's view.
    browser.wait("return document.getElementById('status').textContent === 'active'", what="the game started")
    browser.wait("return document.getElementById('who').textContent.includes('seat 0')", what="the joined seat")
    summary = api.get(f"/v1/games/{game_id}").json()
    assert summary["status"] == "active" and summary["seats"][0]["player"] == player.id
    browser.wait("return document.querySelector('#board .hand')", what="the player's own hand")
    browser.wait("return document.querySelector('#seats a.player-link')", what="the link to the player's page")
    browser.click("#seats a.player-link")
    browser.wait("return document.body.classList.contains('player') && "
                 "document.querySelectorAll('#player-games tr.game-row').length > 0", what="the player's page")
    assert "Ada" in browser.text("#title")
    assert any(game_id in row for row in browser.texts("#player-games tr.game-row"))
    assert_clean(browser)


def test_an_unknown_player_is_told_in_the_page(browser, site):
    browser.open(f"{site.url}/web/players/p-nobody")
    browser.wait("return document.getElementById('message').textContent.includes('There is no player')",
                 what="the missing-player message")
    assert [f["status"] for f in browser.problems()["failed"]] == [404]


def test_a_private_game_is_joined_from_its_invite_link(browser, site, api):
    """The invite link (#token=<invite token>) lets a player who is not the creator take the open
    seat: the page sends the invite with the join, as the API asks of a private game."""
    from tests.browser.site import _bot_seats, now_iso

    created = site.service.create("saboteur", [{"open": True}, *_bot_seats(["heuristic", "random"])], {},
                                  visibility="private")
    game_id, invite = created["id"], created["invite_token"]
    player, token = site.service.players.register("Grace", now_iso())
    refused = api.post(f"/v1/games/{game_id}/join", json={}, headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 403 and refused.json()["code"] == "private_game"
    browser.open(f"{site.url}/web/games/{game_id}#token={invite}")
    browser.wait("return document.querySelector('#seats form.join')", what="the join form")
    browser.js("document.querySelector('#seats .join-token').value = arguments[0];"
               "document.querySelector('#seats form.join button').click()", token)
    browser.wait("return document.getElementById('status').textContent === 'active'", what="the game started")
    assert api.get(f"/v1/games/{game_id}", headers={"Authorization": f"Bearer {invite}"}).json()[
        "seats"][0]["player"] == player.id
