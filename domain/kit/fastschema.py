"""A fast answer to "does this value fit this JSON Schema?" for the keywords the games'
command schemas use, or no answer at all.

jsonschema walks a command's branch in about half a millisecond, and every command
is checked twice over its life (``decide`` when it is submitted, again when an export
is verified): the profile of verify showed it as half of every ``decide`` (issue 13).
:func:`fits` evaluates the same Draft 2020-12 semantics directly and returns True or
False, or None when the schema holds a keyword it does not know; the caller then
asks jsonschema, which also words the error when a value does not fit.
tests/kit/test_fastschema.py checks both agree on every game's command schema.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping

ANNOTATIONS = frozenset({"description", "title", "default", "examples", "$schema", "$comment", "x-code", "x-rule"})
KNOWN = ANNOTATIONS | {"type", "enum", "const", "properties", "required", "additionalProperties", "minimum",
                       "maximum", "items", "prefixItems", "minItems", "maxItems", "if", "then", "else", "anyOf",
                       "oneOf", "allOf", "not", "pattern", "propertyNames", "minProperties", "maxProperties"}


class Unknown(Exception):
    """The schema uses a keyword this module does not evaluate."""


def fits(schema: Mapping[str, Any] | bool, value: Any) -> bool | None:
    try:
        return _fits(schema, value)
    except Unknown:
        return None


def _fits(schema: Mapping[str, Any] | bool, v: Any) -> bool:
    if schema is True:
        return True
    if schema is False:
        return False
    if not isinstance(schema, Mapping):
        raise Unknown(f"a schema that is a {type(schema).__name__}")
    if not schema.keys() <= KNOWN:
        raise Unknown(sorted(schema.keys() - KNOWN))
    t = schema.get("type")
    if t is not None and not (_is(v, t) if isinstance(t, str) else any(_is(v, x) for x in t)):
        return False
    if "const" in schema and not _equal(v, schema["const"]):
        return False
    if "enum" in schema and not any(_equal(v, e) for e in schema["enum"]):
        return False
    if _number(v):
        if "minimum" in schema and v < schema["minimum"]:
            return False
        if "maximum" in schema and v > schema["maximum"]:
            return False
    elif isinstance(v, str):
        if "pattern" in schema and not _pattern(schema["pattern"]).search(v):
            return False
    elif isinstance(v, dict) and not _object(schema, v):
        return False
    elif isinstance(v, list) and not _array(schema, v):
        return False
    return _combined(schema, v)


def _object(schema: Mapping[str, Any], v: dict) -> bool:
    if not all(k in v for k in schema.get("required", ())):
        return False
    if not schema.get("minProperties", 0) <= len(v) <= schema.get("maxProperties", len(v)):
        return False
    props = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    names = schema.get("propertyNames", True)
    for k, item in v.items():
        if names is not True and not _fits(names, k):
            return False
        if not _fits(props[k] if k in props else extra, item):
            return False
    return True


def _array(schema: Mapping[str, Any], v: list) -> bool:
    if not schema.get("minItems", 0) <= len(v) <= schema.get("maxItems", len(v)):
        return False
    prefix = schema.get("prefixItems", ())
    if not all(_fits(s, x) for s, x in zip(prefix, v)):
        return False
    rest = schema.get("items", True)
    return rest is True or all(_fits(rest, x) for x in v[len(prefix):])


def _combined(schema: Mapping[str, Any], v: Any) -> bool:
    if "allOf" in schema and not all(_fits(s, v) for s in schema["allOf"]):
        return False
    if "anyOf" in schema and not any(_fits(s, v) for s in schema["anyOf"]):
        return False
    if "oneOf" in schema and sum(1 for s in schema["oneOf"] if _fits(s, v)) != 1:
        return False
    if "not" in schema and _fits(schema["not"], v):
        return False
    if "if" in schema:
        branch = schema.get("then", True) if _fits(schema["if"], v) else schema.get("else", True)
        if not _fits(branch, v):
            return False
    return True


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is(v: Any, t: str) -> bool:
    if t == "integer":  # Draft 2020-12: any number with a zero fractional part
        return (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())
    if t == "number":
        return _number(v)
    if t == "string":
        return isinstance(v, str)
    if t == "boolean":
        return isinstance(v, bool)
    if t == "object":
        return isinstance(v, dict)
    if t == "array":
        return isinstance(v, list)
    if t == "null":
        return v is None
    raise Unknown(t)


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: ``true`` is not ``1``, ``1`` is ``1.0``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if _number(a):
        return _number(b) and a == b
    return type(a) is type(b) and a == b


@lru_cache(maxsize=256)
def _pattern(text: str) -> re.Pattern:
    return re.compile(text)
