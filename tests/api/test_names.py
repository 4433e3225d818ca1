"""Names are display-only and cannot hide what they are: NFC, trimmed, no control or invisible
characters (a probe registered a player named with NUL and zero-width characters)."""
from __future__ import annotations

import pytest

from tests.api.helpers import ADMIN


@pytest.mark.parametrize("name", ["a\x00b", "zero\u200bwidth", "\u202eevil", "bom\ufeff", "line\u2028break", "\x1b[31m"])
def test_hidden_characters_are_refused_everywhere_a_name_is_given(client, name):
    player = client.post("/v1/players", json={"name": name})
    assert player.status_code == 422 and player.json["code"] == "bad_player_name"
    seat = client.post("/v1/games", json={"game": "tiny", "seats": [{"name": name}, {"name": "b"}]})
    assert seat.status_code == 422 and seat.json["code"] == "bad_seat"
    t = client.post("/v1/tournaments", headers=ADMIN, json={"game": "tiny", "format": "swiss", "table_size": 2,
                                                           "name": name, "start_at": "2099-01-01T00:00:00Z"})
    assert t.status_code == 422 and t.json["code"] == "bad_name"
    bot = client.post("/v1/tournaments", headers=ADMIN, json={
        "game": "tiny", "format": "swiss", "table_size": 2, "entrants": [{"bot": "random", "name": name}]})
    assert bot.status_code == 422 and bot.json["code"] == "bad_entrant"


def test_a_name_is_stored_in_one_spelling_and_may_be_shared(client):
    decomposed, composed = "Jose\u0301", "Jos\u00e9"
    first = client.post("/v1/players", json={"name": f"  {decomposed} "}).json
    second = client.post("/v1/players", json={"name": composed}).json
    assert first["name"] == second["name"] == composed  # NFC, trimmed
    assert first["id"] != second["id"]  # a name is not an identity: the id is
