"""Helpers the API tests share: bearer headers, a fresh game of the platform's tiny game, the start of an SSE stream."""
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


def stream_start(client, gid: str, token: str | None, after: int) -> str:
    """The game's SSE stream from ``after`` up to its first keep-alive (or its end)."""
    resp = client.get(f"/v1/games/{gid}/events/stream?after={after}", headers=auth(token), buffered=False)
    chunks = []
    for chunk in resp.response:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        chunks.append(text)
        if text.startswith(": keep-alive") or "event: end" in text:
            break
    resp.close()
    return "".join(chunks)
