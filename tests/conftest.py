"""Shared fixtures: a real Redis (REDIS_URL, else a throwaway embedded one).

Every test gets its own key prefix, so tests never see each other's data and
never flush a Redis they do not own.
"""
from __future__ import annotations

import os
import uuid

import pytest
import redis as redis_lib
from hypothesis import settings

from domain import registry
from localredis.server import EmbeddedRedis
from application import signing
from application.service import GameService
from events.store import RedisEventStore
from tests.support.house.rules import GAME as HOUSE
from tests.support.tinygame import GAME as TINY

registry.register(TINY)
registry.register(HOUSE)

# CI runs on a submission: its property tests should not stumble on a new
# random example there. Derandomized, a run is reproducible; locally the
# examples stay random, which is where new failures are worth finding.
# No deadline anywhere: a wall-clock limit per example fails on a loaded machine (an example of
# 0.6 ms once took 2 s there); speed is measured by `delve bench`, never asserted by a test.
settings.register_profile("delve", deadline=None)
settings.register_profile("ci", parent=settings.get_profile("delve"), derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "delve")


@pytest.fixture(scope="session")
def redis_url():
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    server = EmbeddedRedis()
    yield server.start()
    server.stop()


@pytest.fixture
def r(redis_url):
    client = redis_lib.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture
def prefix():
    return f"t{uuid.uuid4().hex[:10]}"


@pytest.fixture
def store(r, prefix):
    yield RedisEventStore(r, prefix=prefix, snapshot_every=5)
    for key in r.scan_iter(f"{prefix}:*"):
        r.delete(key)


@pytest.fixture(scope="session")
def signer(tmp_path_factory):
    """The test server's Ed25519 key (application.signing), made once per session."""
    return signing.ensure(tmp_path_factory.mktemp("signing") / "current.pem", "test-server")[0]


@pytest.fixture
def service(store, signer):
    return GameService(store, admin_token="admin-secret", signer=signer)


@pytest.fixture
def app(service):
    from server.app import create_app
    # Rate limits and hourly quotas off: a test creates players and games from one address at
    # will (tests/api/test_quotas.py and tests/abuse/ switch them on).
    return create_app(service, RATE_LIMIT=0, VERIFY_PER_MINUTE=0, SSE_BLOCK_MS=200, PLAYERS_PER_HOUR=0,
                      GAMES_PER_HOUR=0, TOURNAMENTS_PER_HOUR=0)


@pytest.fixture
def client(app):
    return app.test_client()
