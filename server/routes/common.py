"""Small helpers the blueprints share: the service and schema dumps (input parsing is server.parsing)."""
from __future__ import annotations

from flask import current_app
from marshmallow import Schema

from events.service import GameService


def service() -> GameService:
    return current_app.extensions["delve.service"]


def dump(schema: type[Schema], data, **kw) -> dict:
    return schema(**kw).dump(data)
