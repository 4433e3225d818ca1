"""/v1/players/me/stream: the caller's own feed across every game (player token)."""
from __future__ import annotations

import re

from flask import Blueprint, Response, current_app, json, request, stream_with_context

from server import auth
from server.errors import ApiError
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

    def lines(after: str):
        if not ndjson:
            yield "retry: 2000\n\n"
        while True:
            got = svc.feed.wait(player.id, after, block_ms)
            for eid, note in got:
                after = eid
                if ndjson:
                    yield json.dumps({"id": eid, **note}) + "\n"
                else:
                    yield f"id: {eid}\nevent: {note['type']}\ndata: {json.dumps(note)}\n\n"
            if not got:
                yield "\n" if ndjson else ": keep-alive\n\n"

    return Response(stream_with_context(lines(after)), mimetype=NDJSON if ndjson else "text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
