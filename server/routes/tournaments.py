"""/v1/tournaments: a director creates, registers, starts; anyone follows the
standings and rounds and, after the end, downloads the bundle to verify.

Managing a tournament takes the admin token (``DELVE_ADMIN_TOKEN``); organiser
player tokens wait for players (issue 9; see README "Tournaments").
"""
from __future__ import annotations

import hmac

from flask import Blueprint, Response, stream_with_context
from marshmallow import RAISE, Schema, fields, validate

from events.service import hash_token
from events.tournaments import TournamentNotFound, TournamentService
from server.auth import bearer
from server import parsing, schemas
from server.errors import ApiError, problem
from server.routes.common import service

bp = Blueprint("tournaments", __name__, url_prefix="/v1")


class EntrantSpec(Schema):
    class Meta:
        unknown = RAISE

    bot = fields.String(required=True, validate=validate.Length(min=1, max=40))
    name = fields.String(validate=validate.Length(min=1, max=60))


class CreateTournamentRequest(Schema):
    class Meta:
        unknown = RAISE

    game = fields.String(required=True, validate=validate.Length(min=1, max=40))
    format = fields.String(required=True, validate=validate.Length(min=1, max=20))
    table_size = fields.Integer(strict=True, required=True)
    rounds = fields.Integer(strict=True, allow_none=True)
    points = fields.List(fields.Float(allow_nan=False), validate=validate.Length(max=16))
    bye_points = fields.Float(allow_nan=False)
    options = fields.Dict(keys=fields.String(), load_default=dict)
    name = fields.String(validate=validate.Length(min=1, max=80))
    start_at = fields.String(allow_none=True, validate=validate.Length(max=40))
    entrants = fields.List(fields.Nested(EntrantSpec), load_default=list, validate=validate.Length(max=256))


class ListTournamentsQuery(Schema):
    class Meta:
        unknown = RAISE

    game = fields.String(load_default=None, validate=validate.Length(min=1, max=40))
    status = fields.String(load_default=None, validate=validate.OneOf(["registering", "running", "finished"]))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


def tournaments() -> TournamentService:
    return TournamentService(service())


def require_director() -> None:
    """The admin token, compared as a hash in constant time."""
    token = bearer()
    if token is None:
        raise ApiError(401, "token_required", "managing a tournament takes the admin token (DELVE_ADMIN_TOKEN)")
    admin = service().admin_token_hash
    if admin is None or not hmac.compare_digest(hash_token(token), admin):
        raise ApiError(403, "director_only", "only the admin token may manage tournaments")


@bp.errorhandler(TournamentNotFound)
def _not_found(e: TournamentNotFound):
    return problem(404, "tournament_not_found", f"no tournament {e.args[0]!r}")


@bp.post("/tournaments")
def create_tournament():
    require_director()
    created = tournaments().create(CreateTournamentRequest().load(parsing.json_body(parsing.CREATE_BODY_BYTES)))
    return created, 201, {"Location": f"/v1/tournaments/{created['id']}"}


@bp.get("/tournaments")
def list_tournaments():
    q = parsing.query(ListTournamentsQuery)
    return tournaments().list(q["status"], q["game"], q["offset"], q["limit"])


@bp.get("/tournaments/<tournament_id>")
def get_tournament(tournament_id: str):
    return tournaments().get(tournament_id)


@bp.get("/tournaments/<tournament_id>/standings")
def get_standings(tournament_id: str):
    t = tournaments().get(tournament_id)
    return {"id": t["id"], "status": t["status"], "standings": t["standings"]}


@bp.get("/tournaments/<tournament_id>/rounds")
def get_rounds(tournament_id: str):
    t = tournaments().get(tournament_id)
    return {"id": t["id"], "status": t["status"], "planned_rounds": t["planned_rounds"], "rounds": t["rounds"]}


@bp.get("/tournaments/<tournament_id>/events")
def get_events(tournament_id: str):
    q = parsing.query(schemas.EventsQuery)
    return {"events": tournaments().events(tournament_id, q["after"], q["limit"])}


@bp.post("/tournaments/<tournament_id>/entrants")
def register(tournament_id: str):
    require_director()
    return tournaments().register(tournament_id, EntrantSpec().load(parsing.json_body(parsing.CREATE_BODY_BYTES))), 201


@bp.post("/tournaments/<tournament_id>/entrants/<entrant>/withdraw")
def withdraw(tournament_id: str, entrant: str):
    require_director()
    tournaments().withdraw(tournament_id, entrant)
    return tournaments().get(tournament_id)


@bp.post("/tournaments/<tournament_id>/start")
def start(tournament_id: str):
    require_director()
    return tournaments().start(tournament_id)


@bp.get("/tournaments/<tournament_id>/bundle")
def bundle(tournament_id: str):
    ts = tournaments()
    if ts.get(tournament_id)["status"] != "finished":
        raise ApiError(409, "tournament_not_finished", "the bundle is published once the tournament has finished; "
                       "follow GET /v1/tournaments/{id} until its status is finished")
    return Response(stream_with_context(ts.bundle(tournament_id)), mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{tournament_id}.ndjson"'})
