"""/v1/audit/verify: anyone may check an export — chain intact, replay identical — or a
tournament bundle (application/tournament_verify.py), told apart by its first line."""
from __future__ import annotations

from flask import Blueprint, current_app, request

from application.tournament_verify import verify_any
from server import identity, parsing, ratelimit, schemas, streams
from server.errors import ApiError
from server.routes.common import dump, service

bp = Blueprint("audit", __name__, url_prefix="/v1")


@bp.post("/audit/verify")
def verify_export():
    if request.mimetype != "application/x-ndjson":
        raise ApiError(415, "unsupported_media_type", "post the export as application/x-ndjson, one envelope a line")
    ratelimit.check(service().store, current_app.config["VERIFY_PER_MINUTE"], identity.of(service()), seconds=60,
                    what="verifications")
    limit = current_app.config["MAX_EXPORT_BYTES"]
    lines = parsing.body(limit, "; use `delve verify FILE` for a larger export").splitlines()
    return dump(schemas.Verdict, streams.off_the_loop(verify_any, lines).to_dict())
