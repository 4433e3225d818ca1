"""The house dice game: a fifth game in the shape of a shipped one (``rules.py`` with ``GAME``,
``RULES.md`` beside it), registered by one line in tests/conftest.py."""
