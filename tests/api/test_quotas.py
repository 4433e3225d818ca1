"""Limits per identity: who the client is (a valid token's owner, else its address, seen
through trusted proxies only) and what one identity may hold or do."""
from __future__ import annotations

from server.app import create_app


def _players_from(client, addresses: list[str], forwarded: list[str]) -> list[int]:
    return [client.post("/v1/players", json={"name": "x"}, environ_base={"REMOTE_ADDR": addr},
                        headers={"X-Forwarded-For": fwd}).status_code for addr, fwd in zip(addresses, forwarded)]


def test_without_trusted_proxies_x_forwarded_for_is_ignored(service):
    client = create_app(service, RATE_LIMIT=1, TRUSTED_PROXIES=0).test_client()
    # One peer, a new made-up X-Forwarded-For each time: still one client.
    assert _players_from(client, ["10.0.0.9"] * 2, ["1.1.1.1", "2.2.2.2"]) == [201, 429]


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit(service):
    client = create_app(service, RATE_LIMIT=1, TRUSTED_PROXIES=1).test_client()
    # The proxy (10.0.0.9) speaks for two clients: each gets its own budget.
    assert _players_from(client, ["10.0.0.9"] * 2, ["1.1.1.1", "2.2.2.2"]) == [201, 201]
    # Only the hop the trusted proxy added counts: a client prepending a fake address gains nothing.
    assert _players_from(client, ["10.0.0.9"], ["9.9.9.9, 1.1.1.1"]) == [429]
