"""/v1/catalog: the games this server hosts, their seat counts, bots, options and commands."""
from __future__ import annotations

from flask import Blueprint

from domain import registry
from domain.core import Illegal
from domain.kit import search
from errors import ApiError
from server import schemas
from server.routes.common import dump

bp = Blueprint("catalog", __name__, url_prefix="/v1")


def _entry(game) -> dict:
    return {"id": game.id, "title": game.title, "min_players": game.min_players, "max_players": game.max_players,
            "rules_version": game.rules_version, "rules_versions": registry.versions(game.id), "bots": sorted(game.bots),
            "bot_levels": [{"id": bot, **entry} for bot, entry in search.levels(game.bots).items()],
            "options_schema": game.options_schema, "renderer": game.renderer}


@bp.get("/catalog")
def catalog():
    return dump(schemas.Catalog, {"games": [_entry(registry.get(gid)) for gid in registry.available()]})


@bp.get("/catalog/<game>")
def catalog_game(game: str):
    """One game with its public components (the ids views refer to) and its command vocabulary."""
    try:
        found = registry.get(game)
    except Illegal:
        raise ApiError(404, "unknown_game", f"no game {game!r}; see GET /v1/catalog")
    detail = {**_entry(found), "content": found.content(), "command_schema": found.command_schema}
    return dump(schemas.CatalogGameDetail, detail)
