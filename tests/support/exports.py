"""Seal a game played by the kit's driver into the export the server would write.

The driver draws from the server's DRBG streams, so its batches, wrapped in
envelopes exactly as the store does (GameCreated, the start, one batch per
step, SeedRevealed + GameFinished), must verify: that is the proof that a game
played in a benchmark or a test replays on the server.
"""
from __future__ import annotations

import hashlib

from domain.core import canonical_json
from domain.kit import Played
from events.envelope import GENESIS, seal

AT = "2026-01-01T00:00:00.000Z"


def export_lines(g: Played, game_id: str = "gdriver") -> list[str]:
    game = g.game
    created = {"type": "GameCreated", "data": {
        "game": game.id, "options": g.options, "seats": [s.to_dict() for s in g.seats],
        "rules_version": game.rules_version, "seed_commitment": hashlib.sha256(g.seed).hexdigest()}}
    batches = [(None, None, f"create:{game_id}", [created, *g.steps[0].events])]
    batches += [(s.seat, s.command, f"step:{s.version}", s.events) for s in g.steps[1:]]
    if g.terminal:
        batches.append((None, None, f"finalize:{game_id}", [
            {"type": "SeedRevealed", "data": {"seed": g.seed.hex()}},
            {"type": "GameFinished", "data": {"scores": g.scores().to_dict()}}]))
    envs: list[dict] = []
    for seat, command, command_id, events in batches:
        envs += seal(events, game_id=game_id, first_seq=len(envs) + 1, prev_hash=envs[-1]["hash"] if envs else GENESIS,
                     seat=seat, command_id=command_id, command=command, at=AT, rules_version=game.rules_version)
    return [canonical_json(e) for e in envs]
