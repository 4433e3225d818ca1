"""/v1/audit/verify: anyone may check an export — chain intact, replay identical — or a
tournament bundle (events/tournament_verify.py), told apart by its first line."""
from __future__ import annotations

from flask import Blueprint, current_app, request

from events.tournament_verify import verify_any
from server import schemas
from server.errors import ApiError
from server.routes.common import dump

bp = Blueprint("audit", __name__, url_prefix="/v1")


@bp.post("/audit/verify")
def verify_export():
    if request.mimetype not in ("application/x-ndjson", "application/json", "text/plain"):
        raise ApiError(415, "unsupported_media_type", "post the export as application/x-ndjson")
    limit = current_app.config["MAX_EXPORT_BYTES"]
    if (request.content_length or 0) > limit:
        raise ApiError(413, "export_too_large", f"exports up to {limit} bytes are verified here; "
                       "use `delve verify FILE` for larger ones")
    body = request.get_data(cache=False)
    if len(body) > limit:
        raise ApiError(413, "export_too_large", f"exports up to {limit} bytes are verified here")
    return dump(schemas.Verdict, verify_any(body.splitlines()).to_dict())
