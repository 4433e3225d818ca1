"""Dice pools (IND-DICE-1): every roll is N dice summed. One function rolls them all,
with the face count as an option (IND-AMB-1: d6 by default)."""
from __future__ import annotations

from domain.core import Drbg


def roll(rng: Drbg, n: int, faces: int = 6) -> list[int]:
    return [1 + rng.randbelow(faces) for _ in range(max(0, n))]
