"""What a person does in the pages, as steps the play tests share: become a
player, create a game from the lobby's form, and play a seat by clicking what
the page offers (a highlighted board place, else a labelled move) until the
game ends. Every step is bounded."""
from __future__ import annotations

import random
import time

from tests.browser.chromium import Browser

GAME_S = 240.0  # the longest one game may take to play out from a page
MOVE_S = 20.0  # the longest one click may take to land


def sign_up(b: Browser, url: str, name: str) -> str:
    """Become a player from the lobby's header; returns the player id (from the page)."""
    b.open(f"{url}/web")
    b.wait("return document.querySelector('#sign-in, #signed-in')", what="the sign-in box")
    if b.count("#signed-in"):
        b.click("#sign-out")
    b.js("document.querySelector('#player-name').value = arguments[0]", name)
    b.click("#sign-in button[type=submit]")
    b.wait("return document.querySelector('#new-token')", what="the new token, shown once")
    return b.js("return JSON.parse(localStorage.getItem('delve.player')).id")


def choose(b: Browser, css: str, value: str) -> None:
    """Pick an option of a select, as a person would (the change event fires)."""
    b.js("const s = document.querySelector(arguments[0]); s.value = arguments[1];"
         "s.dispatchEvent(new Event('change', {bubbles: true}))", css, value)


def create_game(b: Browser, url: str, game: str, seats: list[str], clock: dict | None = None,
                visibility: str = "public") -> str:
    """From the lobby: a game with these seats ("me", "open", or a bot's name); returns its id."""
    b.open(f"{url}/web")
    b.wait("return document.querySelector('#new-game option')", what="the new-game form")
    b.js("document.querySelector('#create-box').open = true")
    choose(b, "#new-game", game)
    choose(b, "#new-seats", str(len(seats)))
    for i, seat in enumerate(seats):
        kind = seat if seat in ("me", "open") else "bot"
        choose(b, f"[name=seat-{i}-kind]", kind)
        if kind == "bot":
            choose(b, f"[name=seat-{i}-bot]", seat)
    if clock:
        choose(b, "[name=clock]", clock["kind"])
        b.js("document.querySelector('[name=seconds]').value = arguments[0]", str(clock["seconds"]))
        choose(b, "[name=on_timeout]", clock.get("on_timeout", "forfeit"))
    choose(b, "[name=visibility]", visibility)
    b.click("#create-game")
    b.wait("return location.pathname.startsWith('/web/games/')", what="the new game's page")
    return b.js("return document.body.dataset.gameId")


def status(b: Browser) -> str:
    return b.text("#status")


OVER = "['finished', 'aborted'].includes(document.querySelector('#status').textContent)"
MY_TURN = "document.querySelector('#turn-panel button.move') && !document.querySelector('#turn-panel.busy')"


def one_move(b: Browser, rng: random.Random, deadline: float) -> None:
    """Click one move: a highlighted board place (70%, when there is one), then a move of the
    narrowed list if several remain; otherwise a move of the list. Waits until it landed."""
    version = b.js("return document.querySelector('#board').dataset.version")
    targets = b.count("#board [data-place].target")
    if targets and rng.random() < 0.7:
        b.js("const t = document.querySelectorAll('#board [data-place].target')[arguments[0]];"
             "t.dispatchEvent(new MouseEvent('click', {bubbles: true}))", rng.randrange(targets))
        if b.js("return document.querySelector('#board').dataset.version === arguments[0] && "
                "!document.querySelector('#turn-panel.busy') && document.querySelectorAll('#board .picked').length > 0",
                version):
            buttons = b.count("#turn-panel button.move")
            b.js("document.querySelectorAll('#turn-panel button.move')[arguments[0]].click()", rng.randrange(buttons))
    else:
        buttons = b.count("#turn-panel button.move")
        b.js("document.querySelectorAll('#turn-panel button.move')[arguments[0]].click()", rng.randrange(buttons))
    b.wait(f"return document.querySelector('#board').dataset.version !== arguments[0] || {OVER}",
           version, what="the board after my move", timeout=max(1.0, min(MOVE_S, deadline - time.monotonic())))


def play_together(pages: list[Browser], rng: random.Random, *, max_moves: int = 800, timeout: float = GAME_S,
                  before_move=None) -> int:
    """Play every page's seat by clicking until each page's game has ended (the pages may
    share a game, or not). Returns the moves made; bounded by ``max_moves`` and ``timeout``."""
    deadline = time.monotonic() + timeout
    moves = 0
    while moves < max_moves and time.monotonic() < deadline:
        playing = [b for b in pages if not b.js(f"return {OVER}")]
        if not playing:
            return moves
        ready = [b for b in playing if b.js(f"return !!({MY_TURN})")]
        if not ready:
            time.sleep(0.05)
            continue
        for b in ready:
            if before_move:
                before_move(b, moves)
            one_move(b, rng, deadline)
            moves += 1
    raise AssertionError(f"the games did not end ({moves} moves); problems: {[b.problems() for b in pages]}")


def play_out(b: Browser, rng: random.Random, **bounds) -> int:
    """Play the page's seat to the end by clicking; the other seats are bots."""
    return play_together([b], rng, **bounds)


def no_problems(b: Browser) -> None:
    """No script error, no failed request: but a 409 on /actions, which is the race the page
    answers by refreshing (seats that act at once, as in Mountain King's starter draft)."""
    problems = b.problems()
    raced = [f for f in problems["failed"] if f["status"] == 409 and f["url"].endswith("/actions")]
    problems["failed"] = [f for f in problems["failed"] if f not in raced]
    problems["log"] = [line for line in problems["log"] if not ("/actions" in line and "409" in line)]
    assert problems == {"errors": [], "failed": [], "log": []}, problems
