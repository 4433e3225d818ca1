"""The OpenAPI document: it ships inside the server package, so every install serves it.

``server/openapi.yaml`` is the contract of record, edited by hand but for the per-game schemas:
those are composed from the registry's games when the document is served
(``server.openapi_games``), so a game registered by its one line is documented too. Read it from
here, never from the working directory: an installed wheel has no repository around it.
``python -m server.spec > openapi.yaml`` (``make openapi``) writes the served document: the repository
keeps it at its top, for client authors, and a test holds it equal to what is served.
"""
from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

import yaml

from domain import registry
from server import openapi_games

PATH = Path(__file__).with_name("openapi.yaml")


def text(games: tuple[str, ...] | None = None) -> str:
    """The document as served: the file with the schemas of ``games`` (default: every registered
    game) in their place."""
    return _composed(tuple(registry.available()) if games is None else games)


def document() -> dict:
    """The parsed served document (read-only: shared by every caller)."""
    return _parsed(tuple(registry.available()))


@lru_cache(maxsize=4)  # keyed by the registered games: a game registered at run time is documented
def _composed(games: tuple[str, ...]) -> str:
    return openapi_games.render(PATH.read_text(encoding="utf-8"), [registry.get(gid) for gid in games])


@lru_cache(maxsize=4)
def _parsed(games: tuple[str, ...]) -> dict:
    return yaml.safe_load(_composed(games))


if __name__ == "__main__":
    sys.stdout.write(text())
