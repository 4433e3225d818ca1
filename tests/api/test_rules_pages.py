"""Rules a client can read: /rules/<game> serves each game's RULES.md with an anchor per rule id,
a 422 links the rule it cites there (rule_url), and every rule id the engines cite has an anchor."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain import registry
from server import rules

ROOT = Path(__file__).resolve().parents[2]
GAMES = [gid for gid in registry.available() if gid in rules.documents()]  # every registered game with a RULES.md


def anchors_on_page(client, url: str) -> set[str]:
    page = client.get(url)
    assert page.status_code == 200 and page.mimetype == "text/html", url
    return set(re.findall(r'<a id="([^"]+)"', page.get_data(as_text=True)))


def test_every_game_has_a_rules_page_with_an_anchor_per_rule(client):
    assert set(GAMES) | {"tournament"} == set(rules.documents()) and len(GAMES) >= 4
    for doc in rules.documents():
        on_page = anchors_on_page(client, f"/rules/{doc}")
        defined = set(rules.BOLD.findall(rules.documents()[doc][1].read_text(encoding="utf-8")))
        assert on_page == rules.anchors(doc) and defined and defined <= on_page, doc


def test_every_rule_id_the_engines_cite_has_an_anchor(client):
    """Code, content and schemas under domain/ cite rule ids; each leads to an anchor that exists."""
    pages = {doc: anchors_on_page(client, f"/rules/{doc}") for doc in rules.documents()}
    cited, broken = 0, []
    for path in sorted((ROOT / "domain").rglob("*")):
        if path.suffix not in (".py", ".yaml", ".json"):
            continue
        for rule in set(rules.MENTION.findall(path.read_text(encoding="utf-8"))):
            cited += 1
            url = rules.rule_url(rule)
            doc, _, anchor = (url or "").removeprefix("/rules/").partition("#")
            if not url or anchor not in pages.get(doc, ()):
                broken.append(f"{rule} ({path.relative_to(ROOT)})")
    assert cited > 500 and not broken, broken


def test_an_unknown_rules_document_is_a_problem(client):
    resp = client.get("/rules/chess")
    assert resp.status_code == 404 and resp.mimetype == "application/problem+json"
    assert resp.json["code"] == "rules_not_found" and "saboteur" in resp.json["detail"]


def _mutations(command: dict):
    """Commands a legal one becomes by one absurd value (or one field too many)."""
    yield {**command, "bogus": 1}
    for key, value in command.items():
        if key == "type":
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            yield {**command, key: 999}
        elif isinstance(value, str):
            yield {**command, key: "ZZZ"}


def _refusal(client, game_id: str) -> dict:
    """A real 422 citing a rule: the seat to act sends legal commands, each spoilt one way."""
    game = registry.get(game_id)
    seats = [{"name": f"p{i}"} for i in range(max(game.min_players, 2))]  # a seat acts first (no solo automaton)
    created = client.post("/v1/games", json={"game": game_id, "seats": seats}).json
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    seat = client.get(f"/v1/games/{created['id']}").json["turn"]["seats"][0]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    legal = client.get(f"/v1/games/{created['id']}/legal-actions", headers=auth).json
    for command in legal["commands"][:20]:
        for spoilt in _mutations(command):
            resp = client.post(f"/v1/games/{created['id']}/actions", headers=auth,
                               json={"expected_version": legal["version"], "command": spoilt})
            assert resp.status_code in (400, 422), (spoilt, resp.json)  # nothing absurd is accepted
            if resp.status_code == 422 and resp.json.get("rule"):
                return resp.json
    if legal["commands"] and len(tokens) > 1:  # a game whose commands have no field to spoil: out of turn
        other = {"Authorization": f"Bearer {tokens[next(s for s in tokens if s != seat)]}"}
        resp = client.post(f"/v1/games/{created['id']}/actions", headers=other,
                           json={"expected_version": legal["version"], "command": legal["commands"][0]})
        if resp.status_code == 422 and resp.json.get("rule"):
            return resp.json
    raise AssertionError(f"no refusal of {game_id} cited a rule")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_refusal_links_its_rule_to_an_anchor_that_exists(client, game_id):
    problem = _refusal(client, game_id)
    assert problem["rule"] and problem["rule_url"] == rules.rule_url(problem["rule"]), problem
    path, _, anchor = problem["rule_url"].partition("#")
    assert path == f"/rules/{game_id}" and anchor == problem["rule"]
    assert anchor in anchors_on_page(client, path)


def test_a_rule_with_an_item_number_links_to_its_rule():
    assert rules.rule_url("MK-GAP-1.6") == "/rules/mountain-king#MK-GAP-1"
    assert rules.rule_url("SAB-PATH-3") == "/rules/saboteur#SAB-PATH-3"
    assert rules.rule_url("SAB-NOPE-99") is None and rules.rule_url(None) is None
