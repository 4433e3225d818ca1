"""Small helpers the blueprints share: the service, schema dumps and plain bodies (input parsing is server.parsing)."""
from __future__ import annotations

import orjson
from flask import Response, current_app
from marshmallow import Schema

from application.service import GameService
from server.parsing import schema

# Flask's provider sorts keys (and turns non-string keys into strings): the same bytes up to
# non-ASCII characters, which orjson writes as UTF-8 rather than \u escapes (the same JSON).
PLAIN_JSON = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def service() -> GameService:
    return current_app.extensions["delve.service"]


def dump(cls: type[Schema], data) -> dict:
    return schema(cls).dump(data)


def plain(data: dict, status: int = 200, headers: dict | None = None) -> Response:
    """A JSON response of a body the service already builds in its schema's shape (game
    summary, legal actions, action result), without the marshmallow walk: that dump was half
    the CPU of a profiled game read once the Redis call was one. The schemas stay the
    documented shapes: tests/api/test_plain_bodies.py proves ``dump(schema, body) == body``
    for these bodies over every game, seat and version of played games."""
    return current_app.response_class(orjson.dumps(data, option=PLAIN_JSON), status=status, headers=headers,
                                      mimetype="application/json")
