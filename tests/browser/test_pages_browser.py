"""What a person met playing the four games in a browser (the browser audit), each checked in
Chromium on the served site: names shown whole, joining offered only to who may join, the lobby's
options in words, the replay asking only for positions that exist, a click just after a move."""
from __future__ import annotations

from tests.browser.test_viewer_browser import assert_clean


def test_the_move_and_event_lists_show_whole_names(browser, site):
    """The Moves and Events panels cut names to about eight characters ("heuristi…"), so two bots
    of one kind could not be told apart: each name is shown whole (wrapped when long)."""
    game_id = site.finished["saboteur"]
    browser.open(f"{site.url}/web/games/{game_id}")
    browser.wait("return document.querySelectorAll('#move-list li').length > 0 && "
                 "document.querySelectorAll('#events li').length > 0", what="the move and event lists")
    seats = {s["name"] for s in site.service.summary(game_id, None)["seats"]}
    for css in ("#move-list .who", "#events .who"):
        cut = browser.js("return [...document.querySelectorAll(arguments[0])].filter((el) => "
                         "el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent)", css)
        assert not cut, (css, cut[:5])
    shown = set(browser.texts("#move-list .who"))
    assert seats <= shown, (seats, shown)
    assert_clean(browser)


def _entropy() -> str:
    return "ab" * 32


def _sign_in(browser, site, player) -> None:
    """This browser signed in as ``player`` (what the header's box keeps after *Become a player*)."""
    browser.open(f"{site.url}/web")
    browser.js("localStorage.setItem('delve.player', JSON.stringify(arguments[0]))",
               {"id": player.id, "name": player.name, "token": player.token})


def _player(site, name: str):
    from tests.browser.site import Player, now_iso
    made, token = site.service.players.register(name, now_iso())
    player = Player(made.id, token)
    player.name = name
    return player


def test_a_seat_holder_is_not_offered_to_join_again(browser, site, api):
    """Bob took a seat of an open game and was still offered "Join as Bob" (a 422: this player
    already holds a seat) and told to join in the Seats panel: the page says which seat he holds;
    another player is still offered the open seat."""
    from tests.browser.site import _bot_seats

    bob, eve = _player(site, "Bob"), _player(site, "Eve")
    game_id = site.service.create("saboteur", [{"open": True}, {"open": True}, *_bot_seats(["random"])], {})["id"]
    joined = api.post(f"/v1/games/{game_id}/join", json={"entropy": _entropy(), "seat": 0},
                      headers={"Authorization": f"Bearer {bob.token}"})
    assert joined.status_code == 201, joined.text
    _sign_in(browser, site, bob)
    browser.open(f"{site.url}/web/games/{game_id}")
    browser.wait("return document.querySelector('#board .waiting') && document.querySelector('#seats table')",
                 what="the waiting game")
    browser.wait("return document.querySelector('#held-seat')", what="the seat Bob holds")
    assert browser.count("#join-seat") == 0, browser.text("#seats")
    assert "You hold seat 0" in browser.text("#seats")
    assert "join in the Seats panel" not in browser.text("#board") and "you hold seat 0" in browser.text("#board")
    assert_clean(browser)
    _sign_in(browser, site, eve)
    browser.open(f"{site.url}/web/games/{game_id}")
    browser.wait("return document.querySelector('#join-seat')", what="the join form for another player")
    assert browser.text("#join-seat") == "Join as Eve" and "join in the Seats panel" in browser.text("#board")
    assert_clean(browser)


def test_saboteur_moves_name_the_players(browser, site, api):
    """The API's Saboteur labels name seats by number ("Break seat 3's pick"); the page names the
    players, as it does everywhere else."""
    import re

    game_id = site.finished["saboteur"]
    labels = [m["label"] for m in api.get(f"/v1/games/{game_id}/moves").json()["moves"]]
    numbered = [x for x in labels if re.search(r"\bseat \d+'s\b", x)]
    assert numbered, "the finished game broke or repaired no tool"
    browser.open(f"{site.url}/web/games/{game_id}")
    browser.wait("return document.querySelectorAll('#move-list li').length === arguments[0]", len(labels),
                 what="every move listed")
    shown = browser.texts("#move-list .data")
    assert not [x for x in shown if re.search(r"\bseat \d+'s\b", x)]
    names = {s["name"] for s in site.service.summary(game_id, None)["seats"]}
    assert all(any(f"{name}'s" in x for name in names) for x in shown if "'s " in x)
    assert len([x for x in shown if "'s " in x]) == len(numbered)
    assert_clean(browser)


def test_the_new_game_form_words_options_and_shows_only_the_clock_fields_a_control_takes(browser, site):
    """The form showed option names and values as the schema spells them ("monster start:
    skipFirstPass", "one in a million: swap") and the clock's minutes and seconds with no time
    control: options are worded by their game, and the clock shows what the chosen control takes."""
    from tests.browser.playing import choose

    browser.open(f"{site.url}/web")
    browser.wait("return document.querySelector('#new-game option')", what="the new-game form")
    browser.js("document.querySelector('#create-box').open = true")
    choose(browser, "#new-game", "indagar")
    browser.wait("return document.querySelector('[name=opt-monster_start]')?.options[1]?.textContent === arguments[0]",
                 "once every player has activated a hero", what="Indagar's options in words")
    said = browser.text("#create fieldset.options")
    for jargon in ("skipFirstPass", "skipRound1", "one in a million", "monster start ", "_"):
        assert jargon not in said, (jargon, said)
    assert "monsters start acting" in said and "a starting area sealed by mountains" in said
    offered = browser.js("return [...document.querySelectorAll('#create fieldset.options select option')].map((o) => o.textContent)")
    assert not [o for o in offered if any(c.isupper() for c in o[1:]) and " " not in o], offered  # no camelCase left
    assert "default (swap the last mountain away)" in offered

    shown = "return [...document.querySelectorAll('#create .clock-fields label')].filter((l) => !l.hidden && l.offsetParent)" \
            ".map((l) => l.textContent.split(' ')[0])"
    assert browser.js(shown) == ["time"], browser.js(shown)
    choose(browser, "[name=clock]", "fischer")
    assert browser.js(shown) == ["time", "minutes", "increment,", "on"]
    choose(browser, "[name=clock]", "per_move")
    assert browser.js(shown) == ["time", "seconds", "on"]
    choose(browser, "[name=clock]", "")
    assert browser.js(shown) == ["time"]
    assert_clean(browser)


def _resigned(site, api, player, game: str, bots: list[str]) -> str:
    """A game of ``game`` the player takes seat 0 of and resigns at once, finished and rated."""
    from tests.browser.site import _bot_seats

    auth = {"Authorization": f"Bearer {player.token}"}
    gid = site.service.create(game, [{"player": player.id}, *_bot_seats(bots)], {})["id"]
    assert api.post(f"/v1/games/{gid}/join", json={"entropy": _entropy(), "seat": 0}, headers=auth).status_code == 201
    assert api.post(f"/v1/games/{gid}/resign", headers=auth).status_code in (200, 201)
    site.play_bots(gid)  # the jobs that follow the end: the rating among them
    return gid


def test_the_player_page_names_games_by_title_and_its_rating_changes_fit(browser, site, api):
    """The player page showed game ids ("mountain-king") and its "Latest rating changes" table ran
    off the right edge of its panel; the leaderboard said "greedy (bot) (bot)"."""
    import time

    kim = _player(site, "Kim")
    games = [_resigned(site, api, kim, "mountain-king", ["greedy"]), _resigned(site, api, kim, "saboteur", ["heuristic", "random"])]
    deadline = time.monotonic() + 20
    while len(api.get(f"/v1/players/{kim.id}").json()["rating_history"]) < 2 and time.monotonic() < deadline:
        site.play_bots(games[-1])
        time.sleep(0.2)
    browser.open(f"{site.url}/web/players/{kim.id}")
    browser.wait("return document.querySelectorAll('#history tbody tr').length === 2 && "
                 "document.querySelectorAll('#player-games tr.game-row').length === 2", what="two rated games")
    titles = browser.texts("#player-games tr.game-row td:first-child")
    assert sorted(titles) == ["In the Hall of the Mountain King", "Saboteur"], titles
    assert "In the Hall of the Mountain King" in browser.text("#ratings")
    assert sorted(browser.js("return [...document.querySelectorAll('#history a.after-game')].map((a) => a.dataset.gameId)")) \
        == sorted(games)
    overflow = browser.js("const panel = document.querySelector('#history').closest('.panel');"
                          "const table = panel.querySelector('table');"
                          "return [table.getBoundingClientRect().right, panel.getBoundingClientRect().right]")
    assert overflow[0] <= overflow[1], overflow
    assert_clean(browser)
    browser.open(f"{site.url}/web/ratings/mountain-king")
    browser.wait("return document.querySelectorAll('table.leaderboard tbody tr').length > 0", what="the leaderboard")
    names = browser.texts("table.leaderboard tbody td:nth-child(2)")
    assert "greedy (bot)" in names and not [n for n in names if n.endswith("(bot) (bot)")], names
    assert_clean(browser)


def test_a_tournament_names_its_game_by_title(browser, site):
    browser.open(f"{site.url}/web/tournaments/{site.tournament}")
    browser.wait("return document.querySelectorAll('#rounds section.round').length > 0", what="the tournament")
    assert "In the Hall of the Mountain King" in browser.text("#title") and "mountain-king" not in browser.text("#title")
    assert_clean(browser)


def test_the_replay_asks_for_no_position_before_the_deal(browser, site, api):
    """A game that waited for a player rests first at versions with nothing dealt: the replay's
    first step asked for /states/1 and got a 422 (not_dealt_yet), a console error though the page
    coped. It asks only for positions that exist, and says why the first steps show no board."""
    ivy = _player(site, "Ivy")
    gid = _resigned(site, api, ivy, "indagar", ["greedy"])
    browser.open(f"{site.url}/web/games/{gid}")
    browser.wait("return document.getElementById('position').textContent.startsWith('step ')", what="the replay")
    browser.click("#first")
    browser.wait("return document.getElementById('position').textContent.startsWith('step 1 of')", what="step 1")
    browser.wait("return document.querySelector('#board .waiting')", what="the notice for a step before the deal")
    assert "nothing is dealt before the last seat is taken" in browser.text("#board")
    for _ in range(3):  # on to the deal: the board
        browser.click("#next")
    browser.wait("return document.querySelector('#board svg.ind-board')", what="the board once dealt")
    assert_clean(browser)


SLOW = """
window.__slow = false;
const before = window.fetch;
window.fetch = async (url, init) => {
  const href = String(url);
  if (window.__slow && (href.endsWith('/actions') || href.endsWith('/legal-actions'))) {
    await new Promise((done) => setTimeout(done, 1500));
  }
  return before(url, init);
};
"""


def test_a_click_just_after_a_move_is_answered_and_the_next_list_is_live(browser, site):
    """A click straight after one's own move was ignored without a word (the new list greyed for a
    moment): while the move is on its way, and while the next moves are read, a click says so; the
    next list takes clicks as soon as it shows."""
    from tests.browser.playing import MY_TURN, no_problems

    created = site.service.create("indagar", [{"name": "you"}], {})
    gid, token = created["id"], created["seats"][0]["token"]
    browser.open(f"{site.url}/web/games/{gid}#token={token}")
    browser.wait(f"return !!({MY_TURN})", what="my turn")
    browser.js(SLOW)
    version = browser.js("return document.querySelector('#board').dataset.version")
    browser.js("window.__slow = true; document.querySelector('#turn-panel button.move').click()")
    browser.js("document.querySelector('#turn-panel button.move').click()")  # again, while the move is sent
    assert browser.text("#board-hint").startswith("Your move is being sent"), browser.text("#turn-panel")
    browser.wait("return document.querySelector('#waiting-note')?.textContent === 'Loading your moves…'",
                 what="the next moves being read")
    browser.js("document.querySelector('#board [data-place]').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    assert browser.text("#board-hint").startswith("Your moves are being read"), browser.text("#turn-panel")
    browser.js("window.__slow = false")
    browser.wait(f"return !!({MY_TURN})", what="the next list")
    assert browser.js("return document.querySelector('#board').dataset.version") != version
    assert not browser.count("#turn-panel.busy")
    version = browser.js("return document.querySelector('#board').dataset.version")
    browser.click("#turn-panel button.move")  # the list that just showed takes the click
    browser.wait("return document.querySelector('#board').dataset.version !== arguments[0]", version,
                 what="the second move played")
    no_problems(browser)
