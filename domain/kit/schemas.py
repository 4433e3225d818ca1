"""Command and option schemas: one builder, and JSON Schema validation that
turns a schema violation into ``Illegal`` with a stable code and rule ID.

A schema describes *shapes* (field names, types, ids from the content pack);
whether a command is legal now is still for ``decide``. Because the schema is
enforced before ``decide`` (by the platform and by ``BaseGame.decide``), a
game's rules code may assume every field has the declared type.

Codes and rules come from annotations on the schema: ``x-code`` and ``x-rule``
on a property (or branch) name the ``Illegal`` raised when it is violated;
the deepest annotated schema on the failing path wins::

    command("map", "Look at a goal (SAB-MAP-1).",
            {"card": {"enum": MAPS}, "goal": rule({"enum": ["A", "B", "C"]}, "bad_goal", "SAB-MAP-1")})

Without annotations a command error is ``bad_command`` and an option error
``bad_option`` (an option the schema does not name: ``unknown_option``), with
no rule. An unknown command ``type`` is ``unknown_command``.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

import jsonschema
from jsonschema.exceptions import best_match

from domain.core import Illegal
from domain.kit.fastschema import fits

DRAFT = "https://json-schema.org/draft/2020-12/schema"
_validators: dict[int, tuple[dict, jsonschema.Draft202012Validator]] = {}
_by_type: dict[int, tuple[Mapping[str, Any], dict[str, dict]]] = {}


def rule(schema: Mapping[str, Any], code: str, rule_id: str | None = None) -> dict:
    """``schema`` annotated with the ``Illegal`` code (and rule ID) its violation raises."""
    out = {**schema, "x-code": code}
    if rule_id:
        out["x-rule"] = rule_id
    return out


def command(kind: str, description: str, required: Mapping[str, dict] | None = None,
            optional: Mapping[str, dict] | None = None, **extra: Any) -> dict:
    """One ``oneOf`` branch: an object whose ``type`` is ``kind``; no other fields allowed."""
    required = dict(required or {})
    return {"type": "object", "title": kind, "description": description,
            "properties": {"type": {"const": kind}, **required, **(optional or {})},
            "required": ["type", *required], "additionalProperties": False, **extra}


def command_schema(title: str, branches: Iterable[dict]) -> dict:
    """The game's command schema: one branch per command type (``command``)."""
    return {"$schema": DRAFT, "title": title, "oneOf": list(branches)}


def option_defaults(schema: Mapping[str, Any]) -> dict:
    """Each option's ``default``, as declared in the options schema."""
    return {name: spec["default"] for name, spec in schema.get("properties", {}).items() if "default" in spec}


def check_options(schema: Mapping[str, Any], options: Any) -> dict:
    """``options`` with defaults filled in, validated against ``schema``; raises Illegal."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise Illegal("bad_option", None, "options are a JSON object")
    filled = {**option_defaults(schema), **options}
    if not fits(schema, filled):  # jsonschema only when the fast evaluation does not say yes (or cannot)
        _raise_first(schema, filled, "options", default_code="bad_option")
    return filled


def branches(schema: Mapping[str, Any]) -> dict[str, dict]:
    """``{command type: branch}`` of a command schema built with ``command``."""
    return {b["properties"]["type"]["const"]: b for b in schema.get("oneOf", [])}


def check_command(schema: Mapping[str, Any], cmd: Any) -> None:
    """Raise Illegal unless ``cmd`` fits the branch of its ``type``.

    The branch is chosen by ``type`` first, so the error names what is wrong
    with *this* command rather than why it fits none of the branches.
    """
    if not isinstance(cmd, dict) or not isinstance(cmd.get("type"), str):
        raise Illegal("bad_command", None, "a command is a JSON object with a string 'type'")
    by_type = _branches(schema)
    branch = by_type.get(cmd["type"])
    if branch is None:
        raise Illegal("unknown_command", None,
                      f"unknown command type {cmd['type']!r}; the types are {', '.join(sorted(by_type))}")
    if fits(branch, cmd):
        return  # the fast evaluation of the same schema (domain.kit.fastschema); jsonschema words any error
    _raise_first(branch, cmd, "command", default_code="bad_command")


def _branches(schema: Mapping[str, Any]) -> dict[str, dict]:
    """``branches(schema)``, built once per schema object (every ``decide`` asks)."""
    hit = _by_type.get(id(schema))
    if hit is None or hit[0] is not schema:
        hit = (schema, branches(schema))  # keeps ``schema`` alive, so its id stays its own
        _by_type[id(schema)] = hit
    return hit[1]


def _validator(schema: Mapping[str, Any]) -> jsonschema.Draft202012Validator:
    hit = _validators.get(id(schema))
    if hit is None or hit[0] is not schema:
        hit = (schema, jsonschema.Draft202012Validator(schema))  # keeps ``schema`` alive, so its id stays its own
        _validators[id(schema)] = hit
    return hit[1]


def _raise_first(schema: Mapping[str, Any], value: Any, what: str, default_code: str) -> None:
    error = best_match(_validator(schema).iter_errors(value))
    if error is None:
        return
    code, rule_id = _annotation(schema, error)
    if code is None:
        code = "unknown_option" if what == "options" and error.validator == "additionalProperties" else default_code
    where = ".".join([what, *map(str, error.absolute_path)])
    raise Illegal(code, rule_id, f"{where}: {error.message}")


def _annotation(schema: Mapping[str, Any], error) -> tuple[str | None, str | None]:
    """``x-code`` / ``x-rule`` of the deepest annotated schema on the path of ``error``
    (for a missing field: that field's schema)."""
    nodes = [schema]
    node: Any = schema
    for step in error.absolute_schema_path:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
        nodes.append(node)
    if error.validator == "required" and isinstance(error.instance, dict) and len(nodes) > 1:
        missing = next((p for p in error.validator_value if p not in error.instance), None)
        holder = nodes[-2] if isinstance(nodes[-2], dict) else {}
        nodes.append(holder.get("properties", {}).get(missing))
    for n in reversed(nodes):
        if isinstance(n, dict) and ("x-code" in n or "x-rule" in n):
            return n.get("x-code"), n.get("x-rule")
    return None, None
