"""IND-SETUP-4, IND-SETUP-7, IND-SETUP-8 through the API: an empty list of factions, commanders or
primary monsters is not "unset" (null asks for the defaults); every player picks a faction, names a
commander and chooses a primary monster, so ``[]`` is refused with the rule it breaks and nothing is
written."""
from __future__ import annotations

import pytest

SEATS = [{"name": "ann"}, {"name": "bob"}]


@pytest.mark.parametrize("option,rule", [
    ("factions", "IND-SETUP-4"), ("commanders", "IND-SETUP-7"), ("monsters", "IND-SETUP-8"),
])
def test_IND_SETUP_4_7_8_an_empty_choice_is_refused_and_nothing_is_written(client, r, prefix, option, rule):
    resp = client.post("/v1/games", json={"game": "indagar", "seats": SEATS, "options": {option: []}})
    assert resp.status_code == 422 and resp.mimetype == "application/problem+json", resp.json
    assert (resp.json["code"], resp.json["rule"]) == ("bad_option", rule)
    assert f"options.{option}" in resp.json["detail"]
    assert list(r.scan_iter(f"{prefix}:*g:*")) == []
    assert client.get("/v1/games").json["games"] == []


def test_IND_SETUP_8_null_still_asks_for_the_packs_monsters(client):
    resp = client.post("/v1/games", json={"game": "indagar", "seats": SEATS,
                                          "options": {"monsters": None, "factions": None, "commanders": None}})
    assert resp.status_code == 201, resp.json
    state = client.get(f"/v1/games/{resp.json['id']}").json["view"]
    assert sorted(state["monsters"]) == ["helgoth", "tijian"]
