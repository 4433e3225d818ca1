"""A finished game's log as one compressed value (issue 13: storage per finished game).

The archive is zlib over NDJSON: a header line ``{"events": n, "head": <chain head>}``,
then each envelope in canonical JSON *without* its ``hash`` and ``prev_hash``. Those
two are a function of the rest (``envelope.compute_hash`` from GENESIS on) and are
nearly incompressible (two sha256 hex strings per event, two thirds of a compressed
export), so they are re-derived on reading and the result must end at the recorded
head: an archive that does not rebuild the exact chain is refused, never served. The
export rebuilt from an archive is therefore byte-identical to the one before it.
"""
from __future__ import annotations

import json
import zlib

from domain.core import canonical_json
from errors import BadArchive
from events.envelope import GENESIS, compute_hash, loads

LEVEL = 9  # compaction runs once per game, off the request path: pay for the smallest value


def pack(envs: list[dict]) -> bytes:
    header = canonical_json({"events": len(envs), "head": envs[-1]["hash"] if envs else GENESIS})
    lines = [header, *(canonical_json({k: v for k, v in e.items() if k not in ("hash", "prev_hash")}) for e in envs)]
    return zlib.compress("\n".join(lines).encode(), LEVEL)


def unpack(blob: bytes) -> list[dict]:
    """The envelopes of an archive, their chain re-derived and checked against its head."""
    try:
        header, *lines = zlib.decompress(blob).decode().split("\n")
        meta = json.loads(header)
        envs, prev = [], GENESIS
        for line in lines:
            env = loads(line)
            env["prev_hash"] = prev
            env["hash"] = prev = compute_hash(env)
            envs.append(env)
    except (zlib.error, UnicodeDecodeError, ValueError) as exc:
        raise BadArchive(f"unreadable archive: {exc}") from exc
    if len(envs) != meta.get("events") or prev != meta.get("head"):
        raise BadArchive(f"the archive rebuilds {len(envs)} events ending at {prev[:12]}, "
                         f"not the {meta.get('events')} ending at {str(meta.get('head'))[:12]} it names")
    return envs
