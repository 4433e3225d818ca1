"""A fast answer to "does this value fit this JSON Schema?" for the keywords the games'
command schemas use, or no answer at all.

jsonschema walks a command's branch in about half a millisecond, and every command
is checked twice over its life (``decide`` when it is submitted, again when an export
is verified): the profile of verify showed it as half of every ``decide`` (issue 13).
:func:`fits` evaluates the same Draft 2020-12 semantics directly and returns True or
False, or None when the schema holds a keyword it does not know; the caller then
asks jsonschema, which also words the error when a value does not fit.

A schema is compiled once into nested closures (:func:`compiled`): walking the schema
dict per check, and comparing a value with a long ``enum`` one entry at a time, were
still a fifth of verifying an export (issue 22). tests/kit/test_fastschema.py checks
the answers agree with jsonschema on every game's command schema.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Mapping

ANNOTATIONS = frozenset({"description", "title", "default", "examples", "$schema", "$comment", "x-code", "x-rule"})
KNOWN = ANNOTATIONS | {"type", "enum", "const", "properties", "required", "additionalProperties", "minimum",
                       "maximum", "items", "prefixItems", "minItems", "maxItems", "if", "then", "else", "anyOf",
                       "oneOf", "allOf", "not", "pattern", "propertyNames", "minProperties", "maxProperties"}

Check = Callable[[Any], bool]
_compiled: dict[int, tuple[Any, Check | None]] = {}
_CACHE_LIMIT = 4096  # schemas are module constants; only tests build them by the thousand


class Unknown(Exception):
    """The schema uses a keyword this module does not evaluate."""


def fits(schema: Mapping[str, Any] | bool, value: Any) -> bool | None:
    check = compiled(schema)
    return None if check is None else check(value)


def compiled(schema: Mapping[str, Any] | bool) -> Check | None:
    """The check of ``schema`` (None if it holds a keyword this module does not know), built once
    per schema object; the cache keeps the schema alive, so its id stays its own."""
    hit = _compiled.get(id(schema))
    if hit is None or hit[0] is not schema:
        if len(_compiled) >= _CACHE_LIMIT:
            _compiled.clear()
        try:
            check: Check | None = _compile(schema)
        except Unknown:
            check = None
        hit = (schema, check)
        _compiled[id(schema)] = hit
    return hit[1]


def _always(v: Any) -> bool:
    return True


def _never(v: Any) -> bool:
    return False


def _compile(schema: Mapping[str, Any] | bool) -> Check:
    if schema is True:
        return _always
    if schema is False:
        return _never
    if not isinstance(schema, Mapping):
        raise Unknown(f"a schema that is a {type(schema).__name__}")
    if not schema.keys() <= KNOWN:
        raise Unknown(sorted(schema.keys() - KNOWN))
    checks: list[Check] = []  # each applies to every value, in the order the keywords are evaluated
    if "type" in schema:
        t = schema["type"]
        checks.append(_type(t) if isinstance(t, str) else _any([_type(x) for x in t]))
    if "const" in schema:
        checks.append(_const(schema["const"]))
    if "enum" in schema:
        checks.append(_enum(schema["enum"]))
    number, string, obj, array = _number_check(schema), _string_check(schema), _object(schema), _array(schema)
    if number or string or obj or array:
        checks.append(_by_kind(number, string, obj, array))
    checks.extend(_combined(schema))
    return _all(checks)


def _all(checks: list[Check]) -> Check:
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        a, b = checks
        return lambda v: a(v) and b(v)
    return lambda v: all(c(v) for c in checks)


def _any(checks: list[Check]) -> Check:
    return lambda v: any(c(v) for c in checks)


def _by_kind(number: Check | None, string: Check | None, obj: Check | None, array: Check | None) -> Check:
    """Keywords that only apply to one kind of value (a string's ``pattern``, an object's ``properties``)."""
    def check(v: Any) -> bool:
        if _number(v):
            return number is None or number(v)
        if isinstance(v, str):
            return string is None or string(v)
        if isinstance(v, dict):
            return obj is None or obj(v)
        if isinstance(v, list):
            return array is None or array(v)
        return True
    return check


def _number_check(schema: Mapping[str, Any]) -> Check | None:
    low, high = schema.get("minimum"), schema.get("maximum")
    if "minimum" in schema and "maximum" in schema:
        return lambda v: not v < low and not v > high
    if "minimum" in schema:
        return lambda v: not v < low
    if "maximum" in schema:
        return lambda v: not v > high
    return None


def _string_check(schema: Mapping[str, Any]) -> Check | None:
    if "pattern" not in schema:
        return None
    search = re.compile(schema["pattern"]).search
    return lambda v: search(v) is not None


def _object(schema: Mapping[str, Any]) -> Check | None:
    keys = ("required", "minProperties", "maxProperties", "properties", "additionalProperties", "propertyNames")
    if not any(k in schema for k in keys):
        return None
    required = tuple(schema.get("required", ()))
    low, high = schema.get("minProperties", 0), schema.get("maxProperties")
    props = {k: _compile(s) for k, s in schema.get("properties", {}).items()}
    extra = _compile(schema.get("additionalProperties", True))
    names = _compile(schema.get("propertyNames", True))

    def check(v: dict) -> bool:
        for k in required:
            if k not in v:
                return False
        if not low <= len(v) or (high is not None and len(v) > high):
            return False
        for k, item in v.items():
            if names is not _always and not names(k):
                return False
            if not props.get(k, extra)(item):
                return False
        return True
    return check


def _array(schema: Mapping[str, Any]) -> Check | None:
    if not any(k in schema for k in ("minItems", "maxItems", "prefixItems", "items")):
        return None
    low, high = schema.get("minItems", 0), schema.get("maxItems")
    prefix = [_compile(s) for s in schema.get("prefixItems", ())]
    rest = _compile(schema.get("items", True))
    n = len(prefix)

    def check(v: list) -> bool:
        if not low <= len(v) or (high is not None and len(v) > high):
            return False
        if not all(c(x) for c, x in zip(prefix, v)):
            return False
        return rest is _always or all(rest(x) for x in v[n:])
    return check


def _combined(schema: Mapping[str, Any]) -> list[Check]:
    out: list[Check] = []
    if "allOf" in schema:
        out.append(_all([_compile(s) for s in schema["allOf"]]) if schema["allOf"] else _always)
    if "anyOf" in schema:
        out.append(_any([_compile(s) for s in schema["anyOf"]]))
    if "oneOf" in schema:
        one = [_compile(s) for s in schema["oneOf"]]
        out.append(lambda v: sum(1 for c in one if c(v)) == 1)
    if "not" in schema:
        negated = _compile(schema["not"])
        out.append(lambda v: not negated(v))
    if "if" in schema:
        cond, then, other = (_compile(schema["if"]), _compile(schema.get("then", True)),
                             _compile(schema.get("else", True)))
        out.append(lambda v: then(v) if cond(v) else other(v))
    return out


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _type(t: str) -> Check:
    if t == "integer":  # Draft 2020-12: any number with a zero fractional part
        return lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())
    if t == "number":
        return _number
    if t == "string":
        return lambda v: isinstance(v, str)
    if t == "boolean":
        return lambda v: isinstance(v, bool)
    if t == "object":
        return lambda v: isinstance(v, dict)
    if t == "array":
        return lambda v: isinstance(v, list)
    if t == "null":
        return lambda v: v is None
    raise Unknown(t)


def _const(c: Any) -> Check:
    if type(c) is str:
        return lambda v: type(v) is str and v == c
    return lambda v: _equal(v, c)


def _enum(values: list) -> Check:
    if all(type(e) is str for e in values):  # JSON equality with a string is: a str, equal
        members = frozenset(values)
        return lambda v: type(v) is str and v in members
    return lambda v: any(_equal(v, e) for e in values)


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
