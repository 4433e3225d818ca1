"""Request input — bodies, query strings, stream cursors, versions — parsed so
that bad input is a 4xx problem with a stable code, never a 500.

Why each check exists (issue 12): Python's JSON parser recurses, so a body
nested 100,000 deep raised RecursionError; ``"\\ud800"`` parses to a string
that cannot be encoded as UTF-8 when it is stored or hashed (so it is ``invalid_unicode``, like
bytes that do not decode: both are text that is not Unicode, not JSON that is malformed); Redis refuses a
stream id beyond 2^63-1 only after the SSE response has begun; and a chunked
body has no Content-Length to refuse up front, so its size is checked while
it is read; a chunked body whose framing is broken (a chunk size ``zz``) is a
400, not the 500 of an exception raised from deep inside the read.
"""
from __future__ import annotations

import json
import re
import sys
from functools import lru_cache

from flask import current_app, request
from gunicorn.http.errors import NoMoreData, ParseException
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import RequestEntityTooLarge

from errors import ApiError


MAX_DEPTH = 32  # arrays/objects inside one another; no command or option nests half as deep
ACTION_BODY_BYTES = 64 * 1024  # POST /v1/games/{id}/actions
CREATE_BODY_BYTES = 64 * 1024  # POST /v1/games
MAX_SEQ = 2**63 - 1  # the largest id part Redis streams accept
_DIGITS = re.compile(r"[0-9]{1,19}")


def body(limit: int, advice: str = "") -> bytes:
    """The raw body, refused with 413 past ``limit`` bytes, announced or chunked, or past the
    app's cap on every route (DELVE_MAX_BODY_BYTES) when that is lower."""
    cap = current_app.config.get("MAX_CONTENT_LENGTH")
    if cap is not None and cap < limit:
        limit, advice = cap, ""
    too_large = ApiError(413, "body_too_large", f"this request body is capped at {limit} bytes{advice}")
    if (request.content_length or 0) > limit:
        raise too_large
    # Werkzeug ends a chunked stream quietly at max_content_length, so read one
    # byte more than allowed: getting it means the body was too large.
    request.max_content_length = limit + 1
    try:
        data = request.get_data(cache=True)
    except RequestEntityTooLarge:
        raise too_large from None
    except (ParseException, NoMoreData) as exc:  # gunicorn found the body's framing broken while we read it
        raise ApiError(400, "malformed_body", f"the request body is not framed as HTTP/1.1 says ({exc}); "
                       "send it with a Content-Length, or as valid chunks") from None
    if len(data) > limit:
        raise too_large
    return data


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _number(text: str) -> float | int:
    """A JSON number with a fraction or exponent; a whole one (``2.0``, ``1e3``) as the int it is.
    JSON Schema counts ``2.0`` as an integer, so a client may spell a seat, a slot or a version so;
    read as a float it reached the rules as a list index (a 500) and a game's record as ``2.0``."""
    value = float(text)
    return int(value) if value.is_integer() else value


def _integer(text: str) -> int:
    """A JSON integer; past the digits Python converts (``sys.get_int_max_str_digits``) a 400 that
    says so, where the parser's own ValueError read as "not valid JSON"."""
    if len(text) > sys.get_int_max_str_digits():
        raise ApiError(400, "malformed_json", f"a number in the body has {len(text)} digits; the most this server "
                       f"reads is {sys.get_int_max_str_digits()}")
    return int(text)


JSON = "application/json"


def json_body(limit: int) -> object:
    """The parsed JSON body: 415 for another media type, 413 past ``limit``, 400 for bad JSON
    (``invalid_unicode`` for bytes that are not UTF-8 -- a UTF-8 byte order mark is allowed, as
    RFC 8259 lets a parser allow it; UTF-16 is not read -- or a lone surrogate, else ``malformed_json``).
    Whole numbers are ints however they are written (``_number``).

    The media type is ``application/json`` (parameters such as ``charset=utf-8`` aside), the only
    one the contract names for a request body. Another ``+json`` type is a 415, not read as plain
    JSON: ``application/merge-patch+json`` asks for RFC 7396's merge semantics, which no route of
    this API has (none takes a PATCH), and reading it as a whole document would do something else
    than the client asked for."""
    if request.mimetype != JSON:
        sent = request.mimetype or "no Content-Type"
        raise ApiError(415, "unsupported_media_type", f"send the body as {JSON}, not {sent[:80]}"
                       + ("; no route of this API takes a merge patch" if sent == "application/merge-patch+json" else ""))
    raw = body(limit)
    try:
        value = json.loads(raw.decode("utf-8-sig"), parse_constant=_no_constant, parse_float=_number,
                           parse_int=_integer)
    except RecursionError:
        raise _too_deep() from None
    except UnicodeDecodeError as exc:  # a ValueError too: caught first, it is not the JSON that is wrong
        raise ApiError(400, "invalid_unicode", f"the body is not valid {exc.encoding.upper().replace('-SIG', '')} "
                       f"(byte {exc.object[exc.start]:#04x} at offset {exc.start}); send valid Unicode") from None
    except ValueError:
        raise ApiError(400, "malformed_json", "the body is not valid JSON (no NaN or Infinity)") from None
    check_json(value)
    return value


def _too_deep() -> ApiError:
    return ApiError(400, "too_deeply_nested", f"JSON may nest arrays and objects at most {MAX_DEPTH} deep")


def check_json(value: object) -> None:
    """Refuse nesting deeper than MAX_DEPTH and strings that are not valid Unicode.

    Iterative, so checking a deep value cannot itself overflow the stack.
    """
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item)
        elif isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                raise _too_deep()
            if isinstance(item, dict):
                for key in item:
                    _check_text(key)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(400, "invalid_unicode", "a string holds a lone surrogate (e.g. \\ud800); "
                       "send valid Unicode") from None


@lru_cache(maxsize=None)
def schema(cls: type[Schema]) -> Schema:
    """One instance per schema class. Building a marshmallow schema deep-copies its declared
    fields (and its nested schemas' on first use): the profile of a game read showed it as
    its largest cost after the Redis round trip. Dumping and loading do not change an
    instance, so every request may share it."""
    return cls()


def query(cls: type[Schema]) -> dict:
    """The query string loaded by schema ``cls``; errors name the query parameter, not a body."""
    try:
        return schema(cls).load(request.args.to_dict())
    except ValidationError as e:
        named = "; ".join(f"{name}: {' '.join(map(str, why))}" for name, why in e.messages.items())
        raise ApiError(400, "malformed_query", f"a query parameter is invalid ({named})", errors=e.messages) from None


def stream_cursor() -> int:
    """The seq an event stream resumes after: ``Last-Event-ID``, else ``?after=``, else 0."""
    text = request.headers.get("Last-Event-ID", request.args.get("after", "0"))
    if not _DIGITS.fullmatch(text) or int(text) > MAX_SEQ:
        raise ApiError(400, "bad_last_event_id",
                       f"Last-Event-ID (or after) must be an event seq, a whole number from 0 to {MAX_SEQ}")
    return int(text)


def move(text: str) -> int:
    """A move number in a query (``?move=30``): a whole number from 1."""
    if not re.fullmatch(r"[0-9]{1,9}", text) or int(text) < 1:
        raise ApiError(400, "bad_move", f"a move is a whole number from 1 to 999999999, not {text[:40]!r}")
    return int(text)


def version(text: str) -> int:
    """A version in a path: a whole number (its range is checked against the game)."""
    if text == "at":  # the contract's `/states/at?move=n`, asked without its move
        raise ApiError(400, "bad_version", "/states/at is the position after a move: add ?move=n (a move from 1), "
                       "or ask for a version, a whole number")
    if not re.fullmatch(r"[0-9]{1,30}", text):
        raise ApiError(400, "bad_version", f"a version is a whole number of at most 30 digits, not {text[:40]!r}")
    return int(text)
