"""The games' command and option schemas, composed into the served ``openapi.yaml``.

Generated clients get typed commands only if the spec names them. Each registered game's
``command_schema`` (a JSON Schema ``oneOf``, one branch per command ``type``)
becomes ``<Game>Command``: a ``oneOf`` of one component per command with a
``type`` discriminator. Its ``options_schema`` becomes ``<Game>Options``;
``GameCommand`` is any registered game's; ``CreateGameRequest`` is one ``Create<Game>Game`` per
game with a ``game`` discriminator, so each game's options are read as that game's. The
committed ``openapi.yaml`` holds two marker comments where they go; ``server.spec`` fills them
from ``domain/registry.py`` when it serves the document, so a new game is documented by its
registry line alone (OpenAPI 3.1 schemas are JSON Schema 2020-12, so the games' schemas go in
unchanged but for their titles, which generators turn into class names).
``python -m server.spec`` prints the whole served document (to generate a client offline).
"""
from __future__ import annotations

import re

import yaml

from domain import registry
from domain.core import Game

BEGIN = "    # BEGIN game schemas"
ANNOTATIONS = (
    "A command of one of the games; GET legal-actions lists the seat's legal ones now. Each game's commands "
    "are a `oneOf` on `type`, each branch's description citing the rule IDs it follows. Two annotations, "
    "which validators ignore, say how the server refuses a command that breaks a constraint: `x-code` is "
    "the 422 problem's `code` and `x-rule` its `rule` (the innermost annotated schema on the failing path "
    "names them). A constraint without them refuses with `bad_command` and no `rule` (`bad_option` / "
    "`unknown_option` in the options schemas); a `type` the game does not have is `unknown_command` and a "
    "command with no string `type` `malformed_command`, both without a `rule`. A command that fits its "
    "schema may still be refused by the rules: that 422 names the game's code and `rule`.")
END = "    # END game schemas\n"


def registered_games() -> list[Game]:
    """Every game the registry serves: the shipped ones and any registered at run time."""
    return [registry.get(gid) for gid in registry.available()]


def pascal(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[-_ ]+", text) if part)


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def portable(schema):
    """``schema`` with ``items: false`` after ``prefixItems`` spelt ``maxItems`` (the same
    constraint): generators such as openapi-python-client accept no boolean schemas."""
    if isinstance(schema, list):
        return [portable(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: portable(value) for key, value in schema.items()}
    if out.get("items") is False and "prefixItems" in out:
        del out["items"]
        out["maxItems"] = min(out.get("maxItems", len(out["prefixItems"])), len(out["prefixItems"]))
    return out


def components(games: list[Game]) -> dict[str, dict]:
    """The component schemas the games contribute, by name."""
    out: dict[str, dict] = {}
    for game in games:
        name = pascal(game.id)
        schema = portable({k: v for k, v in game.command_schema.items() if k != "$schema"})
        mapping = {}
        for branch in schema.get("oneOf", []):
            kind = branch["properties"]["type"]["const"]
            out[f"{name}Command{pascal(kind)}"] = {**branch, "title": f"{name}Command{pascal(kind)}"}
            mapping[kind] = ref(f"{name}Command{pascal(kind)}")["$ref"]
        if mapping:
            schema = {"title": f"{name}Command", "description": f"A {game.title} command: one per `type`.",
                      "oneOf": [{"$ref": target} for target in mapping.values()],
                      "discriminator": {"propertyName": "type", "mapping": mapping}}
        out[f"{name}Command"] = {**schema, "title": f"{name}Command"}
        out[f"{name}Options"] = {**portable(game.options_schema), "title": f"{name}Options",
                                 "description": f"The options of {game.title} (POST /v1/games `options`)."}
    out["GameCommand"] = {"title": "GameCommand", "description": ANNOTATIONS,
                          "anyOf": [ref(f"{pascal(g.id)}Command") for g in games]}
    requests = {}
    for game in games:
        name = f"Create{pascal(game.id)}Game"
        out[name] = {"title": name, "type": "object", "additionalProperties": False, "required": ["game", "seats"],
                     "description": f"Create a {game.title} game.",
                     "properties": {"game": {"type": "string", "enum": [game.id]},
                                    "seats": {"type": "array", "minItems": game.min_players,
                                              "maxItems": game.max_players, "items": ref("SeatSpec")},
                                    "options": ref(f"{pascal(game.id)}Options"),
                                    "visibility": ref("Visibility"), "clock": ref("Clock")}}
        requests[game.id] = ref(name)["$ref"]
    # A discriminator on `game`, so a generated client reads each game's options as that game's
    # (an anyOf of the options alone parsed Mountain King's as Saboteur's, silently dropping fields).
    out["CreateGameRequest"] = {"title": "CreateGameRequest", "description": "POST /v1/games: one shape per game.",
                                "oneOf": [{"$ref": target} for target in requests.values()],
                                "discriminator": {"propertyName": "game", "mapping": requests}}
    return out


def block(games: list[Game]) -> str:
    """The games' components as YAML, indented to sit under ``components.schemas``."""
    text = yaml.safe_dump(components(games), sort_keys=False, allow_unicode=True, width=110)
    return "".join(f"    {line}\n" if line else "\n" for line in text.splitlines())


def render(spec_text: str, games: list[Game]) -> str:
    """``spec_text`` with the marked place (its two marker lines and all between) holding the games' schemas."""
    start, end = spec_text.index(BEGIN), spec_text.index(END) + len(END)
    return spec_text[:start] + block(games) + spec_text[end:]
