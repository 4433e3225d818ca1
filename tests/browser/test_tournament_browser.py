"""The tournament page in headless Chromium: standings, rounds, a link to every
game's viewer, the lobby's list, and live updates while a tournament is played."""
from __future__ import annotations

from tests.browser.test_viewer_browser import assert_clean


def _entrant_names(t: dict) -> dict[str, str]:
    return {e["id"]: e["name"] for e in t["entrants"]}


def assert_page_shows(browser, t: dict) -> None:
    """Standings in the API's order, one block per round, one viewer link per table."""
    names = _entrant_names(t)
    browser.wait("return document.querySelectorAll('#standings tbody tr').length === arguments[0]",
                 len(t["standings"]), what="a standings row per entrant")
    assert browser.texts("#standings tbody td:nth-child(2)") == [names[s["entrant"]] for s in t["standings"]]
    assert [float(x) for x in browser.texts("#standings td.total")] == [s["points"] for s in t["standings"]]
    assert browser.count("#rounds section.round") == len(t["rounds"])
    tables = [tb for r in t["rounds"] for tb in r["tables"]]
    links = browser.js("return [...document.querySelectorAll('#rounds a.game-link')].map((a) => a.getAttribute('href'))")
    assert sorted(links) == sorted(f"/web/games/{tb['game_id']}" for tb in tables)
    for tb in tables:
        if tb["result"]:  # each seat's place, named, in its table's row
            row = browser.js("return [...document.querySelectorAll('#rounds tr.table-row')]"
                             ".find((tr) => tr.textContent.includes(arguments[0])).textContent", tb["game_id"])
            for entrant, place in tb["result"]["places"].items():
                assert f"{names[entrant]}: #{place}" in row


def test_a_finished_tournament_shows_standings_rounds_and_links_to_every_game(browser, site, api):
    t = api.get(f"/v1/tournaments/{site.tournament}").json()
    assert t["status"] == "finished"
    browser.open(f"{site.url}/web/tournaments/{site.tournament}")
    browser.wait("return document.getElementById('status').textContent === 'finished'", what="the status badge")
    assert "Browser cup" in browser.text("#title")
    assert_page_shows(browser, t)
    assert browser.count(f"#audit a[href='/v1/tournaments/{site.tournament}/bundle']") == 1
    assert t["seed"] in browser.text("#audit")
    # A table's link opens that game's viewer.
    game_id = t["rounds"][-1]["tables"][0]["game_id"]
    browser.click(f"#rounds a[href='/web/games/{game_id}']")
    browser.wait("return document.body.dataset.gameId === arguments[0] && "
                 "document.getElementById('status').textContent === 'finished'", game_id, what="the game's viewer")
    assert_clean(browser)


def test_the_lobby_lists_tournaments(browser, site):
    browser.open(f"{site.url}/web")
    for tid in (site.tournament, site.running_tournament):
        browser.wait("return document.querySelector(`#tournaments a[href='/web/tournaments/${arguments[0]}']`)", tid,
                     what=f"the lobby's link to {tid}")
    assert "Browser cup" in browser.text("#tournaments")
    assert_clean(browser)


def test_a_running_tournament_updates_live_to_its_end(browser, site, api):
    tid = site.running_tournament
    assert api.get(f"/v1/tournaments/{tid}").json()["status"] == "running"
    browser.open(f"{site.url}/web/tournaments/{tid}")
    browser.wait("return document.getElementById('live-state').textContent === 'following the tournament live'",
                 what="the live stream")
    assert browser.text("#status") == "running"
    # Its rounds are paired and played by the jobs while the page stays open.
    final = site.finish_running_tournament()
    browser.wait("return document.getElementById('status').textContent === 'finished'", what="the end, live")
    browser.wait("return document.getElementById('live-state').textContent === 'the tournament has finished'",
                 what="the stream's end")
    browser.wait("return document.querySelectorAll('#rounds section.round').length === arguments[0]",
                 len(final["rounds"]), what="every round")
    assert_page_shows(browser, final)
    assert_clean(browser)


def test_an_unknown_tournament_is_told_in_the_page(browser, site):
    browser.open(f"{site.url}/web/tournaments/t0000000000000000")
    browser.wait("return document.getElementById('message').textContent.includes('There is no tournament')",
                 what="the missing-tournament message")
    assert [f["status"] for f in browser.problems()["failed"]] == [404]
