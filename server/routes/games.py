"""/v1/games: create, list, read, act, events (and their SSE stream), replay, scores."""
from __future__ import annotations

import logging
import time
import uuid
from typing import Callable

from flask import Blueprint, Response, current_app, json, request, stream_with_context

from errors import ApiError, Forbidden, GameExists, KeyAlreadyUsed, ReplicationUnconfirmed, VersionConflict
from application.access import ADMIN
from server import auth, identity, idempotency, metrics, parsing, ratelimit, schemas, streams
from server.auth import bearer, caller, require_seat
from server.parsing import schema
from server.routes.common import conditional, dump, next_link, plain, plain_kept, service

bp = Blueprint("games", __name__, url_prefix="/v1")
log = logging.getLogger(__name__)
NDJSON = "application/x-ndjson"


@bp.post("/games")
def create_game():
    svc = service()
    who = identity.of(svc)
    ratelimit.check(svc.store, current_app.config["RATE_LIMIT"], who)
    raw = parsing.json_body(parsing.CREATE_BODY_BYTES)
    gid, once = idempotency.claim_creation(svc, who, request.headers.get("Idempotency-Key"), raw)
    if isinstance(once, dict):  # created already under this key: the same 201, not another game
        return dump(schemas.CreateGameResponse, once["created"]), 201, \
            {"Location": f"/v1/games/{once['created']['id']}", "Idempotent-Replayed": "true"}
    try:
        body = schema(schemas.CreateGameRequest).load(raw)
        ratelimit.check(svc.store, current_app.config["GAMES_PER_HOUR"], who, seconds=3600, what="games created")
        # A player token makes its player the creator; the admin's creates as the admin; any other is a 401.
        creator = auth.player(svc, required=False) if who != identity.ADMIN else None
        created = svc.create(body["game"], body["seats"], body["options"], visibility=body["visibility"],
                             creator=creator.id if creator else None, clock=body["clock"], derived_id=gid,
                             idem=once.record())
    except GameExists:  # the key's game exists but its record is gone (24 h, or the game was compacted)
        idempotency.release(svc, gid, once)
        raise idempotency.expired() from None
    except ReplicationUnconfirmed as e:  # created on the master: name the game, so it is not created twice
        idempotency.release(svc, gid, once)
        log.warning("%s", e)
        raise ApiError(503, "replication_unconfirmed",
                       f"the game {e.game_id} was created (version {e.version}), but {e.unconfirmed}; do not "
                       f"create it again: read it at /v1/games/{e.game_id}, or list your games",
                       retry_after=1, current_version=e.version) from None
    except Exception:
        idempotency.release(svc, gid, once)
        raise
    metrics.GAMES_CREATED.labels(created["game"]).inc()
    return dump(schemas.CreateGameResponse, created), 201, {"Location": f"/v1/games/{created['id']}"}


@bp.get("/games")
def list_games():
    q = parsing.query(schemas.ListGamesQuery)
    page = service().list_games(q["game"], q["status"], q["offset"], q["limit"], q["cursor"])
    headers = {}
    if page["next_cursor"]:
        filters = {k: q[k] for k in ("game", "status") if q[k]}
        headers = next_link("/v1/games", {**filters, "cursor": page["next_cursor"], "limit": q["limit"]})
    return dump(schemas.GameList, page), 200, headers


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    svc = service()
    loaded = svc.load(game_id)  # one round trip serves auth and the summary
    seat = caller(svc, game_id, loaded.meta)
    # One ETag per representation: a seat's view and the spectator's differ at the same version.
    headers = {"ETag": f'"{loaded.version}-{_viewer(seat)}"', "Vary": "Authorization"}
    # In schemas.GameSummary's shape; encoded once per key (server.routes.common.plain_kept).
    resp = plain_kept(svc.summary_key(game_id, seat, loaded), lambda: svc.summary(game_id, seat, loaded), headers)
    return conditional(resp)


def _viewer(seat: int | None) -> str:
    return "spectator" if seat is None else "admin" if seat == ADMIN else f"seat{seat}"


@bp.get("/games/<game_id>/legal-actions")
def legal_actions(game_id: str):
    svc = service()
    loaded = svc.load(game_id)
    seat = caller(svc, game_id, loaded.meta)
    # In schemas.LegalActions' shape; encoded once per key.
    return plain_kept(svc.legal_key(game_id, seat, loaded), lambda: svc.legal(game_id, seat, loaded))


@bp.post("/games/<game_id>/actions")
def post_action(game_id: str):
    svc = service()
    loaded = svc.load(game_id)  # one round trip serves auth, the version check and the decision
    seat = require_seat(svc, game_id, loaded.meta)
    raw = parsing.json_body(parsing.ACTION_BODY_BYTES)
    once = idempotency.claim(svc, game_id, seat, request.headers.get("Idempotency-Key"), raw)
    if isinstance(once, dict):
        return replayed(svc, game_id, seat, once)
    try:
        return plain(act(svc, game_id, seat, loaded, raw, once), 201)  # schemas.ActionResponse's shape
    except KeyAlreadyUsed as used:
        return replayed(svc, game_id, seat, idempotency.check(svc, game_id, once, used.record))
    except Exception:
        idempotency.release(svc, game_id, once)
        raise


def act(svc, game_id: str, seat: int, loaded, raw: object, once: idempotency.Once) -> dict:
    ratelimit.check(svc.store, current_app.config["RATE_LIMIT"], lambda: identity.of(svc, loaded.meta, game_id))
    # DESIGN: the version check comes before validation, whatever the command
    # (a negative version is malformed, not stale: the schema answers it).
    stated = raw.get("expected_version") if isinstance(raw, dict) else None
    if type(stated) is int and stated >= 0 and stated != loaded.version:
        raise VersionConflict(loaded.version)
    body = schema(schemas.ActionRequest).load(raw)
    game = loaded.game.id
    try:
        result = svc.submit_loaded(loaded, game_id, seat, body["expected_version"], body["command"],
                                   uuid.uuid4().hex, idem=once.record())
    except Exception:
        metrics.COMMANDS.labels(game, "refused").inc()
        raise
    metrics.COMMANDS.labels(game, "accepted").inc()
    return result


def replayed(svc, game_id: str, seat: int, record: dict):
    """The stored answer of a command already committed under this Idempotency-Key."""
    return dump(schemas.ActionResponse, svc.replay_action(game_id, seat, record)), record["status"], \
        {"Idempotent-Replayed": "true"}


@bp.post("/games/<game_id>/resign")
def resign(game_id: str):
    """The caller's seat concedes (platform command ``resign``); the game decides what it means."""
    svc = service()
    seat = require_seat(svc, game_id)
    return _platform(svc, game_id, seat, "resign")


@bp.post("/games/<game_id>/abort")
def abort(game_id: str):
    """The admin ends the game without a result (platform command ``abort``, outcome ``aborted``)."""
    svc = service()
    try:
        who = caller(svc, game_id)
    except Forbidden as refused:  # a token that names nobody here: the seats are not what matters to an abort
        if refused.code != "invalid_token":
            raise
        raise Forbidden("invalid_token", "this token is not the admin token (DELVE_ADMIN_TOKEN), which alone "
                                         "may abort a game") from None
    if who is None and bearer() is None:
        raise ApiError(401, "token_required", "aborting needs the admin token (DELVE_ADMIN_TOKEN)")
    if who != ADMIN:
        raise ApiError(403, "admin_only", "only the admin token (DELVE_ADMIN_TOKEN) may abort a game")
    return _platform(svc, game_id, None, "abort")


def _platform(svc, game_id: str, seat: int | None, kind: str):
    """Body optional (``{"expected_version": n}``); the events returned are those ``seat`` may see."""
    body = schema(schemas.PlatformRequest).load(parsing.json_body(parsing.ACTION_BODY_BYTES) if request.content_length else {})
    return dump(schemas.ActionResponse, svc.platform(game_id, seat, kind, body["expected_version"])), 201


@bp.get("/games/<game_id>/events")
def list_events(game_id: str):
    q = parsing.query(schemas.EventsQuery)
    page = service().events(game_id, caller(service(), game_id), q["after"], q["limit"])
    headers = {}
    if q["after"] + q["limit"] < page["version"]:  # seqs are dense: the next page starts there
        headers = next_link(f"/v1/games/{game_id}/events", {"after": q["after"] + q["limit"], "limit": q["limit"]})
    return dump(schemas.EventPage, page), 200, headers


@bp.get("/games/<game_id>/events/stream")
def stream_events(game_id: str):
    """Every event the caller may see, live: server-sent events, or NDJSON on request."""
    svc = service()
    meta = svc.store.meta(game_id)
    seat = caller(svc, game_id, meta)  # 404 for an unknown game, token or not
    cursor = parsing.stream_cursor()
    block_ms = current_app.config["SSE_BLOCK_MS"]
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    # A capped slot (503 past a cap) held until the stream ends, which it does after
    # SSE_MAX_SECONDS at the latest: the client resumes with Last-Event-ID (server/streams.py).
    release = streams.hold(svc, identity.of(svc, meta, game_id), game_id)
    until = time.monotonic() + current_app.config["SSE_MAX_SECONDS"]
    if request.accept_mimetypes.best_match(["text/event-stream", NDJSON], "text/event-stream") == NDJSON:
        resp = Response(stream_with_context(_ndjson_lines(svc, game_id, seat, block_ms, until, meta)), mimetype=NDJSON,
                        headers=headers)
        resp.call_on_close(release)
        return resp

    def frames(after: int):
        yield "retry: 2000\n\n"
        for events in svc.follow_events(game_id, seat, after, block_ms, until, meta):
            if events:
                yield _rendered(events, "sse", lambda evs: "".join(
                    f"id: {ev['seq']}\nevent: {ev['type']}\ndata: {json.dumps(ev)}\n\n" for ev in evs))
            if events is None:
                yield "event: end\ndata: {}\n\n"
            elif not events:
                yield ": keep-alive\n\n"

    resp = Response(stream_with_context(frames(cursor)), mimetype="text/event-stream", headers=headers)
    resp.call_on_close(release)
    return resp


def _rendered(events: list[dict], form: str, render: Callable[[list[dict]], str]) -> str:
    """``render(events)``, made once per wire format for events shared by many streams (a ``Shared``)."""
    cache = getattr(events, "rendered", None)
    if cache is None:
        return render(events)
    if form not in cache:
        cache[form] = render(events)
    return cache[form]


def _ndjson_lines(svc, game_id: str, seat: int | None, block_ms: int, until: float, meta: dict[str, str]):
    """lichess's board stream, for bots written against it: the caller's full view
    first (``gameFull``), then each event after that version; an empty line keeps alive."""
    summary = svc.summary(game_id, seat)
    yield json.dumps({"type": "gameFull", "game": dump(schemas.GameSummary, summary)}) + "\n"
    for events in svc.follow_events(game_id, seat, summary["version"], block_ms, until, meta):
        if events:
            yield _rendered(events, "ndjson", lambda evs: "".join(
                json.dumps({"type": "event", "event": ev}) + "\n" for ev in evs))
        if events is None:
            yield '{"type": "end"}\n'
        elif not events:
            yield "\n"


@bp.get("/games/<game_id>/states/<version>")
def state_at(game_id: str, version: str):
    """The position at a version, or with ``?move=n`` after move n (then write ``/states/at?move=n``)."""
    svc = service()
    meta = svc.store.meta(game_id)  # one read serves auth and the replay (a version seen before needs no other)
    seat = caller(svc, game_id, meta)
    asked = request.args.get("move")
    if asked is None:
        return dump(schemas.StateAt, svc.state_at(game_id, seat, parsing.version(version), meta))
    if version != "at":
        parsing.version(version)  # any version, or the word `at`, reads as "the position after move n"
    move = svc.move(game_id, seat, parsing.move(asked), meta)
    return dump(schemas.StateAt, svc.state_at(game_id, seat, move["last_seq"], meta, move))


@bp.get("/games/<game_id>/moves")
def moves(game_id: str):
    """Every move so far: number, seat or actor, the game's label, time and the events' seq range."""
    svc = service()
    meta = svc.store.meta(game_id)
    return dump(schemas.Moves, svc.moves(game_id, caller(svc, game_id, meta), meta))


@bp.get("/games/<game_id>/scores")
def scores(game_id: str):
    caller(service(), game_id)  # a private game's scores are for its seats and invitees
    return dump(schemas.Scores, service().scores(game_id))


@bp.get("/games/<game_id>/audit")
def audit(game_id: str):
    return dump(schemas.Audit, service().audit(game_id, caller(service(), game_id)))


@bp.get("/games/<game_id>/export")
def export(game_id: str):
    svc = service()
    seat = caller(svc, game_id)
    lines = svc.export(game_id, admin=seat == ADMIN)
    return Response(stream_with_context(lines), mimetype=NDJSON,
                    headers={"Content-Disposition": f'attachment; filename="{game_id}.ndjson"'})
