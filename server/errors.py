"""Every error is application/problem+json (RFC 9457) with a stable ``code``.

The HTTP layer maps the application's error values here, once; handlers
never build error responses by hand.
"""
from __future__ import annotations

import logging

import redis
from flask import Flask, Response, json
from marshmallow import ValidationError
from redis.exceptions import CrossSlotTransactionError, RedisClusterException
from werkzeug.exceptions import HTTPException

from domain.core import Illegal
from errors import (ApiError, Forbidden, GameNotFound, InvitationNotFound, NoSuchMove, NoSuchVersion, NotActive,
                    PlayerNotFound, ReplicationUnconfirmed, TournamentNotFound, VersionConflict)
from server import rules

log = logging.getLogger("delve.errors")
PROBLEM = "application/problem+json"


def problem(status: int, code: str, detail: str, **extra) -> Response:
    """An RFC 9457 problem; its ``type`` and ``title`` both name the ``code``.

    RFC 9457 wants one title per problem type: an unknown game is not an
    "Illegal command", so the title is the code in words, not the status's.
    """
    body = {"type": f"https://delve.dev/problems/{code}", "title": title(code), "status": status,
            "detail": detail, "code": code}
    body.update({k: v for k, v in extra.items() if v is not None})
    resp = Response(json.dumps(body), status=status, mimetype=PROBLEM)
    if body.get("retry_after") is not None:
        resp.headers["Retry-After"] = str(body["retry_after"])
    return resp


def title(code: str) -> str:
    """``idempotency_key_reused`` -> ``Idempotency key reused``."""
    return code.replace("_", " ").capitalize()


def install(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def _api(e: ApiError):
        resp = problem(e.status, e.code, e.detail, **e.extra)
        if e.status == 401:
            resp.headers["WWW-Authenticate"] = 'Bearer realm="delve"'
        return resp

    @app.errorhandler(Illegal)
    def _illegal(e: Illegal):
        return problem(422, e.code, e.message, rule=e.rule, rule_url=rules.rule_url(e.rule), **getattr(e, "extra", {}))

    @app.errorhandler(ValidationError)
    def _invalid(e: ValidationError):
        return problem(400, "malformed_request", "the request body does not match its schema", errors=e.messages)

    @app.errorhandler(VersionConflict)
    def _conflict(e: VersionConflict):
        return problem(409, "version_conflict",
                       f"expected_version is stale; the game is at version {e.current}: "
                       "re-read the game and decide again", current_version=e.current)

    @app.errorhandler(NotActive)
    def _not_active(e: NotActive):
        return problem(409, "game_finished", "the game has finished; it takes no more commands")

    @app.errorhandler(GameNotFound)
    def _not_found(e: GameNotFound):
        return problem(404, "game_not_found", f"no game {e.args[0]!r}")

    @app.errorhandler(NoSuchVersion)
    def _no_version(e: NoSuchVersion):
        return problem(404, "no_such_version", f"{e}; a held version ends a command's batch of events",
                       current_version=e.current)

    @app.errorhandler(NoSuchMove)
    def _no_move(e: NoSuchMove):
        return problem(404, "no_such_move", f"{e}; see GET /v1/games/{e.game_id}/moves")

    @app.errorhandler(PlayerNotFound)
    def _no_player(e: PlayerNotFound):
        return problem(404, "player_not_found", f"no player {e.args[0]!r}")

    @app.errorhandler(TournamentNotFound)
    def _no_tournament(e: TournamentNotFound):
        return problem(404, "tournament_not_found", f"no tournament {e.args[0]!r}")

    @app.errorhandler(InvitationNotFound)
    def _no_invitation(e: InvitationNotFound):
        return problem(404, "invitation_not_found", f"this player has no invitation {e.args[0]!r}; "
                       "GET /v1/players/me/invitations lists them")

    @app.errorhandler(Forbidden)
    def _forbidden(e: Forbidden):
        status = 401 if e.code == "invalid_token" else 403
        resp = problem(status, e.code, e.message)
        if status == 401:
            resp.headers["WWW-Authenticate"] = 'Bearer realm="delve", error="invalid_token"'
        return resp

    @app.errorhandler(redis.RedisError)
    @app.errorhandler(RedisClusterException)  # e.g. a Cluster slot nobody serves: a master died, no replica promoted yet
    def _store_down(e: Exception):
        if isinstance(e, CrossSlotTransactionError):
            return _crash(e)  # a bug in our key layout, not an outage
        log.exception("event store unavailable")
        return problem(503, "store_unavailable", "the event store is unreachable; retry shortly", retry_after=1)

    @app.errorhandler(ReplicationUnconfirmed)
    def _unreplicated(e: ReplicationUnconfirmed):
        log.warning("%s", e)
        return problem(503, "replication_unconfirmed",
                       f"the move was stored as version {e.version}, but {e.unconfirmed}; retry with the same "
                       "Idempotency-Key (you get the stored answer if it survived), or re-read the game",
                       retry_after=1, current_version=e.version)

    @app.errorhandler(HTTPException)
    def _http(e: HTTPException):
        status = e.code or 500
        code = (e.name or "error").lower().replace(" ", "_")
        resp = problem(status, code, e.description or e.name)
        if status == 405 and e.valid_methods:
            resp.headers["Allow"] = ", ".join(e.valid_methods)
        return resp

    @app.errorhandler(Exception)
    def _crash(e: Exception):
        log.exception("unhandled error")
        return problem(500, "internal_error", "an unexpected error occurred; it has been logged")
