"""La Guerra de Indagar (shared/rules/indagar.md): the 4X game for 1-4 players, monsters and solo."""
