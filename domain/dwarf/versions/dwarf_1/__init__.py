"""DWARF (Hero under the Mountain): shared/rules/dwarf.md as a Delve game."""
