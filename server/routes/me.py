"""/v1/players/me: the caller's own feed across every game, and their invitations (player token)."""
from __future__ import annotations

import re
import time

from flask import Blueprint, Response, current_app, json, request, stream_with_context

from errors import ApiError
from application import consent, quotas
from server import auth, identity, streams
from server.routes.common import service

bp = Blueprint("me", __name__, url_prefix="/v1")
NDJSON = "application/x-ndjson"
_CURSOR = re.compile(r"[0-9]{1,19}-[0-9]{1,19}")


@bp.get("/players/me/stream")
def my_stream():
    """SSE (or NDJSON with ``Accept: application/x-ndjson``): the player's notifications as they come.

    Without ``Last-Event-ID`` (or ``after``) the stream starts with what comes
    next; with it, it resumes after that entry (``0-0``: the whole kept history).
    """
    svc = service()
    player = auth.player(svc)
    cursor = request.headers.get("Last-Event-ID", request.args.get("after"))
    if cursor is not None and not _CURSOR.fullmatch(cursor):
        raise ApiError(400, "bad_cursor", "Last-Event-ID (or after) is a feed entry id such as 1700000000000-0")
    after = cursor or svc.feed.last_id(player.id)
    block_ms = current_app.config["SSE_BLOCK_MS"]
    ndjson = request.accept_mimetypes.best_match(["text/event-stream", NDJSON], "text/event-stream") == NDJSON
    # Counted with the caller's other streams and ended after SSE_MAX_SECONDS like them (server/streams.py);
    # the client resumes with Last-Event-ID.
    release = streams.hold(svc, identity.of(svc), f"feed:{player.id}")
    until = time.monotonic() + current_app.config["SSE_MAX_SECONDS"]

    def lines(after: str):
        if not ndjson:
            yield "retry: 2000\n\n"
        while time.monotonic() < until:
            got = svc.feed.wait(player.id, after, block_ms)
            for eid, note in got:
                after = eid
                if ndjson:
                    yield json.dumps({"id": eid, **note}) + "\n"
                else:
                    yield f"id: {eid}\nevent: {note['type']}\ndata: {json.dumps(note)}\n\n"
            if not got:
                yield "\n" if ndjson else ": keep-alive\n\n"

    resp = Response(stream_with_context(lines(after)), mimetype=NDJSON if ndjson else "text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    resp.call_on_close(release)
    return resp


@bp.get("/players/me/invitations")
def my_invitations():
    """What others asked the player to play: tournaments to enter, seats reserved for them."""
    svc = service()
    return {"invitations": consent.pending(svc, auth.player(svc))}


@bp.post("/players/me/invitations/<invitation_id>/accept")
def accept(invitation_id: str):
    """Enter the tournament (as its entrant) or take the reserved seat, as if by oneself."""
    svc = service()
    player = auth.player(svc)
    inv = svc.invitations.get(player.id, invitation_id)
    if inv["kind"] == "seat":
        cap = current_app.config["ACTIVE_GAMES_PER_PLAYER"]
        if cap > 0 and quotas.active_games(svc, player.id) >= cap:
            raise too_many_active_games(cap)
    return consent.accept(svc, player, invitation_id), 201


@bp.post("/players/me/invitations/<invitation_id>/decline")
def decline(invitation_id: str):
    """Say no: the invitation is dropped (a game that only waited for this player is cancelled)."""
    svc = service()
    player = auth.player(svc)
    svc.invitations.get(player.id, invitation_id)  # 404 invitation_not_found unless the player holds it
    return consent.decline(svc, player, invitation_id)


def too_many_active_games(cap: int) -> ApiError:
    return ApiError(429, "too_many_active_games", f"this player sits in {cap} unfinished games already, the most "
                    "it may (DELVE_ACTIVE_GAMES_PER_PLAYER); finish or leave one first", retry_after=60)
