"""Redis replies as the store's parts use them: text, stream entries and their fields."""
from __future__ import annotations

from typing import Any

from events.envelope import loads


def as_text(v: Any) -> str:
    """Redis replies are bytes unless the client decodes them; accept both."""
    return v.decode() if isinstance(v, bytes) else v


def fields(raw: dict) -> dict[str, str]:
    """A stream entry's or a hash's fields as text."""
    return {as_text(k): as_text(v) for k, v in raw.items()}


def _pairs(reply: dict | list) -> dict:
    """A hash or stream entry's fields: redis-py 8 leaves a RedisCluster MULTI's replies unparsed,
    so there they come as the flat ``[field, value, ...]`` Redis sent."""
    return dict(zip(reply[::2], reply[1::2])) if isinstance(reply, list) else reply


def parse_entry(entry_fields: dict | list) -> dict:
    """The envelope stored in one stream entry (its field ``e``)."""
    entry_fields = _pairs(entry_fields)
    return loads(entry_fields[b"e"] if b"e" in entry_fields else entry_fields["e"])
