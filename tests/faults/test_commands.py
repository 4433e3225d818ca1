"""Issue 7, item 6: a legal command with an extra field of 34 MB was accepted and stored for ever.

Commands are now checked against the game's command schema (no extra fields)
and action bodies are capped; either way nothing is written.
"""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("extra", [{"note": "x"}, {"note": "x" * 34 * 1024 * 1024}], ids=["small", "34MB"])
def test_a_legal_command_with_an_extra_field_is_refused_and_nothing_written(client, service, extra):
    created = client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "a"}, {"name": "b"}]}).json
    gid, token = created["id"], created["seats"][0]["token"]
    refused = client.post(f"/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {token}"},
                          json={"expected_version": created["version"], "command": {"type": "pass", **extra}})
    assert refused.status_code in (400, 413, 422), refused.json
    assert refused.headers["Content-Type"].startswith("application/problem+json") and refused.json["code"]
    assert service.store.version(gid) == created["version"]
