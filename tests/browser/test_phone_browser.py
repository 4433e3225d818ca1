"""The game page on a phone (390 x 844 CSS pixels, Chromium's device mode) and at a desktop's width:
every game's board fits the page or scrolls inside its own box, the rest of the page never makes it
scroll sideways, and a real click on a board place still plays. Found by a person-in-browser audit."""
from __future__ import annotations

import pytest

from tests.browser.chromium import Browser
from tests.browser.playing import MY_TURN, no_problems
from tests.browser.site import GAMES, _bot_seats

PHONE = (390, 844)

# The page's width against the window's, and what reaches past the window's right edge outside the
# board (whose own box may scroll): the side panels, the turn panel, the header.
FITS = """
const vw = document.documentElement.clientWidth;
const board = document.getElementById('board');
const scrolled = (el) => {  // inside a box of its own that scrolls sideways (a wide table's)
  for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
    if (getComputedStyle(box).overflowX !== 'visible' && box.clientWidth < box.scrollWidth) return true;
  }
  return false;
};
const past = [...document.querySelectorAll('body *')].filter((el) => !board.contains(el) && el.offsetParent !== null
  && el.getBoundingClientRect().right > vw + 1 && !scrolled(el)).map((el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : ''));
return {page: document.documentElement.scrollWidth, window: window.innerWidth,
        board: board.getBoundingClientRect().right, vw, past: past.slice(0, 8)};
"""


@pytest.fixture(scope="module")
def phone() -> Browser:
    browser = Browser(*PHONE, mobile=True)
    yield browser
    browser.close()


def _my_game(site, game: str) -> tuple[str, str]:
    """A new live game of ``game``: seat 0 a person, the site's bots beside it, played to the person's turn."""
    spec = GAMES[game]
    created = site.service.create(game, [{"name": "you"}, *_bot_seats(spec.get("live_bots", spec["bots"][1:]))],
                                  spec["options"])
    site.play_bots(created["id"])
    return created["id"], created["seats"][0]["token"]


def _fits(b: Browser, game: str, when: str) -> None:
    said = b.js(FITS)
    assert said["page"] <= said["window"], (game, when, said)
    assert said["board"] <= said["vw"] + 1 and not said["past"], (game, when, said)


def _real_click_on_the_farthest_place(b: Browser, game: str) -> None:
    """A mouse click on the highlighted board place farthest right (out of sight on a phone until
    the board's box scrolls to it): it is picked, or its one move played."""
    from selenium.webdriver.common.action_chains import ActionChains

    target = b.js("const places = [...document.querySelectorAll('#board svg [data-place].target')];"
                  "places.sort((x, y) => y.getBoundingClientRect().right - x.getBoundingClientRect().right);"
                  "return places[0] || document.querySelector('#board [data-place].target')")
    if target is None:
        return  # this turn's moves are played from the list only
    version = b.js("return document.querySelector('#board').dataset.version")
    b.js("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", target)
    ActionChains(b.driver).move_to_element(target).click().perform()
    b.wait("return document.querySelectorAll('#board .picked').length > 0 || "
           "document.querySelector('#board').dataset.version !== arguments[0]", version,
           what=f"{game}: the farthest board place, picked by a real click")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_game_page_fits_a_phone_and_its_board_still_plays(phone, site, game):
    """At 390 px the Saboteur and Mountain King boards were reported to make the whole page scroll
    sideways. Each board fits the page or scrolls in its own box; nothing else passes the window's
    edge; a click on a board place, the board's box scrolled to it, still picks it."""
    b = phone.fresh_tab()
    gid, token = _my_game(site, game)
    b.open(f"{site.url}/web/games/{gid}#token={token}")
    b.wait(f"return !!({MY_TURN}) && document.querySelectorAll('#events li').length > 0 && "
           "document.querySelectorAll('#scores tbody tr').length > 0", what=f"{game}: my turn, the page drawn")
    assert b.js("return window.innerWidth") == PHONE[0]
    _fits(b, game, "on my turn")
    _real_click_on_the_farthest_place(b, game)
    _fits(b, game, "after a click on the board")
    no_problems(b)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_game_page_fits_a_desktop(browser, site, game):
    """The same page at 1400 px: nothing scrolls sideways there either."""
    gid, token = _my_game(site, game)
    browser.open(f"{site.url}/web/games/{gid}#token={token}")
    browser.wait(f"return !!({MY_TURN}) && document.querySelectorAll('#scores tbody tr').length > 0",
                 what=f"{game}: my turn, the page drawn")
    _fits(browser, game, "at a desktop's width")
    no_problems(browser)


def test_indagar_hero_cards_read_a_hero_a_block_on_a_phone(phone, site):
    """Indagar's hero cards, a five-column table, were squeezed on a phone to a word a line (3,400 px
    tall for two seats' heroes), its last column cut at the window's edge. On a phone each hero is a
    block whose lines name their column ("keywords: Charge! ..."); and a hero of the Players table
    keeps to one line."""
    b = phone.fresh_tab()
    gid, token = _my_game(site, "indagar")
    b.open(f"{site.url}/web/games/{gid}#token={token}")
    b.wait("return document.querySelectorAll('table.ind-cards tbody tr').length > 0", what="the hero cards")
    cards = b.js("""const t = document.querySelector('table.ind-cards');
      return {width: t.clientWidth, scroll: t.scrollWidth,
              cells: [...t.querySelectorAll('tbody td')].map((td) => Math.round(td.getBoundingClientRect().width)),
              said: [...t.querySelectorAll('tbody tr:first-child td')].map((td) => getComputedStyle(td, '::before').content)}""")
    assert cards["scroll"] <= cards["width"], cards
    assert min(cards["cells"]) >= 0.9 * cards["width"], cards  # every cell a line of its own, not a column
    assert cards["said"][1:] == ['"player: "', '"card: "', '"keywords: "', '"abilities: "'], cards["said"]
    chips = b.js("return [...document.querySelectorAll('.hero-chip')].map((c) => c.getClientRects().length === 1 &&"
                 " c.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(c).fontSize))")
    assert chips and all(chips), chips
    no_problems(b)


# The box a phone scrolls the board in: Saboteur's maze, Mountain King's board.
BOX = {"saboteur": "#board .maze-wrap", "mountain-king": "#board .board-wrap"}


@pytest.mark.parametrize("game", sorted(BOX))
def test_a_phone_board_box_stays_where_the_player_scrolled_it(phone, site, game):
    """On a phone a player scrolled Saboteur's maze to the right, toward the goals, played a card, and
    the maze was back at its left edge: the board is drawn anew after every move, and the new box
    started unscrolled (found by a person-in-browser audit). It stays where the player had it."""
    b = phone.fresh_tab()
    gid, token = _my_game(site, game)
    b.open(f"{site.url}/web/games/{gid}#token={token}")
    b.wait(f"return !!({MY_TURN})", what=f"{game}: my turn")
    box = BOX[game]
    wide = b.js("const box = document.querySelector(arguments[0]); return [box.clientWidth, box.scrollWidth]", box)
    assert wide[1] > wide[0] + 100, wide  # the board is wider than a phone's window
    b.js("document.querySelector(arguments[0]).scrollLeft = 100", box)
    version = b.js("return document.querySelector('#board').dataset.version")
    b.js("document.querySelector('#turn-panel button.move').click()")
    b.wait("return document.querySelector('#board').dataset.version !== arguments[0]", version,
           what=f"{game}: the board drawn after my move")
    assert b.js("return document.querySelector(arguments[0]).scrollLeft", box) == 100
    no_problems(b)


# Which sides of a box fade out, and whether its drawing is masked at all.
FADED = """const box = document.querySelector(arguments[0]);
return {left: box.classList.contains('more-left'), right: box.classList.contains('more-right'),
        masked: getComputedStyle(box).maskImage !== 'none'}"""


@pytest.mark.parametrize("game", sorted(BOX))
def test_a_phone_board_box_shows_there_is_more_to_see_sideways(phone, site, game):
    """On a phone Saboteur's maze and Mountain King's board scroll sideways in their own box, but
    nothing hinted that there was more to the right: Saboteur's goal cards started out of sight, and a
    newcomer never knew to look for them (found by a person-in-browser audit). The box's edge fades
    out on each side that hides more of the board, as it is scrolled; a click on a place still plays."""
    b = phone.fresh_tab()
    gid, token = _my_game(site, game)
    b.open(f"{site.url}/web/games/{gid}#token={token}")
    b.wait(f"return !!({MY_TURN})", what=f"{game}: my turn")
    box = BOX[game]
    assert b.wait(f"const f = (() => {{ {FADED} }})(); return f.right && f", box,
                  what=f"{game}: the right edge faded") == {"left": False, "right": True, "masked": True}
    b.js("const box = document.querySelector(arguments[0]); box.scrollLeft = box.scrollWidth", box)
    assert b.wait(f"const f = (() => {{ {FADED} }})(); return f.left && f", box,
                  what=f"{game}: scrolled to the end") == {"left": True, "right": False, "masked": True}
    b.js("document.querySelector(arguments[0]).scrollLeft = 60", box)
    assert b.wait(f"const f = (() => {{ {FADED} }})(); return f.left && f.right && f", box,
                  what=f"{game}: scrolled halfway") == {"left": True, "right": True, "masked": True}
    _real_click_on_the_farthest_place(b, game)
    no_problems(b)


def test_a_board_that_fits_its_box_is_not_faded(browser, site):
    """At a desktop's width the boards fit: no edge fades."""
    for game, box in BOX.items():
        gid, token = _my_game(site, game)
        browser.open(f"{site.url}/web/games/{gid}#token={token}")
        browser.wait(f"return !!({MY_TURN})", what=f"{game}: my turn")
        faded = browser.js(f"return (() => {{ {FADED} }})()", box)
        assert faded == {"left": False, "right": False, "masked": False}, (game, faded)
