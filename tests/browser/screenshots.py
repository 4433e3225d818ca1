"""Regenerate docs/screenshots/: the lobby, a finished game of every game at its
last step, each game's play screen (a person's turn: the legal moves highlighted on
the board and listed by label; Saboteur with a card picked, and at 375 px wide), a
seat's own view of a live, clocked Saboteur game, and a tournament page, taken
from the same site the browser tests use.

    .venv/bin/python -m tests.browser.screenshots [--out docs/screenshots]

Uses REDIS_URL when set, else an embedded throwaway Redis; needs Chromium
(see tests/browser/chromium.py).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from localredis.server import EmbeddedRedis
from tests.browser.chromium import Browser, missing
from tests.browser.site import GAMES, running_site

ROOT = Path(__file__).resolve().parents[2]
SETTLED = ("return document.getElementById('board').dataset.version === arguments[0] && "
           "document.querySelectorAll('#scores tbody tr').length > 0 && "
           "document.querySelector('#audit dl') !== null")


def _shoot(browser: Browser, url: str, ready: str, arg: str | None, out: Path) -> Path:
    """Open ``url`` in a fresh tab, wait until ``ready`` holds, save the page; a page with
    problems (script errors, failed requests) is not worth a picture."""
    browser.fresh_tab().open(url)
    browser.wait(ready, arg, what=f"{url} to settle")
    problems = browser.problems()
    if any(problems.values()):
        raise SystemExit(f"{url} reported problems: {problems}")
    browser.screenshot(out)
    return out


MY_TURN = "return document.querySelector('#turn-panel button.move') !== null"


def _shoot_play(browser: Browser, site, game: str, out: Path, width: int | None = None) -> Path:
    """A person's turn in a live game: the page with its seat token, the board's legal places
    highlighted; in Saboteur a hand card picked, so the cells it may go to stand out."""
    live = site.live[game]
    tab = browser.fresh_tab()
    if width:
        tab.driver.set_window_size(width, 900)
    try:
        tab.open(f"{site.url}/web/games/{live.id}#token={live.token}")
        tab.wait(MY_TURN, what=f"{game}: the person's turn")
        if game == "saboteur":
            tab.js("document.querySelector('#board .hand-slot.target').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
            tab.wait("return document.querySelectorAll('#board .picked').length > 0", what="a picked card")
        problems = tab.problems()
        if any(problems.values()):
            raise SystemExit(f"{game} play screen reported problems: {problems}")
        tab.screenshot(out)
    finally:
        if width:
            tab.driver.set_window_size(1400, 1000)
    return out


def take(site, out: Path) -> list[Path]:
    def version(game_id: str) -> str:
        return site.service.store.meta(game_id)["version"]

    browser = Browser()
    try:
        shots = [_shoot(browser, f"{site.url}/web", "return document.querySelectorAll('#tournaments tbody tr').length"
                        " > 0 && document.querySelectorAll('#games tbody tr').length > 0", None, out / "lobby.png")]
        for game in GAMES:
            game_id = site.finished[game]
            shots.append(_shoot(browser, f"{site.url}/web/games/{game_id}", SETTLED, version(game_id), out / f"{game}.png"))
        for game in GAMES:
            shots.append(_shoot_play(browser, site, game, out / f"play-{game}.png"))
        shots.append(_shoot_play(browser, site, "saboteur", out / "play-saboteur-375px.png", width=375))
        live = site.clocked  # a seat's own hand, and the clocks
        shots.append(_shoot(browser, f"{site.url}/web/games/{live.id}#token={live.token}", SETTLED, version(live.id),
                            out / "saboteur-seat.png"))
        shots.append(_shoot(browser, f"{site.url}/web/tournaments/{site.tournament}",
                            "return document.querySelectorAll('#rounds section.round').length > 0", None,
                            out / "tournament.png"))
    finally:
        browser.close()
    return shots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    why_not = missing()
    if why_not:
        sys.exit(f"cannot take screenshots: {why_not}")
    embedded = None if os.environ.get("REDIS_URL") else EmbeddedRedis()
    url = os.environ.get("REDIS_URL") or embedded.start()
    try:
        with running_site(url) as site:
            for path in take(site, args.out):
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    finally:
        if embedded:
            embedded.stop()


if __name__ == "__main__":
    main()
