"""Tournaments as pure, deterministic functions: who sits where each round, and
the standings that follow from the results (rules in ``README.md``, IDs ``TRN-*``).

Nothing here does I/O or reads a clock; every random choice comes from the
``Drbg`` keyed by the tournament seed, so ``delve verify`` can re-derive each
round of a bundle from the results logged before it.

A round is plain JSON: ``{"round": n, "tables": [{"seats": [entrant, ...],
"result": None | {"places": {entrant: place}, "scores": {entrant: total}}}],
"byes": [entrant, ...]}``. Entrants are ``{"id", "rating", "withdrawn"}``.
"""
from domain.tournament.config import FORMATS, Config
from domain.tournament.pairing import check_field, is_complete, pair_round, planned_rounds
from domain.tournament.standings import standings

__all__ = ["FORMATS", "Config", "check_field", "is_complete", "pair_round", "planned_rounds", "standings"]
