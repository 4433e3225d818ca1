"""In the Hall of the Mountain King: rules engine (rules.py), content pack (content/), geometry (board.py)."""
