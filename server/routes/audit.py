"""/v1/audit: anyone may check an export (chain intact, replay identical, signed by this
server) or a tournament bundle (application/tournament_verify.py), told apart by its first
line; and read the public keys this server signs records with, current and retired."""
from __future__ import annotations

from flask import Blueprint, current_app, request

from errors import ApiError
from application import records
from application.attestation import Keys
from application.tournament_verify import verify_any
from server import identity, parsing, ratelimit, schemas, streams
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
    signer = service().signer
    keys = Keys.parse(signer.keys()) if signer is not None else None
    lines = records.vouched(service().store, signer, lines)  # a record of ours exported before signing
    return dump(schemas.Verdict, streams.off_the_loop(verify_any, lines, keys).to_dict())


@bp.get("/audit/keys")
def public_keys():
    """The keys records are signed with: the current one and every retired one (``delve verify --keys``)."""
    signer = service().signer
    if signer is None:
        raise ApiError(404, "no_signing_key", "this server has no signing key, so it signs no records: its operator "
                       "sets DELVE_SIGNING_KEY (`delve serve` makes one in its data dir)")
    return signer.keys()
