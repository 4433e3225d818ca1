"""The API app the fault tests run in gunicorn: Delve's own, plus the tests' tiny game
(short games that finish in a few moves, so a fault test can play many to the end)."""
from __future__ import annotations

from domain import registry
from server.app import create_app as delve_app
from tests.support.tinygame import GAME as TINY


def create_app():
    if "tiny" not in registry.available():
        registry.register(TINY)
    return delve_app()
