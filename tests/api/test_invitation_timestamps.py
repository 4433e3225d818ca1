"""An invitation's ``created_at`` is stamped to the millisecond like every other timestamp of the
API (an outside audit found a tournament's invitations stamped to the second: 2026-11-23T18:00:00Z
beside games' 2026-11-23T18:00:00.123Z), as the contract's Invitation schema says."""
from __future__ import annotations

import re
from pathlib import Path

import yaml

from tests.api.helpers import auth
from tests.tournament.test_tournament_players import new_player

SPEC = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
STAMP = SPEC["components"]["schemas"]["Invitation"]["properties"]["created_at"]
CLOCK = {"per_move_s": 60, "on_timeout": "forfeit"}
MILLIS = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


def _invitations(client, player: dict) -> list[dict]:
    return client.get("/v1/players/me/invitations", headers=auth(player["token"])).json["invitations"]


def test_the_contract_says_an_invitations_created_at_has_milliseconds():
    assert STAMP["format"] == "date-time" and re.compile(STAMP["pattern"]).match("2026-11-23T18:00:00.123Z")
    assert not re.compile(STAMP["pattern"]).match("2026-11-23T18:00:00Z")


def test_tournament_and_seat_invitations_are_stamped_like_games(client):
    org, ann = new_player(client, "org"), new_player(client, "ann")
    t = client.post("/v1/tournaments", headers=auth(org["token"]), json={
        "game": "tiny", "format": "swiss", "table_size": 2,
        "clock": CLOCK, "entrants": [{"player": ann["id"]}, {"bot": "random"}]}).json
    game = client.post("/v1/games", headers=auth(org["token"]),
                       json={"game": "tiny", "seats": [{"name": "o"}, {"player": ann["id"]}]}).json
    by_kind = {i["kind"]: i for i in _invitations(client, ann)}
    assert set(by_kind) == {"tournament", "seat"} and by_kind["tournament"]["id"] == t["id"]
    assert MILLIS.match(client.get(f"/v1/games/{game['id']}").json["created_at"])
    for inv in by_kind.values():
        assert MILLIS.match(inv["created_at"]), inv
        assert re.compile(STAMP["pattern"]).match(inv["created_at"])


def test_an_invitation_stamped_to_the_second_before_is_read_with_milliseconds(client, service):
    org, ann = new_player(client, "org"), new_player(client, "ann")
    t = client.post("/v1/tournaments", headers=auth(org["token"]), json={
        "game": "tiny", "format": "swiss", "table_size": 2,
        "clock": CLOCK, "entrants": [{"player": ann["id"]}, {"bot": "random"}]}).json
    records = service.invitations.records
    stored = records.get(ann["id"], t["id"])  # as the code before this fix stamped it
    records.put(ann["id"], t["id"], {**stored, "created_at": "2026-11-23T18:00:00Z"}, None)
    (inv,) = _invitations(client, ann)
    assert inv["created_at"] == "2026-11-23T18:00:00.000Z"
