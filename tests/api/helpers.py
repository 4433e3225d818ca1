"""Helpers the API tests share: bearer headers and a fresh game of the platform's tiny game."""
from __future__ import annotations

ADMIN = {"Authorization": "Bearer admin-secret"}


def auth(token: str | None) -> dict:
    """The Authorization header of ``token``; none for a spectator (None)."""
    return {"Authorization": f"Bearer {token}"} if token else {}


def tiny_game(client, **options) -> dict:
    """Create a two-seat tiny game; returns the create response (with both seat tokens)."""
    resp = client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "ann"}, {"name": "bob"}],
                                          "options": options})
    assert resp.status_code == 201, resp.json
    return resp.json
