"""Small helpers the blueprints share: the service and schema dumps (input parsing is server.parsing)."""
from __future__ import annotations

from functools import lru_cache

from flask import current_app
from marshmallow import Schema

from events.service import GameService


def service() -> GameService:
    return current_app.extensions["delve.service"]


@lru_cache(maxsize=None)
def schema(cls: type[Schema]) -> Schema:
    """One instance per schema class. Building a marshmallow schema deep-copies its declared
    fields (and its nested schemas' on first use): the profile of a game read showed it as
    its largest cost after the Redis round trip. Dumping and loading do not change an
    instance, so every request may share it."""
    return cls()


def dump(cls: type[Schema], data) -> dict:
    return schema(cls).dump(data)
