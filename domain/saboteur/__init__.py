"""Saboteur (3-10 players, 3 rounds): rules engine for shared/rules/saboteur.md."""
