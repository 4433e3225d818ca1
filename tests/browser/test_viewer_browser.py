"""The viewer as a person sees it, in headless Chromium, for every served game:
the lobby, a finished game stepped through in replay and verified, and a live
game followed over SSE with a seat's token. The board's drawn figures are
counted against the view the API serves for the same version; a game that
declares no renderer (the house dice game) is drawn by the generic one, its
view as JSON, read back and compared."""
from __future__ import annotations

import json

import pytest

from domain import registry
from tests.browser.site import GAMES

# What each renderer (by the name a game declares) must draw, counted from the view: (CSS selector, expected count).
FIGURES = {
    "saboteur": lambda v: [("svg.maze .maze-card", len(v["maze"]))],
    "mountain-king": lambda v: [("svg.mk-board .mk-piece", len(v["pieces"])),
                                ("svg.mk-board .statue", len(v["statues"]))],
    "dwarf": lambda v: [("svg.dw-mine .dw-location", 9 * len(v["mines"])),
                        (".dw-players .first-marker", 1),
                        ("svg.dw-mine .dw-worker", sum(1 for area in v["mines"] for cell in area["mine"].values()
                                                       if cell.get("worker")))],
    "indagar": lambda v: [("svg.ind-board polygon.ind-tile", len(v["tiles"])),
                          ("svg.ind-board .ind-hero", sum(1 for x in v["heroes"].values() if x["tile"])),
                          ("svg.ind-board .ind-monster", sum(1 for x in v["monsters"].values() if x["tile"])),
                          ("svg.ind-board .ind-outpost", len(v["outposts"])),
                          ("svg.ind-track .ind-track-marker", len(v["seats"]))],
}


def assert_clean(browser) -> None:
    problems = browser.problems()
    assert problems == {"errors": [], "failed": [], "log": []}, problems


def assert_board_matches(browser, game: str, view: dict, version: int) -> None:
    """The board drawn for ``version`` (the viewer marks it) shows the view's figures."""
    browser.wait("return document.getElementById('board').dataset.version === arguments[0]", str(version),
                 what=f"the board drawn at version {version}")
    renderer = registry.get(game).renderer
    if renderer is None:  # the generic renderer: the view itself
        assert json.loads(browser.text("#board pre.json")) == view
        return
    drawn = {css: browser.count(css) for css, _ in FIGURES[renderer](view)}
    assert drawn == dict(FIGURES[renderer](view)), browser.text("#board")[:400]


def shown_version(browser) -> int:
    """The version the replay shows, from the link it keeps in the URL (#v=N)."""
    hash_ = browser.wait("return location.hash.startsWith('#v=') && location.hash", what="the replay's #v= link")
    return int(hash_[3:])


def test_the_lobby_lists_every_game_and_filters_by_game(browser, site):
    """Each game's finished and live games are listed under its filter, by the game's name (other
    tests of the session add games too, so the unfiltered first page need not hold them all)."""
    browser.open(f"{site.url}/web")
    browser.wait("return document.querySelectorAll('#games tbody tr').length > 0", what="the lobby's rows")
    offered = browser.wait("const o = [...document.querySelector('#filters select[name=game]').options].map((x) => x.value);"
                           "return o.length > 1 && o", what="the catalog's games in the filter")
    assert set(GAMES) <= set(offered)
    for game in sorted(GAMES, key=lambda g: g == "dwarf"):  # DWARF's last: its game is opened below
        browser.js("const s = document.querySelector('#filters select[name=game]'); s.value = arguments[0];"
                   "s.dispatchEvent(new Event('change'))", game)
        browser.wait("const c = [...document.querySelectorAll('#games tbody tr td:first-child')];"
                     "return c.length > 0 && c.every((td) => td.dataset.gameId === arguments[0])", game,
                     what=f"only {game} games")
        assert {site.finished[game], site.live[game].id} <= set(browser.texts("#games tbody tr td:nth-child(2)"))
        assert all(t.startswith(registry.get(game).title) for t in browser.texts("#games tbody tr td:first-child"))
    browser.click(f"#games a[href='/web/games/{site.finished['dwarf']}']")
    browser.wait("return document.body.classList.contains('viewer')", what="the viewer page")
    assert_clean(browser)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_finished_game_replays_step_by_step_and_verifies(browser, site, api, game, tmp_path):
    game_id = site.finished[game]
    summary = api.get(f"/v1/games/{game_id}").json()
    scores = api.get(f"/v1/games/{game_id}/scores").json()
    browser.open(f"{site.url}/web/games/{game_id}")
    browser.wait("return document.getElementById('status').textContent === 'finished'", what="the status badge")
    # A finished game opens in replay, at its last step: the final position.
    assert shown_version(browser) == summary["version"]
    browser.wait("return document.getElementById('position').textContent.startsWith('step ')", what="the step line")
    steps = int(browser.text("#position").split(" of ")[1].split(" ")[0])
    assert steps > 2
    final = api.get(f"/v1/games/{game_id}/states/{summary['version']}").json()["view"]
    assert_board_matches(browser, game, final, summary["version"])

    # Scores: one row per participant (the seats, and any scored actor: DWARF's automaton,
    # Indagar's monsters) with the API's totals, the winner marked.
    lines = scores["seats"] + [p for p in scores["participants"] if not p["id"].startswith("seat:")]
    browser.wait("return document.querySelectorAll('#scores tbody tr').length === arguments[0]", len(lines),
                 what="a score row per participant")
    assert "final scores" in browser.text("#scores")
    totals = sorted(float(t) for t in browser.texts("#scores td.total"))
    assert totals == sorted(float(s["total"]) for s in lines)
    # The winning seats; where no seat wins, the actors that won (the house, an automaton).
    winners = len(scores["winners"]) or sum(w.startswith("actor:") for w in scores["outcome"]["winners"])
    assert browser.count("#scores tr.winner") == winners

    # Step: to the first step, then on by button and by key; each step draws that version's view.
    browser.click("#first")
    browser.wait("return document.getElementById('position').textContent.startsWith('step 1 of')", what="step 1")
    for step, move in ((2, lambda: browser.click("#next")),
                       (3, lambda: browser.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}))"))):
        move()
        browser.wait("return document.getElementById('position').textContent.startsWith(arguments[0])",
                     f"step {step} of {steps}", what=f"step {step}")
        version = shown_version(browser)
        view = api.get(f"/v1/games/{game_id}/states/{version}").json()["view"]
        browser.wait("return document.querySelectorAll('#events li.current').length > 0", what="the step's events lit")
        lit = [int(x) for x in browser.js("return [...document.querySelectorAll('#events li.current')]"
                                          ".map((li) => li.dataset.seq)")]
        assert max(lit) == version
        assert_board_matches(browser, game, view, version)
    browser.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'End'}))")
    browser.wait("return document.getElementById('position').textContent.startsWith(arguments[0])",
                 f"step {steps} of {steps}", what="the last step")

    # The verify button downloads the export and has the server replay it.
    browser.js("[...document.querySelectorAll('#audit button')].find((b) => b.textContent === 'Verify this game').click()")
    browser.wait("return document.querySelector('#audit .verdict')", what="the verdict")
    assert "Verified" in browser.text("#audit .verdict.ok"), browser.text("#audit")
    assert "matches this server's chain head" in browser.text("#audit .verdict-box")
    # Another game's saved export verifies, but the page says whose record it is, with no tick.
    other = next(gid for name, gid in site.finished.items() if name != game)
    saved = tmp_path / f"{other}.ndjson"
    saved.write_bytes(api.get(f"/v1/games/{other}/export").content)
    browser.driver.find_element("css selector", "#audit input[type=file]").send_keys(str(saved))
    browser.wait("return (document.querySelector('#audit .verdict') || {}).textContent?.includes('another game')",
                 what="the other game's verdict")
    assert other in browser.text("#audit .verdict.bad") and "✓" not in browser.text("#audit .verdict")
    assert_clean(browser)


def _move_for_the_person(api, game_id: str, token: str) -> dict:
    legal = api.get(f"/v1/games/{game_id}/legal-actions", headers={"Authorization": f"Bearer {token}"}).json()
    assert legal["commands"], legal
    resp = api.post(f"/v1/games/{game_id}/actions", headers={"Authorization": f"Bearer {token}"},
                    json={"expected_version": legal["version"], "command": legal["commands"][0]})
    assert resp.status_code == 201, resp.text
    return resp.json()


@pytest.mark.parametrize("game", list(GAMES))
def test_a_live_game_follows_moves_with_a_seat_token(browser, site, api, game):
    live = site.live[game]
    auth = {"Authorization": f"Bearer {live.token}"}
    browser.open(f"{site.url}/web/games/{live.id}#token={live.token}")
    browser.wait("return document.getElementById('who').textContent === 'you play seat 0: you'", what="the seat's name")
    assert live.token not in browser.js("return location.href"), "the token stays out of the URL and history"
    assert browser.js("return getComputedStyle(document.getElementById('token')).display === 'none'"), \
        "a seated person has nothing to paste"
    browser.wait("return document.getElementById('live-state').textContent === 'following the game live'",
                 what="the live stream")
    assert browser.text("#status") == "active" and "to act: you" in browser.text("#acting")
    before = api.get(f"/v1/games/{live.id}", headers=auth).json()
    view = before["view"]
    assert_board_matches(browser, game, view, before["version"])
    if game == "saboteur":  # a hidden hand: the seat sees its own cards, a spectator none
        assert browser.count("#board .hand > *") == len(view["you"]["hand"]) > 0
        assert "Your seat — you" in browser.text("#board")
    if game == "dwarf":  # four seats: two copies of the Mine (section 17), each drawn
        assert len(view["mines"]) == 2 and browser.count("svg.dw-mine") == 2

    # The person moves (as their client would), then the bots answer: the page follows both.
    _move_for_the_person(api, live.id, live.token)
    site.play_bots(live.id)
    after = api.get(f"/v1/games/{live.id}", headers=auth).json()
    seen = len(api.get(f"/v1/games/{live.id}/events", params={"limit": 1000}, headers=auth).json()["events"])
    browser.wait("return document.getElementById('event-count').textContent === arguments[0]", f"({seen})",
                 what=f"{seen} events listed live")
    browser.wait("return document.getElementById('title').textContent.includes(arguments[0])",
                 f"version {after['version']}", what="the header's version")
    assert_board_matches(browser, game, after["view"], after["version"])

    browser.click("#forget")
    browser.wait("return document.getElementById('who').textContent === 'spectator'", what="the spectator view")
    assert not browser.js("return document.getElementById('token').hidden"), "a spectator may paste a seat token"
    browser.wait("return document.querySelector('#board svg, #board pre.json')", what="the board")
    if game == "saboteur":
        assert browser.count("#board .hand") == 0 and "Your seat" not in browser.text("#board")
    assert_clean(browser)


def test_an_unknown_game_and_a_wrong_token_are_told_in_the_page(browser, site):
    browser.open(f"{site.url}/web/games/g0000000000000000")
    browser.wait("return document.getElementById('message').textContent.includes('There is no game')",
                 what="the missing-game message")
    assert browser.text("#status") == "error"
    live = site.live["dwarf"]
    browser.open(f"{site.url}/web/games/{live.id}#token=not-a-token")
    browser.wait("return document.getElementById('message').textContent.includes('not a seat of this game')",
                 what="the wrong-token message")
    assert browser.text("#who") == "spectator"
    # The page asked, was refused once, and fell back: the refusal is the only failed call.
    assert [f["status"] for f in browser.problems()["failed"]] == [401]
