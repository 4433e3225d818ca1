"""No page ever receives another seat's hidden information (SAB-INFO-1), checked on
what the browser itself loaded: every API response body the page was sent, streams
included (tests/browser/chromium.py's recorder), while a person plays a 4-seat
Saboteur game by clicking. At each of their turns (the table at rest), no card in
another seat's hand may appear in anything the page received: the canary approach
of tests/api/test_api_secrecy.py, applied to the browser. The catalog's public
box contents (every card id of the deck) are the one response left out.
"""
from __future__ import annotations

import random
import re

import pytest

from domain.saboteur.content import CARDS

from tests.browser.chromium import Browser
from tests.browser.playing import create_game, play_out, sign_up


@pytest.fixture(scope="module")
def recorded() -> Browser:
    browser = Browser(record=True)
    yield browser
    browser.close()


def received(b: Browser, start: int = 0) -> tuple[str, int]:
    """What the page was sent by the API from chunk ``start`` on (the catalog's public box
    contents left out), and the number of chunks so far."""
    chunks = b.js("return window.__delve.bodies")
    return "".join(text for url, text in chunks[start:] if "/v1/catalog" not in url), len(chunks)


def test_a_page_never_receives_another_seats_cards(play_site, recorded):
    """Between two of the person's turns, nothing the page receives names a card that
    stayed in another seat's hand all along and that the page was never shown (a new round
    re-deals: such a gap is skipped)."""
    sign_up(recorded, play_site.url, "Canary")
    gid = create_game(recorded, play_site.url, "saboteur", ["me", "heuristic", "random", "random"])
    last: dict = {}
    known: set[str] = set()  # cards the page has been shown (played face up, its own hand)
    checked = []

    def at_rest(b: Browser, _moves: int) -> None:
        before = play_site.service.load(gid)
        seen, count = received(b, last.get("count", 0))
        after = play_site.service.load(gid)
        if before.meta["status"] != "active" or after.version != before.version:
            last.clear()  # the table moved while reading: start a fresh gap at the next turn
            return
        state = after.state
        others = {card for hand in state["hands"][1:] for card in hand}
        if last and last["round"] == state["round"]:
            # The canary can fail: the page's own hand is found the same way in what it received.
            mine = [card for card in state["hands"][0] if re.search(rf"\b{card}\b", received(b)[0])]
            assert mine or not state["hands"][0]
            # A card played face up in an earlier round and dealt again since is public history
            # (the move list names it again): only a card the page never saw may not appear.
            for card in sorted((last["others"] & others) - known):
                found = re.search(rf"\b{card}\b", seen)
                assert not found, f"the page was sent a card held by another seat, {card}: " \
                                  f"…{seen[max(0, found.start() - 300):found.end() + 100]}…"
            checked.append(after.version)
        known.update(c for c in CARDS if c not in known and re.search(rf"\b{c}\b", seen))
        last.update(count=count, others=others, round=state["round"])

    play_out(recorded, random.Random("canary"), before_move=at_rest)
    assert len(checked) >= 10, "the canary was checked at too few turns"
    assert play_site.service.load(gid).meta["status"] == "finished"
