"""One served site and one headless Chromium for all the browser tests.

Both are session-wide: building the site plays a bot game of every served
game to the end (the expensive part) and a browser starts in about a second.
Without Chromium every test here is skipped with the reason, so `make test`
still passes on a machine that has none.
"""
from __future__ import annotations

import httpx
import pytest

from tests.browser.chromium import Browser, missing
from tests.browser.play_site import PlaySite, running_play_site
from tests.browser.site import Site, running_site

WHY_NOT = missing()


def pytest_collection_modifyitems(items):
    if WHY_NOT is None:
        return
    skip = pytest.mark.skip(reason=f"browser tests skipped: {WHY_NOT}")
    for item in items:
        if "tests/browser/" in item.nodeid:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def site(redis_url) -> Site:
    with running_site(redis_url) as built:
        yield built


@pytest.fixture(scope="session")
def chromium() -> Browser:
    browser = Browser()
    yield browser
    browser.close()


@pytest.fixture
def browser(chromium: Browser) -> Browser:
    """The session's browser in a fresh tab: no token or log line of an earlier test."""
    return chromium.fresh_tab()


@pytest.fixture(scope="session")
def api(site: Site) -> httpx.Client:
    """The site's API over HTTP, as a client author would call it."""
    with httpx.Client(base_url=site.url, timeout=30) as client:
        yield client


@pytest.fixture(scope="module")
def play_site(redis_url) -> PlaySite:
    """A site running in real time (workers, reactor, clocks), one per module that plays on it."""
    with running_play_site(redis_url) as built:
        yield built


@pytest.fixture(scope="module")
def person() -> Browser:
    """A person's own browser profile: its own localStorage, so its own player token."""
    browser = Browser()
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def other_person() -> Browser:
    """A second person, on a phone-sized window."""
    browser = Browser(width=375, height=800)
    yield browser
    browser.close()
