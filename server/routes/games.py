"""/v1/games: create, list, read, act, events (and their SSE stream), replay, scores."""
from __future__ import annotations

import hashlib
import uuid

from flask import Blueprint, Response, current_app, json, request, stream_with_context

from domain.core import canonical_json
from events.service import ADMIN
from events.store import VersionConflict
from server import auth, metrics, ratelimit, schemas
from server.auth import caller, require_seat
from server.errors import ApiError
from server.routes.common import dump, json_body, query, service

bp = Blueprint("games", __name__, url_prefix="/v1")


@bp.post("/games")
def create_game():
    ratelimit.check(service().store, current_app.config["RATE_LIMIT"])
    body = schemas.CreateGameRequest().load(json_body())
    creator = auth.player(service(), required=False)  # a player token makes its player the creator
    created = service().create(body["game"], body["seats"], body["options"], visibility=body["visibility"],
                               creator=creator.id if creator else None, clock=body["clock"])
    metrics.GAMES_CREATED.labels(created["game"]).inc()
    return dump(schemas.CreateGameResponse, created), 201, {"Location": f"/v1/games/{created['id']}"}


@bp.get("/games")
def list_games():
    q = query(schemas.ListGamesQuery)
    return dump(schemas.GameList, service().list_games(q["game"], q["status"], q["offset"], q["limit"]))


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    seat = caller(service(), game_id)
    summary = service().summary(game_id, seat)
    resp = current_app.response_class(json.dumps(dump(schemas.GameSummary, summary)), mimetype="application/json")
    resp.set_etag(str(summary["version"]))
    resp.headers["Vary"] = "Authorization"
    return resp.make_conditional(request)


@bp.get("/games/<game_id>/legal-actions")
def legal_actions(game_id: str):
    return dump(schemas.LegalActions, service().legal(game_id, caller(service(), game_id)))


@bp.post("/games/<game_id>/actions")
def post_action(game_id: str):
    svc = service()
    meta = svc.store.meta(game_id)  # one read serves auth, the version check and the decision
    seat = require_seat(svc, game_id, meta)
    key = request.headers.get("Idempotency-Key")
    raw = json_body()
    if key is not None:
        if not 1 <= len(key) <= 200:
            raise ApiError(400, "bad_idempotency_key", "Idempotency-Key must be 1-200 characters")
        fingerprint = hashlib.sha256(canonical_json(raw).encode()).hexdigest()
        stored = svc.store.idem_get(game_id, f"{seat}:{key}")
        if stored is not None:
            if stored["fingerprint"] != fingerprint:
                raise ApiError(422, "idempotency_key_reused",
                               "this Idempotency-Key was used with a different body; use a new key")
            return stored["body"], stored["status"], {"Idempotent-Replayed": "true"}
    ratelimit.check(svc.store, current_app.config["RATE_LIMIT"])
    loaded = svc.load(game_id, meta=meta)
    # DESIGN: the version check comes before validation, whatever the command.
    stated = raw.get("expected_version") if isinstance(raw, dict) else None
    if type(stated) is int and stated != loaded.version:
        raise VersionConflict(loaded.version)
    body = schemas.ActionRequest().load(raw)
    game = loaded.game.id
    try:
        result = svc.submit_loaded(loaded, game_id, seat, body["expected_version"], body["command"],
                                   uuid.uuid4().hex)
    except Exception:
        metrics.COMMANDS.labels(game, "refused").inc()
        raise
    metrics.COMMANDS.labels(game, "accepted").inc()
    out = dump(schemas.ActionResponse, result)
    if key is not None:
        svc.store.idem_put(game_id, f"{seat}:{key}", {"fingerprint": fingerprint, "status": 201, "body": out})
    return out, 201


@bp.get("/games/<game_id>/events")
def list_events(game_id: str):
    q = query(schemas.EventsQuery)
    page = service().events(game_id, caller(service(), game_id), q["after"], q["limit"])
    return dump(schemas.EventPage, page)


@bp.get("/games/<game_id>/events/stream")
def stream_events(game_id: str):
    """Server-sent events: every event the caller may see, live, resumable by Last-Event-ID."""
    svc = service()
    seat = caller(svc, game_id, svc.store.meta(game_id))  # 404 for an unknown game, token or not
    cursor = request.headers.get("Last-Event-ID", request.args.get("after", "0"))
    if not cursor.isdigit():
        raise ApiError(400, "bad_last_event_id", "Last-Event-ID (or after) must be an event seq")
    block_ms = current_app.config["SSE_BLOCK_MS"]

    def frames(after: int):
        yield "retry: 2000\n\n"
        while True:
            events, after, finished = svc.wait_events(game_id, seat, after, block_ms)
            for ev in events:
                yield f"id: {ev['seq']}\nevent: {ev['type']}\ndata: {json.dumps(ev)}\n\n"
            if finished and not events:
                yield "event: end\ndata: {}\n\n"
                return
            if not events:
                yield ": keep-alive\n\n"

    return Response(stream_with_context(frames(int(cursor))), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/games/<game_id>/states/<int:version>")
def state_at(game_id: str, version: int):
    return dump(schemas.StateAt, service().state_at(game_id, caller(service(), game_id), version))


@bp.get("/games/<game_id>/scores")
def scores(game_id: str):
    caller(service(), game_id)  # a private game's scores are for its seats and invitees
    return dump(schemas.Scores, service().scores(game_id))


@bp.get("/games/<game_id>/audit")
def audit(game_id: str):
    return dump(schemas.Audit, service().audit(game_id))


@bp.get("/games/<game_id>/export")
def export(game_id: str):
    svc = service()
    seat = caller(svc, game_id)
    lines = svc.export(game_id, admin=seat == ADMIN)
    return Response(stream_with_context(lines), mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{game_id}.ndjson"'})
