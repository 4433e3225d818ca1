"""/v1/catalog: the games this server hosts, their seat counts, bots and options."""
from __future__ import annotations

from flask import Blueprint

from domain import registry
from server import schemas
from server.routes.common import dump

bp = Blueprint("catalog", __name__, url_prefix="/v1")


@bp.get("/catalog")
def catalog():
    games = [registry.get(gid) for gid in registry.available()]
    return dump(schemas.Catalog, {"games": [
        {"id": g.id, "title": g.title, "min_players": g.min_players, "max_players": g.max_players,
         "rules_version": g.rules_version, "bots": sorted(g.bots), "options_schema": g.options_schema}
        for g in games]})
