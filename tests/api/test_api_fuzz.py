"""Bad input never causes a 500: hypothesis throws mangled commands at real games
through the API. Every answer is 201, 409 or a 422 problem with a code — and a
refused command writes nothing."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain import registry
from domain.kit import branches

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 30), st.text(max_size=6),
                    st.sampled_from(["iron", "fire", "A", "P07", "storage", "winter"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                      max_leaves=8)

# Every registered game: its command types and the field names of its command schema.
GAMES = {gid: (registry.get(gid).min_players, sorted(branches(registry.get(gid).command_schema)))
         for gid in registry.available()}
FIELDS = sorted({name for gid in GAMES for b in branches(registry.get(gid).command_schema).values()
                 for name in b["properties"] if name != "type"})


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_mangled_commands_are_refused_cleanly(client, game_id):
    seats, types = GAMES[game_id]
    created = client.post("/v1/games", json={"game": game_id, "seats": [{"name": f"p{i}"} for i in range(seats)]}).json
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]

    @given(seat=st.integers(0, seats - 1), type_=st.sampled_from(types),
           fields=st.dictionaries(st.sampled_from(FIELDS), values, max_size=5))
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    def fuzz(seat, type_, fields):
        version = client.get(f"/v1/games/{gid}").json["version"]
        resp = client.post(f"/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {tokens[seat]}"},
                           json={"expected_version": version, "command": {"type": type_, **fields}})
        assert resp.status_code in (201, 409, 422), (resp.status_code, resp.json)
        if resp.status_code == 422:
            assert resp.mimetype == "application/problem+json" and resp.json["code"]
            assert client.get(f"/v1/games/{gid}").json["version"] == version

    fuzz()
