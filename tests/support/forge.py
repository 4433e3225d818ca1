"""A forger's tool for verify tests: rewrite an export, then recompute every hash so the chain holds
and only the replay can tell."""
from __future__ import annotations

import json

from domain.core import canonical_json
from events.envelope import compute_hash


def rechain(envs: list[dict]) -> list[str]:
    """The export lines of ``envs`` with every ``prev_hash``/``hash`` recomputed."""
    prev = envs[0]["prev_hash"]
    for env in envs:
        env["prev_hash"] = prev
        env["hash"] = prev = compute_hash(env)
    return [canonical_json(env) + "\n" for env in envs]


def envelopes(lines) -> list[dict]:
    """The envelopes of an export's lines, without the signature lines that close it."""
    parsed = [json.loads(line) for line in lines if line.strip()]
    return [line for line in parsed if "seq" in line]
