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
