"""Names people and bots are shown by: normalized text, never an identity.

A name is what a seat, a player, an entrant or a tournament is *displayed* as;
who someone is, is their id (and their token). So two players may share a
name, as two people do: uniqueness per case-folded form would only move the
squatting problem to whoever registers first. What a name may not do is hide
what it is: it is stored NFC-normalized (one spelling per text), trimmed, and
refused when it holds a control character (NUL, escapes, line breaks) or an
invisible formatting one (zero-width spaces and joiners, direction
overrides, the byte-order mark), which let two names look alike or a name
rewrite the line it is shown in.
"""
from __future__ import annotations

import unicodedata

from domain.core import Illegal

HIDDEN = ("Cc", "Cf", "Cs", "Zl", "Zp")  # control, format (zero-width, bidi), surrogate, line/paragraph breaks


def display_name(value: object, most: int, what: str = "a name", code: str = "bad_name") -> str:
    """``value`` as a name of 1 to ``most`` characters: NFC, trimmed, nothing hidden; Illegal ``code`` otherwise."""
    text = unicodedata.normalize("NFC", value).strip() if isinstance(value, str) else ""
    if not 1 <= len(text) <= most:
        raise Illegal(code, None, f"{what} is 1-{most} characters")
    hidden = next((ch for ch in text if unicodedata.category(ch) in HIDDEN), None)
    if hidden is not None:
        raise Illegal(code, None, f"{what} may not hold control or invisible characters "
                      f"(it holds U+{ord(hidden):04X}); names are display-only, ids identify")
    return text
