"""Small helpers the blueprints share: the service, schema dumps and plain bodies (input parsing is server.parsing)."""
from __future__ import annotations

from collections import OrderedDict
from typing import Callable
from urllib.parse import urlencode

import orjson
from flask import Response, current_app, request
from marshmallow import Schema

from application.service import GameService
from domain.core import kept_bytes
from server.errors import problem
from server.parsing import schema

# Flask's provider sorts keys (and turns non-string keys into strings): the same bytes up to
# non-ASCII characters, which orjson writes as UTF-8 rather than \u escapes (the same JSON).
PLAIN_JSON = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
BODIES_KEPT = 1024  # encoded hot bodies kept per app (``plain_kept``)


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


def plain_kept(key: tuple | None, build: Callable[[], dict], headers: dict | None = None) -> Response:
    """:func:`plain` of ``build()``, its bytes kept under ``key`` (the service's ``summary_key`` or
    ``legal_key``: everything the body depends on) so a read of an unchanged game neither builds
    nor encodes it again. ``key`` None (a clocked game's summary counts down): built every time."""
    if key is None:
        return plain(build(), headers=headers)
    kept: OrderedDict = current_app.extensions.setdefault("delve.bodies", OrderedDict())
    body = kept.get(key)
    if body is None:
        body = kept[key] = kept_bytes(orjson.dumps(build(), option=PLAIN_JSON))
        while len(kept) > BODIES_KEPT:
            kept.popitem(last=False)
    else:
        kept.move_to_end(key)
    return current_app.response_class(body, headers=headers, mimetype="application/json")


def conditional(resp: Response) -> Response:
    """``resp.make_conditional`` (304 on a matching ``If-None-Match``, 412 on a failed ``If-Match``)
    when the request asks a conditional question; otherwise ``resp`` as it is: all werkzeug would
    add then is a second ``Date`` header beside the server's (gunicorn writes its own). Werkzeug
    sets a 412's status but keeps the representation as its body; it is answered as every error
    is, a problem (``precondition_failed``)."""
    environ = request.environ
    if environ.get("HTTP_IF_MATCH", "").strip() == "*":
        # Any current representation matches "*" (RFC 9110 13.1.1); werkzeug would answer 412.
        environ = {k: v for k, v in environ.items() if k != "HTTP_IF_MATCH"}
    if ("HTTP_IF_NONE_MATCH" in environ or "HTTP_IF_MATCH" in environ or "HTTP_IF_MODIFIED_SINCE" in environ
            or "HTTP_IF_UNMODIFIED_SINCE" in environ or "HTTP_RANGE" in environ):
        resp = resp.make_conditional(environ)
        if resp.status_code == 412:
            failed = problem(412, "precondition_failed", f"If-Match does not name this representation; its ETag "
                             f"is {resp.headers.get('ETag')}")
            failed.headers["ETag"] = resp.headers.get("ETag", "")
            return failed
    return resp


def next_link(path: str, params: dict) -> dict[str, str]:
    """The headers of a page that has a next one: an RFC 8288 ``Link`` to it, as a path relative
    to this server."""
    return {"Link": f'<{path}?{urlencode(params)}>; rel="next"'}
