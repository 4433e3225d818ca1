"""People play Delve in the browser, by clicking only (issue "Play in the browser").

Against a site that runs in real time (tests/browser/play_site.py): a complete
game of each game with one human seat against bots, created from the lobby's
form; a 2-player open-seat game between two browsers (two profiles, two player
tokens) through to both ratings changing; a clocked game ended by the timeout;
a 4-entrant tournament created, joined and played to its standings from the
pages. Every page must end without a script error or a failed request.
"""
from __future__ import annotations

import random
import re

import pytest

from tests.browser.playing import choose, create_game, no_problems, play_out, play_together, sign_up, status


# One human seat and bots; Saboteur at three seats. Options left to the game's defaults.
TABLES = {
    "saboteur": ["me", "heuristic", "random"],
    "mountain-king": ["me", "greedy"],
    "dwarf": ["me"],
    "indagar": ["me"],
}


# Made before the page's scripts run: every AudioContext the page creates, and whether a click or a
# key had reached the page by then (a browser refuses to start sound before one, and logs it).
AUDIO_PROBE = """
(() => {
  if (window.__audio) return;
  window.__audio = [];
  const Real = window.AudioContext;
  if (Real) {
    window.AudioContext = function (...args) {
      __audio.push(navigator.userActivation ? navigator.userActivation.hasBeenActive : null);
      return new Real(...args);
    };
  }
})();
"""


def ends_always_listed(play_site, gid, seen):
    """A before_move check for Mountain King: every legal command that ends a step or the turn has its
    button outside the folded, capped list, and trades come after the list's other moves."""
    def check(b, _moves):
        legal = play_site.service.legal(gid, 0)
        if str(legal["version"]) != b.js("return document.querySelector('#board').dataset.version"):
            return
        ends = sorted(i for i, c in enumerate(legal["commands"]) if c["type"] in ("end_step", "end_turn"))
        shown = b.js("return [...document.querySelectorAll('#moves-pinned button.move')].map((x) => Number(x.dataset.index))")
        assert sorted(shown) == ends, (shown, ends, len(legal["commands"]))
        kinds = b.js("return [...document.querySelectorAll('#moves button.move')].map((x) => x.dataset.type)")
        assert "trade" not in kinds or set(kinds[kinds.index("trade"):]) == {"trade"}, kinds
        if ends:
            seen.append(len(legal["commands"]))
    return check


def path_cards_drawn(play_site, gid, seen):
    """A before_move check for Saboteur: every listed path move shows its card as it would lie, upright
    or rotated (the drawing's open edges are the rules' for that orientation), so the two moves of a
    card that fits a cell both ways are told apart by eye; a card that lies the same turned (a cross, a
    straight), or two copies of one card, are listed once at a cell, not twice with one drawing."""
    from domain.saboteur.content import CARDS
    from domain.saboteur.maze import oriented

    def check(b, _moves):
        legal = play_site.service.legal(gid, 0)
        if str(legal["version"]) != b.js("return document.querySelector('#board').dataset.version"):
            return
        drawn = b.js("return [...document.querySelectorAll('#turn-panel button.move[data-type=play_path]')].map((x) => "
                     "[Number(x.dataset.index), x.querySelector('svg.move-card title')?.textContent ?? null])")
        for index, title in drawn:
            command = legal["commands"][index]
            edges = oriented(CARDS[command["card"]].shape, bool(command.get("rotated")))[0]
            turned = " rotated" if command.get("rotated") else ""
            assert title == f"{command['card']}{turned}: open {', '.join(edges)}", (command, title)
            seen.append(index)
        lies = [(c["x"], c["y"], sorted(oriented(CARDS[c["card"]].shape, bool(c.get("rotated")))[1]))
                for c in (legal["commands"][index] for index, _ in drawn)]  # two copies of a card lie alike too
        assert len(lies) == len({repr(x) for x in lies}), lies
    return check


def short_moves_marked(play_site, gid, seen):
    """A before_move check for DWARF: a listed placement, Special Action or order is marked, with what
    the seat lacks in words, exactly when the rules would leave one of its actions unpaid with what
    the seat holds now (DW-RES-6): a Forge's cost on top, a Special Action's face, an order's steps."""
    from domain.dwarf import content, ordering
    from domain.dwarf.state import has, pile_at, top_effect

    def short(state, command) -> bool:
        if command["type"] == "place":
            return not has(state, 0, top_effect(state, f"{command.get('mine', 0)}:{command['location']}").cost)
        if command["type"] == "special":
            return not has(state, 0, content.special_of(pile_at(state, command["pile"])[0]).cost)
        order = [f"{x['mine']}:{x['location']}" for x in command.get("locations", [])]
        return ordering.outcome(state, 0, order)[1] < len(order)

    def check(b, _moves):
        g = play_site.service.load(gid)
        if str(g.version) != b.js("return document.querySelector('#board').dataset.version"):
            return
        legal = g.game.legal_commands(g.state, 0)
        shown = b.js("return [...document.querySelectorAll('#turn-panel button.move')].map((x) => "
                     "[Number(x.dataset.index), x.classList.contains('short'), x.querySelector('.lacks')?.textContent ?? null])")
        for index, marked, words in shown:
            command = legal[index]
            if command["type"] in ("place", "special", "order"):
                assert marked == short(g.state, command) == (words is not None), (command, marked, words)
                seen.append(marked)
    return check


def end_line(b) -> str:
    b.wait("return !document.querySelector('#result').hidden", what="the end in words in the header")
    return b.text("#result")


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_person_plays_a_whole_game_against_bots_by_clicking(play_site, person, game):
    person.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": AUDIO_PROBE})
    me = sign_up(person, play_site.url, f"solo {game}")
    gid = create_game(person, play_site.url, game, TABLES[game])
    person.wait("return document.querySelector('#turn-panel button.move') || "
                "['finished'].includes(document.querySelector('#status').textContent)",
                what=f"the first turn (site: {play_site.problems()}, {play_site.summary(gid)['active_seats']})")
    assert "Your turn" in person.text("#your-turn") or status(person) == "finished"
    # Reloaded on my turn, before any click or key: no AudioContext is made, so none is refused.
    person.driver.refresh()
    person.wait("return document.querySelector('#turn-panel button.move')", what="my turn after a reload")
    assert person.js("return window.__audio") == [], person.js("return window.__audio")
    assert not [e for e in person.driver.get_log("browser") if "AudioContext" in e["message"]]
    # A place of the board that no move involves says so when clicked, and the selection stays as it was.
    missed = person.js("return document.querySelector('#board [data-place]:not(.target):not(.picked)') !== null")
    if missed:
        person.js("document.querySelector('#board [data-place]:not(.target):not(.picked)')"
                  ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        person.wait("return document.querySelector('#board-hint')", what="the hint for a place without a move")
        assert person.text("#board-hint").startswith("No move there"), person.text("#board-hint")
        assert person.count("#board .picked") == 0
    if game == "saboteur":  # live scores are zeros while the gold lies face down: the panel says so
        person.wait("return document.querySelector('#scores table')", what="the scores panel")
        assert "face down until the end" in person.text("#scores"), person.text("#scores")
    seen: list = []  # what the check saw: turns that offered an end, path moves drawn, moves marked short or not
    check = {"mountain-king": ends_always_listed, "saboteur": path_cards_drawn, "dwarf": short_moves_marked}.get(game)
    check = check and check(play_site, gid, seen)
    moves = play_out(person, random.Random(game), before_move=check)
    assert moves > 0 and status(person) == "finished"
    assert play_site.summary(gid)["status"] == "finished"
    person.wait("return document.querySelector('#scores').textContent.includes('final scores')", what="the final scores")
    said = end_line(person)
    assert said.startswith("Game over: ") and said.endswith(".") and "_" not in said and "seat:" not in said, said
    assert " win" in said or "nobody wins" in said, said
    board = person.text("#board")
    if game == "mountain-king":
        assert seen, "no turn offered an end of step or turn"
        assert "current:" not in person.text("#board .status-line"), person.text("#board .status-line")
        assert "{" not in person.js("return [...document.querySelectorAll('#board dl.facts dd')].map((d) => d.textContent).join(' ')")
    if game == "saboteur":  # gold in words, and each seat's number (move labels say "seat 2")
        assert seen, "no turn listed a path card to play"
        # The maze's coordinates along its edges, as the labels name cells: x along the top, y down the left.
        axis = person.texts("#board svg.maze text.axis")
        assert "0" in axis and "8" in axis and "-2" in axis and "2" in axis, axis
        headers = person.texts("#board table th")
        assert headers[:2] == ["seat", "player"], headers
        gold = person.js("return [...document.querySelector('#board table').tBodies[0].rows].map((tr) => tr.lastElementChild.textContent)")
        assert gold and all(re.fullmatch(r"(1 nugget|\d+ nuggets)(: round \d: \d+( \+ \d+)*(; round \d: \d+( \+ \d+)*)*)?", g)
                            for g in gold), gold
        assert "after round 3" in said, said
        # Each round played names its saboteurs, revealed at the round's end (SAB-OVW-1).
        cells = person.js("const s = [...document.querySelectorAll('#board section.block')].find((x) => "
                          "x.querySelector('h3')?.textContent === 'Rounds played');"
                          "return [...s.querySelectorAll('tbody tr')].map((tr) => tr.lastElementChild.textContent)")
        assert len(cells) == 3 and all(c and c != "—" for c in cells), cells
    if game == "indagar":  # names, not ids or JSON
        assert "seat:" not in board and '{"' not in board and "retreat (" not in board, board
        assert "toward its victory" in person.texts("#board table th")
        # Each hero card's abilities in words, and each player's strategy board (IND-ABL-2, IND-STR-3).
        abilities = person.texts("#board table.ind-cards li.ind-ability")
        assert any(a.startswith("basic: ") for a in abilities) and not [a for a in abilities if "{" in a], abilities
        assert person.count("#board details.ind-strategy") == len(play_site.summary(gid)["seats"])
    if game == "dwarf":  # solo: the automaton is scored beside the person
        assert True in seen, "no listed move was marked as one the seat cannot pay"
        assert any("automaton" in row for row in person.texts("#scores tr"))
        assert "game over: " + said.split(": ", 1)[1].split(";")[0] in person.text("#board .status") or \
            "resigned" in said, (said, person.text("#board .status"))
        # Each location's number as the labels name it ("at 13"), a mark on each threat on top, and a Legend.
        from domain.dwarf.content import THREATS
        view = play_site.service.summary(gid, 0)["view"]  # the seat's view, as the page draws it
        assert person.texts("#board svg.dw-mine text.dw-loc") == [f"{r}{c}" for r in (1, 2, 3) for c in (1, 2, 3)] * len(view["mines"])
        threats = sum(1 for area in view["mines"] for cell in area["mine"].values() if cell["effect"] in THREATS)
        assert person.count("#board svg.dw-mine .dw-threat") == threats
        assert "objects majority" in person.text("#scores") and "(automaton)" not in person.text("#scores")
        # Under the final scores, why the game moved no rating: one seat against the game's automaton.
        assert person.text("#scores #rating-line").startswith("Not rated: a solo game"), person.text("#scores")
        person.js("document.querySelector('#board #legend').open = true")
        assert "location's number" in person.text("#board #legend") and "threat" in person.text("#board #legend")
    person.wait("return document.querySelector('#rematch')", what="the rematch button")
    no_problems(person)
    if game == "dwarf":  # the same game again: the player's seat reserved for them and taken at once
        person.click("#rematch")
        person.wait("return location.pathname !== arguments[0]", f"/web/games/{gid}", what="the rematch's page")
        again = person.js("return document.body.dataset.gameId")
        person.wait("return document.querySelector('#status').textContent === 'active'", what="the rematch started")
        assert play_site.summary(again)["game"] == "dwarf" and play_site.summary(again)["seats"][0]["player"]
        no_problems(person)
        # The player's page places the solo game among both its participants, the automaton too.
        person.open(f"{play_site.url}/web/players/{me}")
        person.wait("return [...document.querySelectorAll('table.games td')].some((td) => / of 2$/.test(td.textContent))",
                    what="the solo game's place of 2")
        said = person.js("return [...document.querySelectorAll('table.games tr.game-row')].find((tr) => "
                         "tr.textContent.includes(arguments[0]))?.querySelector('td.rating-said').textContent", gid)
        assert said.startswith("Not rated: a solo game"), said
        no_problems(person)


def test_a_resignation_is_said_in_words_in_the_header(play_site, person):
    """Mountain King resigned mid-game: the header says who resigned and who wins, and the board
    no longer names a current player."""
    sign_up(person, play_site.url, "Quitter")
    gid = create_game(person, play_site.url, "mountain-king", ["me", "greedy"])
    person.wait("return document.querySelector('#resign')", what="the resign button")
    person.click("#resign")
    assert play_site.summary(gid)["status"] == "active"  # one click only asks
    person.click("#resign-confirm")
    person.wait("return document.querySelector('#status').textContent === 'finished'", what="the resignation")
    # The summary may say "finished" before the stream brings the SeatConceded that says why; the page
    # reads the whole log again at the end, and the line then names the resignation.
    person.wait("return document.querySelector('#result').textContent.includes('resigned')",
                what="the header naming the resignation")
    assert end_line(person) == "Game over: Quitter resigned; greedy-1 wins."
    person.wait("return document.querySelector('#board .status-line')?.textContent.startsWith('game over')",
                what="the board's status line after the end")
    assert "current:" not in person.text("#board .status-line")
    no_problems(person)


def test_cancelling_an_open_game_from_the_lobby_asks_first(play_site, person):
    sign_up(person, play_site.url, "Canceller")
    gid = create_game(person, play_site.url, "dwarf", ["me", "open"])
    person.open(f"{play_site.url}/web")
    mine = f"#my-games [data-game={gid}]"
    person.wait("return document.querySelector(arguments[0] + ' button.cancel')", mine, what="my open game with Cancel")
    person.click(f"{mine} button.cancel")
    person.wait("return document.querySelector(arguments[0] + ' button.cancel-confirm')", mine, what="the question")
    assert "Cancel this game" in person.text(f"{mine} .cancel-box")
    assert play_site.summary(gid)["status"] == "open"  # one click only asks
    person.click(f"{mine} button.cancel-keep")
    assert person.count(f"{mine} button.cancel") == 1 and play_site.summary(gid)["status"] == "open"
    person.click(f"{mine} button.cancel")
    person.click(f"{mine} button.cancel-confirm")
    person.wait("return document.querySelector(arguments[0])?.textContent.includes('aborted')", mine, what="the cancel")
    assert play_site.summary(gid)["status"] == "aborted"
    no_problems(person)


def test_two_players_join_an_open_seat_and_both_ratings_change(play_site, person, other_person):
    ann = sign_up(person, play_site.url, "Ann")
    bob = sign_up(other_person, play_site.url, "Bob")
    gid = create_game(person, play_site.url, "dwarf", ["me", "open"])
    person.wait("return document.querySelector('#status').textContent === 'open'", what="the game waiting for a player")
    other_person.open(f"{play_site.url}/web")
    other_person.wait(f"return document.querySelector('#open-games [data-game={gid}] button.join')", what="the open game")
    other_person.js(f"document.querySelector('#open-games [data-game={gid}] button.join').click()")
    other_person.wait("return location.pathname.endsWith(arguments[0])", gid, what="the joined game's page")
    for page in (person, other_person):
        page.wait("return document.querySelector('#status').textContent === 'active'", what="the game started")
    play_together([person, other_person], random.Random(7))
    assert play_site.summary(gid)["status"] == "finished"
    for page, me in ((person, ann), (other_person, bob)):
        page.open(f"{play_site.url}/web/players/{me}")
        page.wait("return document.querySelector('#history .rating-change')", what="a rating change", timeout=30)
        assert page.js("return document.querySelector('#history a.after-game').dataset.gameId") == gid
        assert page.text("table.games tr.game-row td.rating-said").startswith("Rated"), page.text("table.games")
        no_problems(page)


def test_a_clocked_game_shows_the_clock_and_the_timeout_ends_it(play_site, person):
    sign_up(person, play_site.url, "Slow")
    gid = create_game(person, play_site.url, "mountain-king", ["me", "greedy"],
                      clock={"kind": "per_move", "seconds": 3, "on_timeout": "forfeit"})
    person.wait("return document.querySelector('#seats .clock.running')", what="my clock running")
    shown = person.text("#seats .clock.running")
    assert shown.startswith("0:0"), shown
    # under 10 s a running clock is red: move now (a person let one run out without a warning)
    person.wait("return document.querySelector('#seats .clock.running.low')", what="my clock marked low")
    assert person.js("return getComputedStyle(document.querySelector('#seats .clock.running.low')).color") \
        == "rgb(197, 48, 48)"
    person.wait("return document.querySelector('#status').textContent === 'finished'", what="the timeout", timeout=30)
    summary = play_site.summary(gid)
    assert summary["status"] == "finished" and summary["outcome"]["winners"] == ["seat:1"]
    person.wait("return [...document.querySelectorAll('#events li')].some((li) => li.textContent.includes('timeout'))",
                what="the timeout in the event list")
    no_problems(person)


def test_a_tournament_is_created_joined_and_played_to_standings_from_the_web(play_site, person, other_person):
    sign_up(person, play_site.url, "Org")
    sign_up(other_person, play_site.url, "Guest")
    person.open(f"{play_site.url}/web")
    person.wait("return document.querySelector('#t-game option')", what="the tournament form")
    person.js("document.querySelector('#create-tournament-box').open = true")
    person.js("document.querySelector('#t-name').value = 'Web cup'")
    choose(person, "#t-game", "dwarf")
    assert person.js("return document.querySelector('#t-size').value") == "2"  # DWARF's smallest table of two or more
    choose(person, "#t-format", "swiss")
    person.js("document.querySelector('#t-rounds').value = '1'")
    person.click("#create-tournament-button")
    person.wait("return location.pathname.startsWith('/web/tournaments/')", what="the tournament page")
    tid = person.js("return document.body.dataset.tournamentId")
    person.wait("return document.querySelector('#register')", what="register")
    person.click("#register")
    person.wait("return document.querySelector('#withdraw')", what="registered")
    other_person.open(f"{play_site.url}/web/tournaments/{tid}")
    other_person.wait("return document.querySelector('#register')", what="register (second player)")
    other_person.click("#register")
    other_person.wait("return document.querySelector('#withdraw')", what="registered (second player)")
    assert "You play in it as Guest (entrant" in other_person.js("return document.querySelector('#manage').textContent")
    for _ in range(2):
        person.wait("return document.querySelector('#add-bot')", what="add bot")
        count = person.count("#entrants tr.entrant")
        person.click("#add-bot")
        person.wait("return document.querySelectorAll('#entrants tr.entrant').length > arguments[0]", count, what="the bot added")
    person.click("#start")
    for page in (person, other_person):
        page.wait("return document.querySelector('#my-current-game')", what="my tournament game", timeout=30)
        page.click("#my-current-game")
        page.wait("return location.pathname.startsWith('/web/games/')", what="the game page")
        page.wait("return document.querySelector('#tournament-link')", what="the way back to the tournament")
        assert page.js("return document.querySelector('#tournament-link').getAttribute('href')") == f"/web/tournaments/{tid}"
    play_together([person, other_person], random.Random(11))
    person.open(f"{play_site.url}/web/tournaments/{tid}")
    person.wait("return document.querySelector('#status').textContent === 'finished'", what="the tournament finished",
                timeout=60)
    assert len(person.texts("#standings tbody tr")) == 4
    no_problems(person)


def test_the_lobby_offers_every_games_bots_with_the_search_levels_by_name(play_site, person):
    """Issue "Bots worth playing": a person picks "search bot, hard", not an id; the choice seats
    that level (the created game's seat names the bot id the API knows)."""
    person.open(f"{play_site.url}/web")
    person.wait("return document.querySelector('#new-game option')", what="the new-game form")
    person.js("document.querySelector('#create-box').open = true")
    for game in TABLES:
        choose(person, "#new-game", game)
        choose(person, "#new-seats", "3" if game == "saboteur" else "2")
        offered = person.js("return [...document.querySelectorAll('[name=seat-1-bot] option')]"
                            ".map((o) => [o.value, o.textContent])")
        levels = {value: text for value, text in offered if value.startswith("search-")}
        assert list(levels) == ["search-easy", "search-normal", "search-hard"], (game, offered)
        assert levels["search-hard"].startswith("search bot, hard (") and "playouts a move" in levels["search-hard"]
        assert ["random", "random (any legal move)"] in offered
        # Options' defaults in words: a null default as the catalog's description says, no JSON.
        defaults = person.js("return [...document.querySelectorAll('#create [data-option]')].map((el) => "
                             "el.tagName === 'SELECT' ? el.options[0].textContent : el.placeholder)")
        assert not [d for d in defaults if "null" in d or "[" in d or "{" in d], (game, defaults)
    choose(person, "#new-game", "mountain-king")
    assert person.text("[name=opt-board] option") == "default (Winter for 4-5 players and teams, Autumn for 2-3)"
    choose(person, "#new-game", "dwarf")
    assert person.text("[name=opt-solo_level] option") == "default (the game decides)"
    assert person.js("return document.querySelector('[name=opt-first_player]').placeholder") == "seeded random"
    gid = create_game(person, play_site.url, "mountain-king", ["me", "search-easy"])
    seats = person.js("return fetch('/v1/games/' + arguments[0]).then((r) => r.json()).then((g) => g.seats)", gid)
    assert seats[1]["bot"] == "search-easy"
    no_problems(person)


def test_a_refused_move_shows_the_servers_code_message_and_a_link_to_the_rule(play_site, person):
    """The page offers only legal moves, so a refusal comes from a move the server no longer takes;
    here the page's request is altered on its way out (every number in the command moved off the
    board), and the real server's 422 problem is what the page must show: code, message, rule link."""
    sign_up(person, play_site.url, "Refused")
    create_game(person, play_site.url, "saboteur", ["me", "heuristic", "random"])
    card = "#turn-panel button.move:is([data-type=play_path],[data-type=rockfall],[data-type=break_tool],[data-type=repair])"
    person.wait("return document.querySelector(arguments[0])", card, what="a card to play")
    person.js("""
        const send = window.fetch;
        const shift = (v) => typeof v === 'number' ? v + 50 : Array.isArray(v) ? v.map(shift)
          : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shift(x)])) : v;
        window.fetch = (url, init) => {
          if (String(url).endsWith('/actions') && init && init.method === 'POST') {
            const body = JSON.parse(init.body);
            body.command = shift(body.command);
            init = {...init, body: JSON.stringify(body)};
          }
          return send(url, init);
        };""")
    version = person.js("return document.querySelector('#board').dataset.version")
    person.js("document.querySelector(arguments[0]).click()", card)  # a card at (x, y) or on a seat
    person.wait("return /Refused \\(/.test(document.querySelector('#message')?.textContent || '')",
                what="the refusal shown")
    said = person.js("return document.querySelector('#message').textContent")
    link = person.js("return document.querySelector('a.rule-link')?.getAttribute('href')")
    assert said.startswith("Refused (") and "rule SAB-" in said, said
    assert link and link.startswith("/rules/saboteur#SAB-"), link
    assert person.js("return document.querySelector('#board').dataset.version") == version  # nothing was written


KEYBOARD_MOVES = 4  # moves the keyboard-only player makes, each answered by the automaton


def test_keyboard_alone_plays_moves_and_pages_fit_375_px(play_site, other_person):
    """Tab to a highlighted place of the board, Enter plays it: move after move of a solo game, the
    automaton answering between them. At 375 px nothing but the board itself scrolls sideways."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    sign_up(other_person, play_site.url, "Keys")
    assert other_person.js("return document.documentElement.scrollWidth <= window.innerWidth")
    create_game(other_person, play_site.url, "dwarf", ["me"])
    keys = ActionChains(other_person.driver)
    focused = "return document.activeElement && document.activeElement.matches(arguments[0])"
    for move in range(KEYBOARD_MOVES):
        other_person.wait("return document.querySelector('#board [data-place].target')", what=f"a place for move {move + 1}",
                          timeout=30)
        assert other_person.js("return document.documentElement.scrollWidth <= window.innerWidth"), "the page overflows"
        version = other_person.js("return document.querySelector('#board').dataset.version")
        for _ in range(300):
            if other_person.js(focused, "#board [data-place].target"):
                break
            keys.send_keys(Keys.TAB).perform()
        else:
            raise AssertionError(f"no board place is reachable with Tab for move {move + 1}")
        keys.send_keys(Keys.ENTER).perform()
        other_person.wait("return document.querySelector('#board').dataset.version !== arguments[0]", version,
                          what=f"move {move + 1} played with the keyboard")
    no_problems(other_person)
