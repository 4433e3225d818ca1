"""Every error is application/problem+json (RFC 9457) with a stable ``code``.

The HTTP layer maps the application's error values here, once; handlers
never build error responses by hand.
"""
from __future__ import annotations

import logging

import redis
from flask import Flask, Response, json
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from domain.core import Illegal
from events.service import Forbidden, NotActive
from events.store import GameNotFound, VersionConflict

log = logging.getLogger("delve.errors")
PROBLEM = "application/problem+json"


class ApiError(Exception):
    """An HTTP-level refusal raised by handlers (auth, paging, rate limits)."""

    def __init__(self, status: int, code: str, detail: str, **extra):
        super().__init__(detail)
        self.status, self.code, self.detail, self.extra = status, code, detail, extra


def problem(status: int, code: str, title: str, detail: str, **extra) -> Response:
    body = {"type": f"https://delve.dev/problems/{code}", "title": title, "status": status,
            "detail": detail, "code": code}
    body.update({k: v for k, v in extra.items() if v is not None})
    return Response(json.dumps(body), status=status, mimetype=PROBLEM)


_TITLES = {400: "Bad request", 401: "Unauthorized", 403: "Forbidden", 404: "Not found",
           405: "Method not allowed", 406: "Not acceptable", 409: "Conflict", 413: "Payload too large",
           415: "Unsupported media type", 422: "Illegal command", 429: "Too many requests",
           500: "Internal server error", 503: "Service unavailable"}


def _title(status: int) -> str:
    return _TITLES.get(status, "Error")


def install(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def _api(e: ApiError):
        resp = problem(e.status, e.code, _title(e.status), e.detail, **e.extra)
        if e.status == 401:
            resp.headers["WWW-Authenticate"] = 'Bearer realm="delve"'
        return resp

    @app.errorhandler(Illegal)
    def _illegal(e: Illegal):
        return problem(422, e.code, _title(422), e.message, rule=e.rule)

    @app.errorhandler(ValidationError)
    def _invalid(e: ValidationError):
        return problem(400, "malformed_request", _title(400), "the request body does not match its schema",
                       errors=e.messages)

    @app.errorhandler(VersionConflict)
    def _conflict(e: VersionConflict):
        return problem(409, "version_conflict", _title(409),
                       f"expected_version is stale; the game is at version {e.current}: "
                       "re-read the game and decide again", current_version=e.current)

    @app.errorhandler(NotActive)
    def _not_active(e: NotActive):
        return problem(409, "game_finished", _title(409), "the game has finished; it takes no more commands")

    @app.errorhandler(GameNotFound)
    def _not_found(e: GameNotFound):
        return problem(404, "game_not_found", _title(404), f"no game {e.args[0]!r}")

    @app.errorhandler(Forbidden)
    def _forbidden(e: Forbidden):
        status = 401 if e.code == "invalid_token" else 403
        resp = problem(status, e.code, _title(status), e.message)
        if status == 401:
            resp.headers["WWW-Authenticate"] = 'Bearer realm="delve", error="invalid_token"'
        return resp

    @app.errorhandler(redis.RedisError)
    def _store_down(e: redis.RedisError):
        log.exception("event store unavailable")
        return problem(503, "store_unavailable", _title(503), "the event store is unreachable; retry shortly")

    @app.errorhandler(HTTPException)
    def _http(e: HTTPException):
        status = e.code or 500
        code = (e.name or "error").lower().replace(" ", "_")
        resp = problem(status, code, _title(status), e.description or e.name)
        if status == 405 and e.valid_methods:
            resp.headers["Allow"] = ", ".join(e.valid_methods)
        return resp

    @app.errorhandler(Exception)
    def _crash(e: Exception):
        log.exception("unhandled error")
        return problem(500, "internal_error", _title(500), "an unexpected error occurred; it has been logged")
