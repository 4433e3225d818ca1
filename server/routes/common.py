"""Small helpers the blueprints share: the service, JSON bodies, schema dumps."""
from __future__ import annotations

from flask import current_app, request
from marshmallow import Schema

from events.service import GameService
from server.errors import ApiError


def service() -> GameService:
    return current_app.extensions["delve.service"]


def json_body() -> object:
    """The parsed JSON body; 415 for another media type, 400 for broken JSON."""
    if not request.is_json:
        raise ApiError(415, "unsupported_media_type", "send the body as application/json")
    body = request.get_json(silent=True)
    if body is None:
        raise ApiError(400, "malformed_json", "the body is not valid JSON")
    return body


def query(schema: type[Schema]) -> dict:
    return schema().load(request.args.to_dict())


def dump(schema: type[Schema], data, **kw) -> dict:
    return schema(**kw).dump(data)
