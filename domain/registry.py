"""Game id (and rules version) -> Game. Games register here; the platform looks them up by id.

Rules versions live side by side: a game plays and replays under the rules
version it was created with, forever. The current version is the package's
``GAME``; each earlier one is a frozen copy of the package that the game's
``versions`` module names (``PAST = {"dwarf-1": "domain.dwarf.versions.dwarf_1.rules:GAME"}``).
A rules fix freezes the current package (``delve freeze-rules GAME``) and bumps
``rules_version``; nothing that was recorded ever stops verifying.
"""
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
SHIPPED = tuple(_GAMES)
"""The games this package ships (others are ``register``ed at run time)."""
_loaded: dict[str, Game] = {}
_past: dict[tuple[str, str], Game] = {}


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


def get(game_id: str, rules_version: str | None = None) -> Game:
    """The Game for ``game_id`` under ``rules_version`` (None: the current one).

    Raises Illegal(unknown_game) for a game that is not installed and
    Illegal(unknown_rules_version) for a version this server does not hold.
    """
    game = _current(game_id)
    if rules_version is None or rules_version == game.rules_version:
        return game
    key = (game_id, rules_version)
    if key not in _past:
        target = past_versions(game_id).get(rules_version)
        if target is None:
            raise Illegal("unknown_rules_version", None,
                          f"{game_id!r} has no rules version {rules_version!r}; this server holds "
                          f"{', '.join(versions(game_id))}")
        _past[key] = _import(target)
    return _past[key]


def of(meta: dict) -> Game:
    """The Game a stored game plays under: its meta (or its ``GameCreated`` data) names game and version."""
    return get(meta["game"], meta.get("rules_version"))


def versions(game_id: str) -> list[str]:
    """Every rules version of ``game_id`` this server replays, oldest first, the current one last."""
    return [*past_versions(game_id), _current(game_id).rules_version]


def past_versions(game_id: str) -> dict[str, str]:
    """The frozen earlier versions of a game: ``{rules_version: "module:attribute"}``, oldest first."""
    module = _GAMES.get(game_id, "").split(":")[0].rsplit(".", 1)[0]
    if not module:
        return {}
    try:
        return dict(importlib.import_module(f"{module}.versions").PAST)
    except ModuleNotFoundError as exc:
        if exc.name == f"{module}.versions":
            return {}
        raise


def register(game: Game) -> None:
    """Add a game object at run time (plugins, and the platform tests' tiny game)."""
    _GAMES.setdefault(game.id, f"{type(game).__module__}:GAME")
    _loaded[game.id] = game


def _current(game_id: str) -> Game:
    if game_id in _loaded:
        return _loaded[game_id]
    target = _GAMES.get(game_id)
    if target is None:
        raise Illegal("unknown_game", None, f"no game {game_id!r}; see GET /v1/catalog")
    try:
        game = _import(target)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(target.split(":")[0].rsplit(".", 1)[0]):
            raise Illegal("unknown_game", None, f"game {game_id!r} is not installed") from exc
        raise
    _loaded[game_id] = game
    return game


def _import(target: str) -> Game:
    module, attr = target.split(":")
    return getattr(importlib.import_module(module), attr)
