"""/v1/tournaments: a director creates, registers, starts, decides a table's result
(forfeit, walkover, double forfeit, adjudicated) or corrects a recorded one; entrants
register and withdraw; anyone follows the standings, rounds and log (JSON or SSE) and,
after the end, downloads the bundle to verify.

Who may manage a tournament (create, start, register bots, invite players,
withdraw anyone, decide and correct results): the admin token (``DELVE_ADMIN_TOKEN``), or the player token
of its organizer -- any player becomes the organizer of the tournaments they
create. A player enters only by themselves, with their own token: directly, or
by accepting an invitation (/v1/players/me/invitations); they may withdraw.
"""
from __future__ import annotations

import hmac
import json
import time

from flask import Blueprint, Response, current_app, request, stream_with_context
from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from application.tokens import hash_token
from application.tournaments import DIRECTOR, TournamentService
from domain.tournament.decide import REASON_CHARS
from domain.tournament.history import DECISIONS
from domain.tournament.log import TournamentStatus
from errors import ApiError
from server.auth import bearer, player
from server import identity, parsing, ratelimit, schemas, streams
from server.parsing import schema
from server.routes.common import next_link, service

bp = Blueprint("tournaments", __name__, url_prefix="/v1")


class EntrantSpec(Schema):
    class Meta:
        unknown = RAISE

    bot = fields.String(validate=validate.Length(min=1, max=40))
    level = fields.String(validate=validate.Length(min=1, max=20))  # the search bot's level (kit.search.LEVELS)
    name = fields.String(validate=validate.Length(min=1, max=60))
    player = fields.String(validate=validate.Length(min=1, max=40))

    @validates_schema
    def _one_kind(self, data: dict, **_kw) -> None:
        if ("bot" in data) == ("player" in data) or ("player" in data and ("name" in data or "level" in data)):
            raise ValidationError('an entrant is {"player": "<player id>"} or {"bot": "<bot>", "level"?, "name"?}')


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
    clock = fields.Dict(keys=fields.String(), allow_none=True)
    entrants = fields.List(fields.Nested(EntrantSpec), load_default=list, validate=validate.Length(max=256))


class DecideResultRequest(Schema):
    """A director's result for one table, decided (TRN-DIR-1) or corrected (TRN-DIR-3); which fields
    a kind needs is the domain's check."""

    class Meta:
        unknown = RAISE

    kind = fields.String(required=True, validate=validate.OneOf(list(DECISIONS)))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=REASON_CHARS))
    losers = fields.List(fields.String(validate=validate.Length(min=1, max=16)), validate=validate.Length(min=1, max=16))
    places = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=16)),
                         values=fields.Integer(strict=True, validate=validate.Range(min=1, max=16)),
                         validate=validate.Length(min=1, max=16))
    scores = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=16)),
                         values=fields.Integer(strict=True, validate=validate.Range(min=-1_000_000, max=1_000_000)),
                         validate=validate.Length(max=16))

    @validates_schema
    def _fits_kind(self, data: dict, **_kw) -> None:
        """Fields of another kind are malformed; a kind's own field missing is the domain's 422
        (``bad_losers``, ``bad_places``), as the contract lists it."""
        kind = data.get("kind")
        if kind != "adjudicated" and ("places" in data or "scores" in data):
            raise ValidationError("places and scores belong to an adjudicated result", "places")
        if kind not in ("forfeit", "walkover") and "losers" in data:
            raise ValidationError("losers belong to a forfeit or a walkover", "losers")


class WithdrawRequest(Schema):
    """Optional body of a withdrawal: the first round the entrant does not play (TRN-WD-2)."""

    class Meta:
        unknown = RAISE

    from_round = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=1, max=1000))


class ListTournamentsQuery(Schema):
    class Meta:
        unknown = RAISE

    game = fields.String(load_default=None, validate=validate.Length(min=1, max=40))
    status = fields.String(load_default=None, validate=validate.OneOf(list(TournamentStatus)))
    format = fields.String(load_default=None, validate=validate.OneOf(["round-robin", "swiss", "knockout"]))
    player = fields.String(load_default=None, validate=validate.Length(min=1, max=40))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


def tournaments() -> TournamentService:
    return TournamentService(service())


def caller() -> str:
    """Who manages: ``DIRECTOR`` for the admin token, else the id of the player whose token it is."""
    token = bearer()
    if token is None:
        raise ApiError(401, "token_required", "send the admin token (DELVE_ADMIN_TOKEN) or a player token")
    admin = service().admin_token_hash
    if admin is not None and hmac.compare_digest(hash_token(token), admin):
        return DIRECTOR
    return player(service()).id


@bp.post("/tournaments")
def create_tournament():
    who = caller()
    if who != DIRECTOR:  # any player may organize, so many times an hour
        limited = identity.of(service())
        ratelimit.check(service().store, current_app.config["RATE_LIMIT"], limited)
        ratelimit.check(service().store, current_app.config["TOURNAMENTS_PER_HOUR"], limited, seconds=3600,
                        what="tournaments created")
    created = tournaments().create(schema(CreateTournamentRequest).load(parsing.json_body(parsing.CREATE_BODY_BYTES)), who)
    return created, 201, {"Location": f"/v1/tournaments/{created['id']}"}


@bp.get("/tournaments")
def list_tournaments():
    q = parsing.query(ListTournamentsQuery)
    page = tournaments().list(q["status"], q["game"], q["offset"], q["limit"], fmt=q["format"], player=q["player"])
    if q["offset"] + q["limit"] >= page["total"]:
        return page
    filters = {k: q[k] for k in ("status", "game", "format", "player") if q[k]}
    return page, 200, next_link("/v1/tournaments", {**filters, "offset": q["offset"] + q["limit"], "limit": q["limit"]})


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
    events = tournaments().events(tournament_id, q["after"], q["limit"])
    if len(events) < q["limit"]:  # the log's length is not read: a full page may have a next one
        return {"events": events}
    return {"events": events}, 200, next_link(f"/v1/tournaments/{tournament_id}/events",
                                              {"after": events[-1]["seq"], "limit": q["limit"]})


@bp.get("/tournaments/<tournament_id>/events/stream")
def stream_events(tournament_id: str):
    """The log live as server-sent events (``id`` = seq; resume with Last-Event-ID), then
    ``event: end`` once the tournament has finished and everything was sent."""
    ts = tournaments()
    ts.status(tournament_id)  # 404 before any stream slot is taken
    after = parsing.stream_cursor()
    block_ms = current_app.config["SSE_BLOCK_MS"]
    release = streams.hold(service(), identity.of(service()), tournament_id)
    until = time.monotonic() + current_app.config["SSE_MAX_SECONDS"]

    def frames(cursor: int):
        yield "retry: 2000\n\n"
        while time.monotonic() < until:
            envs, finished = ts.wait(tournament_id, cursor, block_ms)
            for env in envs:
                cursor = env["seq"]
                yield f"id: {env['seq']}\nevent: {env['type']}\ndata: {json.dumps(env)}\n\n"
            if finished and not envs:
                yield "event: end\ndata: {}\n\n"
                return
            if not envs:
                yield ": keep-alive\n\n"

    resp = Response(stream_with_context(frames(after)), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    resp.call_on_close(release)
    return resp


@bp.post("/tournaments/<tournament_id>/entrants")
def register(tournament_id: str):
    who = caller()
    body = schema(EntrantSpec).load(parsing.json_body(parsing.CREATE_BODY_BYTES))
    if body.get("player") is not None and body["player"] != who:  # another player: asked, not entered
        return {"invited": body["player"], "invitation": tournaments().invite(tournament_id, body["player"], who)}, 202
    return tournaments().register(tournament_id, body, who), 201


@bp.post("/tournaments/<tournament_id>/entrants/<entrant>/withdraw")
def withdraw(tournament_id: str, entrant: str):
    who = caller()
    body = schema(WithdrawRequest).load(parsing.json_body(parsing.ACTION_BODY_BYTES) if request.content_length else {})
    tournaments().withdraw(tournament_id, entrant, who, body["from_round"])
    return tournaments().get(tournament_id)


@bp.post("/tournaments/<tournament_id>/rounds/<int:round_no>/tables/<int:table>/result")
def decide_result(tournament_id: str, round_no: int, table: int):
    """The director's result for a table of the round being played (organizer or admin, TRN-DIR-1)."""
    who = caller()
    body = schema(DecideResultRequest).load(parsing.json_body(parsing.ACTION_BODY_BYTES))
    return tournaments().decide_result(tournament_id, round_no, table, body, who)


@bp.post("/tournaments/<tournament_id>/rounds/<int:round_no>/tables/<int:table>/correction")
def correct_result(tournament_id: str, round_no: int, table: int):
    """The director's correction of a table's recorded result, in any round (organizer or admin, TRN-DIR-3)."""
    who = caller()
    body = schema(DecideResultRequest).load(parsing.json_body(parsing.ACTION_BODY_BYTES))
    return tournaments().correct_result(tournament_id, round_no, table, body, who)


@bp.post("/tournaments/<tournament_id>/start")
def start(tournament_id: str):
    return tournaments().start(tournament_id, caller())


@bp.get("/tournaments/<tournament_id>/bundle")
def bundle(tournament_id: str):
    ts = tournaments()
    if ts.status(tournament_id) != TournamentStatus.FINISHED:
        raise ApiError(409, "tournament_not_finished", "the bundle is published once the tournament has finished; "
                       "follow GET /v1/tournaments/{id} until its status is finished")
    return Response(stream_with_context(ts.bundle(tournament_id)), mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{tournament_id}.ndjson"'})
