"""Game id -> Game. Games register here; the platform looks them up by id."""
from __future__ import annotations

import importlib

from domain.core import Game, Illegal

# id -> "module:attribute" of the Game object; imported on first use.
_GAMES: dict[str, str] = {
    "saboteur": "domain.saboteur.rules:GAME",
    "mountain-king": "domain.mountain_king.rules:GAME",
    "dwarf": "domain.dwarf.rules:GAME",
    "indagar": "domain.indagar.rules:GAME",
}
_loaded: dict[str, Game] = {}


def available() -> list[str]:
    """Ids of the games whose package is present."""
    out = []
    for gid in _GAMES:
        try:
            get(gid)
        except Illegal:
            continue
        out.append(gid)
    return out


def get(game_id: str) -> Game:
    """The Game for ``game_id``; raises Illegal(unknown_game) otherwise."""
    if game_id in _loaded:
        return _loaded[game_id]
    target = _GAMES.get(game_id)
    if target is None:
        raise Illegal("unknown_game", None, f"no game {game_id!r}; see GET /v1/catalog")
    module, attr = target.split(":")
    try:
        game = getattr(importlib.import_module(module), attr)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(module.rsplit(".", 1)[0]):
            raise Illegal("unknown_game", None, f"game {game_id!r} is not installed") from exc
        raise
    _loaded[game_id] = game
    return game


def register(game: Game) -> None:
    """Add a game object at run time (plugins, and the platform tests' tiny game)."""
    _GAMES.setdefault(game.id, f"{type(game).__module__}:GAME")
    _loaded[game.id] = game
