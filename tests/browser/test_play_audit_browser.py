"""What an outside audit met playing the four games in the browser as a newcomer (2026-11-28), each
checked in Chromium on the served site: a real click on a place without a move, the stream of a
busy server, a hidden tab, the event rows' words, the replay bar, the tournament form, Saboteur's
broken tools and Indagar's outlines."""
from __future__ import annotations

import time
import uuid

from tests.browser.playing import MY_TURN, no_problems
from tests.browser.site import _bot_seats

# Made before the page's scripts run: document.hidden as a test sets it (window.__hidden), and every
# event stream the page opens or lets go (headless Chromium reports every tab visible).
HIDDEN = """
window.__hidden = false;
Object.defineProperty(document, 'hidden', {configurable: true, get: () => window.__hidden === true});
Object.defineProperty(document, 'visibilityState', {configurable: true,
  get: () => (window.__hidden === true ? 'hidden' : 'visible')});
window.__streams = {opened: 0, closed: 0};
const beforeStreams = window.fetch;
window.fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input.url;
  if (url.includes('/events/stream')) {
    __streams.opened += 1;
    if (init && init.signal) init.signal.addEventListener('abort', () => { __streams.closed += 1; });
  }
  return beforeStreams(input, init);
};
"""

# The first event stream the page asks for is refused as a full server refuses it (503, with the
# problem's retry_after), as a token holding eight open streams was: the later ones go through.
BUSY_ONCE = """
window.__refused = 0;
const beforeBusy = window.fetch;
window.fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input.url;
  if (url.includes('/events/stream') && window.__refused === 0) {
    window.__refused += 1;
    const problem = {type: 'https://delve.dev/problems/too_many_streams', title: 'Service unavailable', status: 503,
      code: 'too_many_streams', retry_after: 1,
      detail: 'this token holds 8 open streams already, the most it may; close one, or retry in 1 s'};
    return new Response(JSON.stringify(problem), {status: 503, headers: {'Content-Type': 'application/problem+json',
      'Retry-After': '1'}});
  }
  return beforeBusy(input, init);
};
"""


def _before_scripts(browser, script: str) -> None:
    browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})


def _my_game(site, game: str, bots: list[str]) -> tuple[str, str]:
    """A new live game of ``game``: seat 0 a person (its token returned), the rest bots, played up to
    the person's turn."""
    created = site.service.create(game, [{"name": "you"}, *_bot_seats(bots)], {})
    site.play_bots(created["id"])
    return created["id"], created["seats"][0]["token"]


def _act(api, gid: str, token: str) -> int:
    """Seat 0 plays its first legal move through the API, as another client of that seat would;
    returns the version it moved from."""
    auth = {"Authorization": f"Bearer {token}"}
    legal = api.get(f"/v1/games/{gid}/legal-actions", headers=auth).json()
    done = api.post(f"/v1/games/{gid}/actions", headers={**auth, "Idempotency-Key": uuid.uuid4().hex},
                    json={"expected_version": legal["version"], "command": legal["commands"][0]})
    assert done.status_code in (200, 201), done.text
    return legal["version"]


def _native_click(browser, element) -> None:
    """A click as a mouse makes it (trusted, at the element's centre, hitting whatever is on top
    there), not an event dispatched on the element."""
    from selenium.webdriver.common.action_chains import ActionChains

    browser.js("arguments[0].scrollIntoView({block: 'center'})", element)
    ActionChains(browser.driver).move_to_element(element).click().perform()


def test_a_real_click_on_a_place_without_a_move_says_so(browser, site):
    """The board's places are transparent boxes over the drawing, and one that no move involves lets
    the pointer through (so a laid card keeps its tooltip): a mouse click on an empty Saboteur cell
    or a face-down Indagar hex reached no place and the page said nothing, though a click dispatched
    on the box (as the play test makes it) did. A real click says there is no move there."""
    for game, bots in (("saboteur", ["heuristic", "random"]), ("indagar", [])):
        gid, token = _my_game(site, game, bots)
        browser.open(f"{site.url}/web/games/{gid}#token={token}")
        browser.wait(f"return !!({MY_TURN})", what=f"my turn in {game}")
        # A place no move involves, with nothing drawn on it that holds a place of its own.
        kind = "cell" if game == "saboteur" else "tile"
        place = browser.js("return [...document.querySelectorAll('#board .hit[data-place^=\"' + arguments[0] + ':\"]')]"
                           ".filter((el) => !el.classList.contains('target')).map((el) => el.dataset.place)[0]", kind)
        assert place, f"every {kind} of {game} has a move"
        _native_click(browser, browser.driver.find_element("css selector", f"#board [data-place='{place}']"))
        browser.wait("return document.querySelector('#board-hint')", what=f"the hint for {place} in {game}")
        assert browser.text("#board-hint").startswith("No move there"), browser.text("#board-hint")
        assert browser.count("#board .picked") == 0
        if not browser.count("#board [data-place].target"):
            assert "choose a move from the list" in browser.text("#board-hint"), browser.text("#board-hint")
            continue
        # A real click on a highlighted place still picks it.
        target = browser.driver.find_element("css selector", "#board [data-place].target")
        version = browser.js("return document.querySelector('#board').dataset.version")
        _native_click(browser, target)
        browser.wait("return document.querySelectorAll('#board .picked').length > 0 || "
                     "document.querySelector('#board').dataset.version !== arguments[0]", version,
                     what=f"a highlighted place of {game} picked by a real click")
        no_problems(browser)


def test_a_stream_refused_by_a_busy_server_is_tried_again(browser, site, api):
    """A player who opened several games in a row met "stream stopped: this token holds 8 open
    streams already, the most it may; close one, or retry in 7 s", and the page never retried: it no
    longer followed the game (no bot move, no turn) until reloaded. A busy server's 503 is tried again
    after the wait it names, and the page says so."""
    gid, token = _my_game(site, "saboteur", ["heuristic", "random"])
    _before_scripts(browser, BUSY_ONCE)
    browser.open(f"{site.url}/web/games/{gid}#token={token}")
    browser.wait("return window.__refused === 1", what="the refused stream")
    said = browser.wait("const t = document.getElementById('live-state').textContent; "
                        "return (t.includes('busy') || t.includes('following')) && t", what="the page's word on it")
    if "busy" in said:
        assert "trying again by itself in 1 s" in said and "retry in" not in said, said
    browser.wait("return document.getElementById('live-state').textContent === 'following the game live'",
                 what="the stream followed again")
    events = browser.count("#events li")
    _act(api, gid, token)  # moved elsewhere: only the stream can bring it to this page
    browser.wait("return document.querySelectorAll('#events li').length > arguments[0]", events,
                 what="the move, through the stream")
    no_problems(browser)


def test_a_hidden_tab_lets_its_stream_go_and_still_follows_the_game(browser, site, api):
    """A browser opens six connections to one server, and each page following a game or a
    tournament held one by its event stream: with six Delve tabs open, a seventh page did not load.
    A hidden tab lets its stream go and reads the game every few seconds instead (so it still learns
    of a move, and of its turn); shown again, it follows the stream."""
    gid, token = _my_game(site, "saboteur", ["heuristic", "random"])
    _before_scripts(browser, HIDDEN)
    browser.open(f"{site.url}/web/games/{gid}#token={token}")
    browser.wait("return document.getElementById('live-state').textContent === 'following the game live'",
                 what="the stream followed")
    assert browser.js("return __streams.opened - __streams.closed") == 1
    browser.js("window.__hidden = true; document.dispatchEvent(new Event('visibilitychange'))")
    assert browser.js("return __streams.opened - __streams.closed") == 0, browser.js("return __streams")
    assert "hidden" in browser.text("#live-state"), browser.text("#live-state")
    events = browser.count("#events li")
    _act(api, gid, token)
    browser.wait("return document.querySelectorAll('#events li').length > arguments[0]", events, timeout=25,
                 what="the move, read while hidden")
    assert browser.js("return __streams.opened - __streams.closed") == 0
    browser.js("window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    browser.wait("return document.getElementById('live-state').textContent === 'following the game live' && "
                 "__streams.opened - __streams.closed === 1", what="the stream followed again")
    no_problems(browser)


def test_every_event_row_names_a_cell_by_both_coordinates(browser, site):
    """The Events panel kept an event's first five fields: Saboteur's "path placed: card P11, rotated
    false, seat 1, shape tee-new, x 1" named a cell by its x alone. Every plain field is said."""
    gid = site.finished["saboteur"]
    browser.open(f"{site.url}/web/games/{gid}")
    browser.wait("return document.querySelectorAll('#events li').length > 0", what="the events")
    rows = [t for t in browser.texts("#events .data") if t.startswith("path placed:")]
    assert rows, "no path was placed in the finished game"
    assert all(" x " in t and ", y " in t for t in rows), [t for t in rows if ", y " not in t][:3]
    no_problems(browser)


def test_the_offline_replay_says_each_event_in_words(browser, site, api, tmp_path):
    """The offline replay showed each event of a move as its type and raw JSON
    ({"card":"P30","seat":1}); it says them in words, as the viewer does."""
    gid = site.finished["saboteur"]
    export = tmp_path / f"{gid}.ndjson"
    export.write_bytes(api.get(f"/v1/games/{gid}/export").content)
    browser.open(f"{site.url}/web/replay")
    browser.wait("return document.body.dataset.ready === '1'", what="the offline page")
    browser.driver.find_element("css selector", "#file").send_keys(str(export))
    browser.wait("return document.querySelectorAll('#move ol.events li').length > 0", what="a move's events")
    browser.click("#move-list li[data-move='1']")
    rows = browser.texts("#move ol.events .data")
    types = browser.texts("#move ol.events .type")
    assert rows and not any("{" in t or '"' in t for t in rows), rows
    assert types and all(t == t.lower() and "{" not in t for t in types), types  # words, not CardDiscarded
    # This site signs nothing (no /v1/audit/keys: the page says so); no other problem.
    problems = browser.problems()
    assert problems["errors"] == [] and all(f["url"] == "/v1/audit/keys" for f in problems["failed"]), problems


def test_the_replay_bar_keeps_each_button_on_one_line(browser, site):
    """Stepping through a DWARF game, a long step line ("move 5 of 77 · Audrey: Place a worker on Gold
    Vein (Veta de Oro) at 23 (1 gold)") squeezed the "|◀" button onto two lines."""
    gid = site.finished["dwarf"]
    browser.driver.set_window_size(1100, 900)
    try:
        browser.open(f"{site.url}/web/games/{gid}#v=1")
        browser.wait("return !document.getElementById('replay-controls').hidden", what="the replay bar")
        browser.js("document.getElementById('slider').value = '3'; "
                   "document.getElementById('slider').dispatchEvent(new Event('input', {bubbles: true}))")
        heights = browser.js("return [...document.querySelectorAll('#replay-controls button')]"
                             ".map((b) => b.getBoundingClientRect().height)")
        assert max(heights) <= min(heights) + 1, heights
    finally:
        browser.driver.set_window_size(1400, 1000)


def test_the_tournament_form_offers_a_table_the_game_allows(browser, site):
    """The tournament form said "Table size 2" for Saboteur, whose smallest table is 3: creating it was
    refused (bad_table_size) until the organizer read the error. The table size follows the game's
    seats; and a field's placeholder shows whole (Saboteur's "chosen at random" read "cho")."""
    browser.open(f"{site.url}/web")
    browser.wait("return document.querySelector('#t-game option')", what="the tournament form")
    for game, low, high in (("saboteur", 3, 10), ("mountain-king", 2, 5), ("dwarf", 1, 5)):
        browser.js("const s = document.getElementById('t-game'); s.value = arguments[0];"
                   "s.dispatchEvent(new Event('change', {bubbles: true}))", game)
        size = browser.js("const i = document.getElementById('t-size'); return [Number(i.value), Number(i.min), Number(i.max)]")
        assert size[1:] == [low, high] and low <= size[0] <= high, (game, size)
    browser.js("document.querySelector('#create-box').open = true; document.querySelector('#create-tournament-box').open = true")
    cut = browser.js("""
      const ctx = document.createElement('canvas').getContext('2d');
      return [...document.querySelectorAll('#create-box input[placeholder], #create-tournament-box input[placeholder]')].filter((i) => {
        ctx.font = getComputedStyle(i).font;
        return i.offsetParent && ctx.measureText(i.placeholder).width > i.clientWidth;
      }).map((i) => i.name + ': ' + i.placeholder)""")
    assert not cut, cut
    no_problems(browser)


def test_a_saboteur_seat_with_a_broken_tool_is_told_why_it_cannot_dig(browser, site):
    """With a broken pick only passes and action cards were offered, and nothing said why: the seat's
    panel says the broken tool blocks every path card until it is repaired (SAB-TOOL-4)."""
    gid, token = _my_game(site, "saboteur", ["heuristic", "random"])
    browser.open(f"{site.url}/web/games/{gid}#token={token}")
    browser.wait(f"return !!({MY_TURN})", what="my turn")
    assert browser.count("#tools-blocked") == 0  # nothing broken yet
    # The renderer, given this seat's own view with its pick and cart broken (the table holds no such
    # position on demand): what the seat's panel says.
    browser.js("""
      window.__said = undefined;
      (async () => {
        const {render} = await import('/web/static/saboteur.js');
        const token = sessionStorage.getItem('delve.token.' + arguments[0]);
        const summary = await (await fetch('/v1/games/' + arguments[0], {headers: {Authorization: 'Bearer ' + token}})).json();
        const view = summary.view;
        view.players.find((p) => p.seat === view.you.seat).broken_tools = {pick: {card: 'A01'}, cart: {card: 'A08'}};
        const el = document.createElement('div');
        render(el, view, {seats: summary.seats, batch: [], content: null});
        window.__said = el.querySelector('#tools-blocked')?.textContent || null;
      })();""", gid)
    said = browser.wait("return window.__said !== undefined && window.__said", what="the seat's panel, a tool broken")
    assert said.startswith("Your pick and cart are broken: you may not lay a path card"), said
    assert "SAB-TOOL-4" in said
    no_problems(browser)


def test_indagar_marks_the_shown_step_apart_from_the_places_to_click(browser, site):
    """Indagar outlined the tiles the shown step touched in yellow, the colour of the places one may
    click now: a player could not tell them apart. They are red, as on the other boards, and the
    legend says which is which."""
    gid = site.finished["indagar"]
    browser.open(f"{site.url}/web/games/{gid}#v=1")
    browser.wait("return !document.getElementById('replay-controls').hidden", what="the replay bar")
    steps = browser.js("return Number(document.getElementById('slider').max)")
    deadline = time.monotonic() + 30
    for step in range(1, steps + 1):
        browser.js("const s = document.getElementById('slider'); s.value = String(arguments[0]);"
                   "s.dispatchEvent(new Event('input', {bubbles: true}))", step)
        strokes = browser.js("return [...document.querySelectorAll('#board polygon.touched')].map((p) => p.getAttribute('stroke'))")
        if strokes or time.monotonic() > deadline:
            break
    assert strokes, "no step of the finished game touched a tile"
    assert set(strokes) == {"#ff2d55"}, strokes
    assert "red outline: touched by the shown step" in browser.js("return document.getElementById('legend').textContent")
    no_problems(browser)


# A name said twice over: a card's English name, then the same words in brackets.
DOUBLED = r"/\b([A-Z][\w']*(?: [A-Z][\w']*)*) \(\1\)/"


def test_dwarf_says_a_card_named_alike_in_both_languages_once(browser, site):
    """DWARF's content names a card in English and, in brackets, as printed in Spanish ("Gold Vein
    (Veta de Oro)"); the Dragon is spelt alike in both, and the page read "Dragon (Dragon)" in its
    moves, tooltips and threat marks. The page says it once. The server's label keeps the content's
    name (the signed record holds it), so only the page rewords it."""
    gid, token = _my_game(site, "dwarf", ["greedy"])
    browser.open(f"{site.url}/web/games/{gid}#token={token}")
    browser.wait(f"return !!({MY_TURN})", what="my turn in DWARF")
    browser.js("""
      window.__said = undefined;
      (async () => {
        const dwarf = await import('/web/static/dwarf.js');
        const content = (await (await fetch('/v1/catalog/dwarf')).json()).content;
        const token = sessionStorage.getItem('delve.token.' + arguments[0]);
        const summary = await (await fetch('/v1/games/' + arguments[0], {headers: {Authorization: 'Bearer ' + token}})).json();
        const view = summary.view;
        view.mines[0].mine['12'].effect = 'dragon';  // a Dragon on top of location 12
        const el = document.createElement('div');
        dwarf.render(el, view, {seats: summary.seats, batch: [], content});
        const at = el.querySelector('[data-place="loc:0:12"]');
        window.__said = {
          content: content.effects.dragon.name,
          label: dwarf.relabel('Place a worker on Dragon (Dragon) at 12; then Great Dragon (Gran Dragon)', {type: 'place'}, {content}),
          aria: at.getAttribute('aria-label'),
          tips: [...at.querySelectorAll('title')].map((t) => t.textContent),
        };
      })();""", gid)
    said = browser.wait("return window.__said !== undefined && window.__said", what="DWARF's words for the Dragon")
    assert said["content"] == "Dragon (Dragon)"  # the content, and so the server's labels, as they are
    assert said["label"] == "Place a worker on Dragon at 12; then Great Dragon (Gran Dragon)", said["label"]
    assert said["aria"] == "location 12: Dragon", said["aria"]
    assert any(t.startswith("L(1,2): Dragon on top") for t in said["tips"]), said["tips"]
    assert "Dragon: a threat" in said["tips"], said["tips"]
    # Nothing the page shows or tells a pointer or a screen reader says a name twice.
    doubled = browser.js(f"""const twice = {DOUBLED};
      const said = [document.body.innerText, ...[...document.querySelectorAll('title, [aria-label], [title]')]
        .map((el) => el.getAttribute('aria-label') || el.getAttribute('title') || el.textContent)];
      return said.filter((t) => t && twice.test(t)).map((t) => t.match(twice)[0])""")
    assert not doubled, doubled
    no_problems(browser)


def test_the_turn_panel_asks_for_a_board_click_only_when_a_place_is_highlighted(browser, site):
    """On Indagar's first turn (declaring a strategy tree), as in Mountain King's draft, no place of the
    board has a move, yet the panel said "Click a highlighted place on the board, or choose below": a
    newcomer looked over the board for one (found by a person-in-browser audit). It asks for a board
    click only when some place is highlighted."""
    for game, bots in (("indagar", []), ("saboteur", ["heuristic", "random"])):
        gid, token = _my_game(site, game, bots)
        browser.open(f"{site.url}/web/games/{gid}#token={token}")
        browser.wait(f"return !!({MY_TURN})", what=f"my turn in {game}")
        said = browser.text("#your-turn")
        places = browser.count("#board [data-place].target")
        assert (places > 0) == (game == "saboteur"), (game, places)
        if places:
            assert "Click a highlighted place on the board, or choose below" in said, said
        else:
            assert "highlighted" not in said and said.endswith("legal move(s): choose one below."), said
        no_problems(browser)


def test_a_move_played_with_the_keyboard_keeps_the_focus_in_the_turn_panel(browser, site):
    """Tab to a move, Enter: the move was played, but the panel was drawn anew and the focus fell to
    the page's top, so each next move took a dozen Tabs again past the header, the token box and the
    replay bar (found by a person-in-browser audit). The focus stays in the panel (on the panel while
    the move is sent, then on the next list's first move, or its filter when a long list folds away):
    Enter plays move after move, a Tab and an Enter on the fold at most between them."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    gid, token = _my_game(site, "indagar", [])
    browser.open(f"{site.url}/web/games/{gid}#token={token}")
    browser.wait(f"return !!({MY_TURN})", what="my turn")
    keys = ActionChains(browser.driver)
    for _ in range(40):  # from the page's top, as a person starts
        keys.send_keys(Keys.TAB).perform()
        if browser.js("return document.activeElement.matches('#turn-panel button.move')"):
            break
    else:
        raise AssertionError("Tab never reached a move")
    for move in range(4):
        version = browser.js("return document.querySelector('#board').dataset.version")
        keys.send_keys(Keys.ENTER).perform()
        browser.wait("return document.querySelector('#board').dataset.version !== arguments[0]", version,
                     what=f"move {move + 1} played with Enter")
        site.play_bots(gid)  # the monsters' turns, if any come between
        browser.wait("return document.querySelector('#board').dataset.version === arguments[0]",
                     str(site.service.load(gid).version), what=f"the position after move {move + 1}")
        for _ in range(2):  # and once more after the page's last read of its moves has landed
            browser.wait(f"return !!({MY_TURN}) && document.activeElement !== document.getElementById('turn-panel') && "
                         "document.getElementById('turn-panel').contains(document.activeElement)",
                         what=f"the focus on a control of the next list after move {move + 1}")
            time.sleep(0.3)
        assert browser.js("return getComputedStyle(document.activeElement).outlineStyle") != "none"
        for tabs in range(4):  # a long list folds away: past the filter, Enter on the fold opens it
            if browser.js("return document.activeElement.matches('#turn-panel button.move')"):
                break
            opens = browser.js("return document.activeElement.matches('details:not([open]) > summary')")
            keys.send_keys(Keys.ENTER if opens else Keys.TAB).perform()
        assert browser.js("return document.activeElement.matches('#turn-panel button.move')"), browser.js(
            "const e = document.activeElement; return [e.tagName, e.className, e.outerHTML.slice(0, 200)]")
    no_problems(browser)


def test_seconds_per_move_starts_at_a_playable_time_not_the_fischer_increment(browser, site):
    """The clock's one seconds field reads "increment, seconds" for Fischer and "seconds per move" per
    move, and starts at 5, the increment: a person who chose "seconds per move" and created the game
    had 5 seconds a move and lost on time before reading the board (found by a person-in-browser
    audit). Per move it starts at 30 s; a number the person typed is kept either way."""
    from tests.browser.playing import choose

    browser.open(f"{site.url}/web")
    browser.wait("return document.querySelector('#new-game option')", what="the new-game form")
    browser.js("document.querySelector('#create-box').open = true")
    seconds = "document.querySelector('#create-box [name=seconds]')"
    choose(browser, "#create-box [name=clock]", "fischer")
    assert browser.js(f"return {seconds}.value") == "5"
    choose(browser, "#create-box [name=clock]", "per_move")
    assert browser.js(f"return {seconds}.value") == "30"
    choose(browser, "#create-box [name=clock]", "fischer")
    assert browser.js(f"return {seconds}.value") == "5"
    browser.js(f"const s = {seconds}; s.value = '12'; s.dispatchEvent(new Event('input', {{bubbles: true}}))")
    choose(browser, "#create-box [name=clock]", "per_move")
    assert browser.js(f"return {seconds}.value") == "12"
    no_problems(browser)


def test_the_lobby_follows_your_games_without_a_reload(browser, site, api):
    """The lobby read "Your games" once, when it was opened: a game that ended meanwhile (its clock ran
    out, a seat resigned) still said "your turn" until the page was reloaded (found by a
    person-in-browser audit, who left the lobby open while a timed game ran out). The list is read
    again every few seconds while the tab is in sight, and as soon as it comes back into sight."""
    from tests.browser.playing import create_game, sign_up

    sign_up(browser, site.url, "Lobbyist")
    auth = {"Authorization": "Bearer " + browser.js("return JSON.parse(localStorage.getItem('delve.player')).token")}
    gid = create_game(browser, site.url, "mountain-king", ["me", "greedy"])
    site.play_bots(gid)
    browser.open(f"{site.url}/web")
    mine = f"document.querySelector('#my-games li[data-game=\"{gid}\"]')"
    browser.wait(f"return {mine} && {mine}.textContent.includes('your turn')", what="the game, my turn, in Your games")
    resigned = api.post(f"/v1/games/{gid}/resign", headers=auth)
    assert resigned.status_code in (200, 201), resigned.text
    browser.wait(f"return {mine} && {mine}.textContent.includes('finished')", what="the game, finished, in Your games",
                 timeout=30)
    # and how it ended for me: a finished game said only "finished" (the same person-in-browser audit)
    assert browser.js(f"return {mine}.textContent").endswith(" · finished: you lost")
    no_problems(browser)
