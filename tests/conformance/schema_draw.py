"""Random commands drawn from a game's command schema, for the both-ways legality property.

A draw follows the schema (enums, consts, integer ranges, arrays, objects with
their required and some optional fields), so most draws are well formed and
reach ``decide``. Strings are taken from the values the game's own legal
commands use under the same field name (tile ids, card ids) or made up; a
third of the draws mutate one field of a listed command, so the draws land
near the legal ones, where a ``decide`` that accepts too much is found.
"""
from __future__ import annotations

import random
from typing import Any

from domain.kit import branches

MAX_ITEMS = 4  # an array drawn without maxItems has at most this many items


def harvest(commands: list[dict], pool: dict[str, list]) -> None:
    """Add every leaf value of ``commands`` to ``pool`` under its field name."""
    def walk(name: str, value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(k, v)
        elif isinstance(value, list):
            pool.setdefault(name, []).append(value)
            for v in value:
                walk(name + "[]", v)
        else:
            pool.setdefault(name, []).append(value)
    for cmd in commands:
        walk("", cmd)


class Drawer:
    def __init__(self, schema: dict, rng: random.Random, pool: dict[str, list]):
        self.by_type = branches(schema)
        self.rng = rng
        self.pool = pool

    def command(self, legal: list[dict]) -> dict:
        """A drawn command: a fresh draw of a random branch, or one field of a listed command changed."""
        if legal and self.rng.random() < 0.35:
            cmd = dict(self.rng.choice(legal))
            branch = self.by_type[cmd["type"]]
            fields = [k for k in branch["properties"] if k != "type"]
            if fields:
                name = self.rng.choice(fields)
                if name in cmd and name not in branch.get("required", []) and self.rng.random() < 0.3:
                    del cmd[name]
                else:
                    cmd[name] = self.value(branch["properties"][name], name)
            return cmd
        kind = self.rng.choice(sorted(self.by_type))
        return self.value(self.by_type[kind], "")

    def value(self, schema: Any, name: str, depth: int = 0) -> Any:
        rng = self.rng
        if schema is True or schema == {} or depth > 6:
            return self._seen(name, lambda: rng.choice([0, 1, "x", None, True]))
        if schema is False:
            return None
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return rng.choice(schema["enum"])
        for key in ("oneOf", "anyOf"):
            if key in schema and not schema.get("properties"):
                return self.value(rng.choice(schema[key]), name, depth + 1)
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = rng.choice(kind)
        if kind is None:
            kind = "object" if "properties" in schema or "additionalProperties" in schema else \
                "array" if "items" in schema or "prefixItems" in schema else None
        if kind == "integer":
            low, high = schema.get("minimum", -1), schema.get("maximum", 12)
            return self._seen(name, lambda: rng.randint(low, high), lambda v: isinstance(v, int) and low <= v <= high)
        if kind == "number":
            return rng.uniform(schema.get("minimum", -1), schema.get("maximum", 12))
        if kind == "boolean":
            return rng.random() < 0.5
        if kind == "null":
            return None
        if kind == "string":
            return self._seen(name, lambda: rng.choice(["", "x", "r0c0", "r1c2", "seat:0"]),
                              lambda v: isinstance(v, str))
        if kind == "array":
            return self._array(schema, name, depth)
        if kind == "object":
            return self._object(schema, name, depth)
        return self._seen(name, lambda: None)

    def _seen(self, name: str, fresh, fits=lambda v: True) -> Any:
        """Mostly a value the listed commands used under ``name``; sometimes a fresh one."""
        seen = [v for v in self.pool.get(name, []) if fits(v)]
        return self.rng.choice(seen) if seen and self.rng.random() < 0.8 else fresh()

    def _array(self, schema: dict, name: str, depth: int) -> list:
        seen = [v for v in self.pool.get(name, []) if isinstance(v, list)]
        if seen and self.rng.random() < 0.4:
            return list(self.rng.choice(seen))
        prefix = schema.get("prefixItems", [])
        low = schema.get("minItems", 0)
        high = schema.get("maxItems", max(low, len(prefix)) + MAX_ITEMS if schema.get("items", True) is not False
                          else len(prefix))
        size = self.rng.randint(low, max(low, min(high, low + MAX_ITEMS)))
        items = schema.get("items", True)
        return [self.value(prefix[i] if i < len(prefix) else items, name + "[]", depth + 1) for i in range(size)]

    def _object(self, schema: dict, name: str, depth: int) -> dict:
        props = schema.get("properties", {})
        required = schema.get("required", [])
        out = {}
        for key, sub in props.items():
            if key in required or self.rng.random() < 0.35:
                out[key] = self.value(sub, key, depth + 1)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and "propertyNames" in schema:
            for _ in range(self.rng.randint(schema.get("minProperties", 0), 3)):
                out[self.value(schema["propertyNames"], name, depth + 1)] = self.value(extra, name, depth + 1)
        return out
