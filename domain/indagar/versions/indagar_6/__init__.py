"""La Guerra de Indagar (domain/indagar/RULES.md): the 4X game for 1-4 players, monsters and solo."""
