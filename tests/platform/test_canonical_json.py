"""canonical_json takes orjson's fast path only where it writes the standard library's bytes:
the hash chain of every stored game depends on them (issue 13)."""
from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings, strategies as st

from domain.core import canonical_json

DATA = Path(__file__).resolve().parent.parent / "data"


def reference(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=2**63 - 3, max_value=2**80)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text())
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
                      max_leaves=30)


@settings(max_examples=600)
@given(values)
def test_the_same_bytes_as_the_standard_library(value):
    assert canonical_json(value) == reference(value)


def test_the_spellings_orjson_would_change_are_kept():
    for value in (1e-05, 2.5e-07, 1e16, -0.0, 2**64, {"a": [0.1, {"b": 1e22}]}, {1: "int key"}, "é\u2028\x00\x7f😀",
                  {"é": 1, "e": 2, "😀": 3, "\uffff": 4}):
        assert canonical_json(value) == reference(value)


def test_every_line_of_the_stored_exports_is_spelled_as_it_was_hashed():
    for path in DATA.glob("*.ndjson"):
        for line in path.read_text().splitlines():
            assert canonical_json(json.loads(line)) == line


def test_a_timestamp_is_not_taken_for_a_float_and_floats_in_any_place_are():
    from domain.core import _FLOAT_TOKEN

    assert not _FLOAT_TOKEN.search(b'{"at":"2026-11-23T16:56:19.123Z","n":[1,2]}')
    for text in (b"1.5", b"[1e16]", b'{"a":-2.5e-7}', b'{"a":[0,0.00001]}'):
        assert _FLOAT_TOKEN.search(text), text


number_text = st.text(alphabet='0123456789.eE+-:[,]}{"x ', max_size=40).map(str.encode)


@settings(max_examples=2000)
@given(number_text)
def test_the_cheap_float_check_never_misses_a_float_token(text):
    """``_MAYBE_FLOAT`` over ``_NUMBER_SHAPE`` is only asked first: it must match wherever the token regex does."""
    from domain.core import _FLOAT_TOKEN, _MAYBE_FLOAT, _NUMBER_SHAPE

    if _FLOAT_TOKEN.search(text):
        assert _MAYBE_FLOAT.search(text.translate(_NUMBER_SHAPE)), text


@settings(max_examples=300)
@given(values)
def test_canonical_bytes_are_the_canonical_text_encoded(value):
    from domain.core import canonical_bytes

    assert canonical_bytes(value) == reference(value).encode()


@settings(max_examples=400)
@given(values | st.text(alphabet="0123456789-.e ", max_size=30))
def test_envelope_loads_reads_what_the_standard_library_reads(value):
    """orjson reads only text without an 18-digit run; the rest (big integers) goes to json.loads."""
    from events.envelope import loads

    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    try:
        expected = repr(json.loads(text))
    except json.JSONDecodeError:
        return
    assert repr(loads(text)) == expected
    assert repr(loads(text.encode("utf-8", "surrogatepass"))) == expected


def test_a_long_run_of_digits_is_read_as_the_integer_it_spells():
    from events.envelope import loads

    for text in ("[" + "1" * 18 + "]", '{"a":' + "9" * 30 + "}", "[" + "1" * 17 + "]"):
        assert repr(loads(text)) == repr(json.loads(text))
