"""Saboteur (3-10 players, 3 rounds): rules engine for its RULES.md."""
