"""/v1/catalog: the games this server hosts, their seat counts, bots and options."""
from __future__ import annotations

from flask import Blueprint

from domain import registry
from domain.core import Illegal
from server import schemas
from server.errors import ApiError
from server.routes.common import dump

bp = Blueprint("catalog", __name__, url_prefix="/v1")


def _entry(game) -> dict:
    return {"id": game.id, "title": game.title, "min_players": game.min_players, "max_players": game.max_players,
            "rules_version": game.rules_version, "bots": sorted(game.bots), "options_schema": game.options_schema}


@bp.get("/catalog")
def catalog():
    return dump(schemas.Catalog, {"games": [_entry(registry.get(gid)) for gid in registry.available()]})


@bp.get("/catalog/<game>")
def catalog_game(game: str):
    """One game with its public components (the ids views refer to)."""
    try:
        found = registry.get(game)
    except Illegal:
        raise ApiError(404, "unknown_game", f"no game {game!r}; see GET /v1/catalog")
    return dump(schemas.CatalogGameDetail, {**_entry(found), "content": found.content()})
