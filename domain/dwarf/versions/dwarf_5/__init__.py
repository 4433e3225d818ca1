"""DWARF (Hero under the Mountain): domain/dwarf/RULES.md as a Delve game."""
