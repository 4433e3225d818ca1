"""A malformed signature line (a line with a ``signature`` and no ``seq`` that is not shaped as a
server writes one) is never dropped without a word (an outside audit found it was): verify names
its line and why. Unchecked (``delve verify`` without ``--keys``) it is a note and an otherwise
sound record stays OK; checked against keys (``--keys``, and ``POST /v1/audit/verify`` always)
it is a problem and the verdict fails."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from application.attestation import Keys
from application.replay import verify
from delve.cli import cli
from tests.api.helpers import auth, tiny_game

BAD = [
    ({"signature": "c2lnbmVk"}, "its signature is \"c2lnbmVk\", not an object"),
    ({"signature": {"statement": "x", "alg": "Ed25519", "signature": "AA=="}}, "its statement is \"x\", not an object"),
    ({"signature": {"statement": {"kind": "nonsense"}, "alg": "Ed25519", "signature": "AA=="}},
     "its statement's kind is \"nonsense\""),
    ({"signature": {"statement": {"kind": "game_record"}}}, "its signature lacks alg, signature"),
    ({"signature": {"statement": {"kind": "game_record"}, "alg": "Ed25519", "signature": 5}},
     "its signature bytes are 5, not base64 text"),
]


@pytest.fixture
def record(client) -> list[str]:
    """A finished tiny game's export, as the server wrote it (envelopes, then signature lines)."""
    created = tiny_game(client)
    assert client.post(f"/v1/games/{created['id']}/resign",
                       headers=auth(created["seats"][0]["token"])).status_code == 201
    return client.get(f"/v1/games/{created['id']}/export").data.decode().splitlines()


def with_line(record: list[str], bad: dict) -> tuple[list[str], int]:
    lines = [*record, json.dumps(bad)]
    return lines, len(lines)


@pytest.mark.parametrize("bad,why", BAD)
def test_unchecked_a_malformed_signature_line_is_a_note_and_the_record_stays_ok(record, bad, why):
    lines, n = with_line(record, bad)
    verdict = verify(lines).to_dict()
    assert verdict["ok"] is True and verdict["problems"] == []
    assert [x["line"] for x in verdict["notes"]] == [n]
    assert verdict["notes"][0]["note"].startswith(f"line {n} is not a valid signature line: {why}")


def test_a_record_as_exported_has_no_note(record, signer):
    assert verify(record).notes == [] and verify(record, Keys.parse(signer.keys())).notes == []


@pytest.mark.parametrize("bad,why", BAD)
def test_checked_against_keys_a_malformed_signature_line_fails_the_record(record, signer, bad, why):
    lines, n = with_line(record, bad)
    verdict = verify(lines, Keys.parse(signer.keys()))
    assert verdict.ok is False and verdict.notes == []
    assert any(p["problem"].startswith(f"line {n} is not a valid signature line: {why}") for p in verdict.problems)


def test_the_verify_endpoint_checks_signatures_so_it_names_the_line_as_a_problem(client, record):
    lines, n = with_line(record, BAD[0][0])
    resp = client.post("/v1/audit/verify", data="\n".join(lines) + "\n", content_type="application/x-ndjson")
    assert resp.status_code == 200 and resp.json["ok"] is False and resp.json["notes"] == []
    assert [p["problem"] for p in resp.json["problems"]] == [
        f"line {n} is not a valid signature line: {BAD[0][1]} of statement, alg and signature"]
    plain = client.post("/v1/audit/verify", data="\n".join(record) + "\n", content_type="application/x-ndjson")
    assert plain.json["ok"] is True and plain.json["notes"] == []


def test_delve_verify_prints_the_note_and_exits_0_and_fails_with_keys(record, signer, tmp_path):
    lines, n = with_line(record, BAD[1][0])
    path = tmp_path / "game.ndjson"
    path.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert f"  note: line {n} is not a valid signature line: {BAD[1][1]}" in result.output
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps(signer.keys()))
    checked = CliRunner().invoke(cli, ["verify", str(path), "--keys", str(keys)])
    assert checked.exit_code == 1 and f"line {n} is not a valid signature line" in checked.output
