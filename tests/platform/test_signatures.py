"""Signed records: a judge holding only an export and the server's public keys can tell the
server's record from a well-made forgery, a truncated record from a whole one, and a record
signed before a key rotation from one no key of the server signed (application/attestation.py)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from application import signing
from application.attestation import Keys
from application.replay import verify
from application.service import GameService
from delve.cli import cli
from tests.support.forge import envelopes, rechain

BOTS = [{"name": "ann", "bot": "random"}, {"name": "bob", "bot": "random"}]


def finished(service, turns: int = 6) -> list[str]:
    gid = service.create("tiny", BOTS, {"turns": turns})["id"]
    for _ in range(100):
        g = service.load(gid)
        if g.game.is_terminal(g.state):
            break
        service.bot_turn(gid, g.version)
    assert service.finalize(gid)
    return list(service.export(gid, admin=False))


def resealed(lines: list[str], change) -> list[str]:
    """A forger's copy: envelopes changed by ``change``, every hash recomputed, signatures kept."""
    envs = envelopes(lines)
    change(envs)
    tail = [line for line in lines if "signature" in json.loads(line)]
    return rechain(envs) + tail


@pytest.fixture
def keys_file(signer, tmp_path):
    path = tmp_path / "keys.json"
    path.write_text(json.dumps(signer.keys()))
    return path


def cli_verify(path, *args):
    return CliRunner().invoke(cli, ["verify", str(path), *args])


def test_a_real_record_is_signed_by_this_server(service, signer, keys_file, tmp_path):
    lines = finished(service)
    verdict = verify(lines, Keys.parse(signer.keys()))
    assert verdict.ok and verdict.signed_by == f"{signer.key_id} of test-server"
    path = tmp_path / "game.ndjson"
    path.write_text("".join(lines))
    result = cli_verify(path, "--keys", str(keys_file))
    assert result.exit_code == 0, result.output
    assert f"signed by {signer.key_id} of test-server" in result.output


@pytest.mark.parametrize("forgery", ["swap the players", "rename a player", "move a time", "change a command id"])
def test_a_forged_export_with_a_valid_chain_and_legal_moves_is_not_signed_by_this_server(
        service, signer, keys_file, tmp_path, forgery):
    def change(envs):
        created = envs[0]["data"]["seats"]
        if forgery == "swap the players":
            created[0]["name"], created[1]["name"] = created[1]["name"], created[0]["name"]
        elif forgery == "rename a player":
            created[0]["name"] = "mallory"
        elif forgery == "move a time":
            envs[5]["at"] = "2020-01-01T00:00:00.000Z"
        else:
            envs[5]["command_id"] = "mine"

    forged = resealed(finished(service), change)
    assert verify(forged).chain_ok and verify(forged).replay_ok  # the old holes: chain and replay both hold
    path = tmp_path / "forged.ndjson"
    path.write_text("".join(forged))
    result = cli_verify(path, "--keys", str(keys_file))
    assert result.exit_code == 1 and "not signed by this server" in result.output, result.output


def test_a_record_signed_by_another_key_or_unsigned_is_not_this_servers(service, keys_file, tmp_path):
    other = signing.ensure(tmp_path / "other.pem", "test-server")[0]
    lines = finished(GameService(service.store, admin_token="x", signer=other))
    path = tmp_path / "other.ndjson"
    path.write_text("".join(lines))
    result = cli_verify(path, "--keys", str(keys_file))
    assert result.exit_code == 1 and f"key '{other.key_id}' is not one of the keys of 'test-server'" in result.output
    unsigned = tmp_path / "unsigned.ndjson"
    unsigned.write_text("".join(line for line in lines if "signature" not in json.loads(line)))
    result = cli_verify(unsigned, "--keys", str(keys_file))
    assert result.exit_code == 1 and "not signed by this server: the record carries no game_record" in result.output


def test_a_truncated_record_is_incomplete_never_ok(service, signer, keys_file, tmp_path):
    lines = finished(service)
    kept = [line for line in lines if "signature" in json.loads(line)]
    body = [line for line in lines if "signature" not in json.loads(line)]
    path = tmp_path / "cut.ndjson"
    path.write_text("".join(body[:-1] + kept))  # the last GameFinished removed
    for args in ((), ("--keys", str(keys_file))):
        result = cli_verify(path, *args)
        assert result.exit_code == 1 and result.output.startswith("INCOMPLETE"), result.output
        assert "incomplete" in result.output.splitlines()[-2]  # the summary, then what to do next
        assert result.output.splitlines()[-1].startswith("next: the record stops before its end")
    verdict = verify(body[:-1] + kept, Keys.parse(signer.keys()))
    assert verdict.status == "incomplete" and not verdict.ok
    assert f"the server signed {len(body)} events" in verdict.incomplete


def test_expect_head_compares_a_head_saved_during_the_game(service, tmp_path):
    lines = finished(service)
    envs = envelopes(lines)
    path = tmp_path / "game.ndjson"
    path.write_text("".join(lines))
    assert cli_verify(path, "--expect-head", envs[7]["hash"]).exit_code == 0
    result = cli_verify(path, "--expect-head", "ab" * 32)
    assert result.exit_code == 1 and "is not the hash of any event of this record" in result.output


def restated(lines: list[str], kind: str, change) -> list[str]:
    """The export with its ``kind`` statement changed by ``change``, the signature bytes left as they were."""
    out = []
    for line in lines:
        parsed = json.loads(line)
        if parsed.get("signature", {}).get("statement", {}).get("kind") == kind:
            change(parsed["signature"]["statement"])
            line = json.dumps(parsed) + "\n"
        out.append(line)
    return out


@pytest.mark.parametrize("kind,change,words", [
    ("game_record", lambda st: st.update(events=st["events"] - 1), "the signed record has 11 events"),
    ("game_record", lambda st: st.update(head="ab" * 32), "the signed record has 12 events and head abab"),
    ("game_record", lambda st: st.update(outcome={"kind": "win", "winners": ["seat:9"]}),
     'the signed outcome is {"kind":"win","winners":["seat:9"]}; the record\'s is {"kind":'),
    ("game_record", lambda st: st.update(status="aborted"),
     "the signed status is 'aborted'; the record's end makes it 'finished'"),
    ("game_record", lambda st: st.update(rules_version="tiny-9"), "the signed game is 'tiny' under rules 'tiny-9'"),
    ("seed_commitment", lambda st: st["seats"][0].update(name="mallory"), "the signed game, rules version, options, seats"),
], ids=["events", "head", "outcome", "status", "rules version", "commitment's seats"])
def test_without_keys_a_signed_statement_that_disagrees_with_its_record_fails(service, kind, change, words):
    """The signature proves nothing without the keys, but the record or its statement was changed."""
    verdict = verify(restated(finished(service), kind, change))
    assert not verdict.ok and verdict.chain_ok and verdict.replay_ok
    assert verdict.problems[0]["problem"].startswith(f"the record and the {kind} statement it carries disagree: {words}")


def test_a_second_differing_statement_fails_with_or_without_keys(service, signer):
    """A forged statement beside the real one, which a reader may take for it; the same line twice says nothing new."""
    lines = finished(service)
    # Not any real game's outcome: a forged "seat:1 won" was the real statement whenever seat 1 did win.
    forged = restated(lines, "game_record", lambda st: st.update(outcome={"kind": "win", "winners": ["seat:7"]}))
    two = lines[:-1] + forged[-1:] + lines[-1:]
    for keys in (None, Keys.parse(signer.keys())):
        verdict = verify(two, keys)
        assert not verdict.ok
        assert verdict.problems[0]["problem"] == "the record carries 2 different game_record signatures; a server signs one"
        assert verify(lines + lines[-1:], keys).ok


def test_a_changed_label_is_caught_by_the_keys_only(service, signer):
    """Labels are the game's words of the day it was signed, since reworded without a new rules version
    (README: what one changed byte fails)."""
    forged = restated(finished(service), "game_record", lambda st: st["labels"].__setitem__(0, "Resign"))
    assert verify(forged).ok
    verdict = verify(forged, Keys.parse(signer.keys()))
    assert not verdict.ok and "the signature does not match key" in verdict.problems[0]["problem"]


def test_after_a_key_rotation_old_and_new_records_verify(service, tmp_path, store):
    key = tmp_path / "signing" / "current.pem"
    first = signing.ensure(key, "rotating")[0]
    old = finished(GameService(store, admin_token="x", signer=first))
    retired, new_id = signing.rotate(key, "rotating")
    second = signing.load(key, "rotating")
    new = finished(GameService(store, admin_token="x", signer=second))
    keys = Keys.parse(second.keys())
    assert retired == first.key_id and new_id == second.key_id != first.key_id
    assert [k["status"] for k in second.keys()["keys"]] == ["current", "retired"]
    assert verify(old, keys).signed_by == f"{first.key_id} of rotating"
    assert verify(new, keys).signed_by == f"{second.key_id} of rotating"


def test_the_seed_commitment_is_signed_before_anything_is_dealt(client, signer):
    created = client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "a"}, {"open": True}]}).json
    audit = client.get(f"/v1/games/{created['id']}/audit").json
    [signed] = audit["signatures"]
    statement = signed["statement"]
    assert statement["kind"] == "seed_commitment" and statement["seed_commitment"] == audit["seed_commitment"]
    assert signing.check(signer.private.public_key(), statement, signed["signature"])
    assert client.get("/v1/audit/keys").json == signer.keys()


def test_the_signed_record_carries_each_moves_label(service, client):
    lines = finished(service)
    record = next(json.loads(line)["signature"]["statement"] for line in lines
                  if '"game_record"' in line)
    gid = record["game_id"]
    assert record["labels"] == [m["label"] for m in client.get(f"/v1/games/{gid}/moves").json["moves"]]


def test_the_api_vouches_for_its_own_record_exported_before_it_was_signed(client, service):
    lines = finished(service)
    unsigned = "".join(line for line in lines if "signature" not in json.loads(line))
    verdict = client.post("/v1/audit/verify", data=unsigned, content_type="application/x-ndjson").json
    assert verdict["ok"] and verdict["signed_by"].endswith("of test-server"), verdict
    envs = envelopes(lines)
    envs[0]["data"]["seats"][0]["name"] = "mallory"
    forged = "".join(rechain(envs))  # not what the server holds: no vouching
    verdict = client.post("/v1/audit/verify", data=forged, content_type="application/x-ndjson").json
    assert not verdict["ok"] and "not signed by this server" in verdict["problems"][0]["problem"]


def test_delve_keys_init_show_and_rotate(tmp_path, monkeypatch):
    monkeypatch.setenv("DELVE_SERVER_NAME", "cli-keys")
    key = tmp_path / "k" / "current.pem"
    made = CliRunner().invoke(cli, ["keys", "init", "--key", str(key)])
    assert made.exit_code == 0 and made.output.startswith("made ed25519:")
    kept = CliRunner().invoke(cli, ["keys", "init", "--key", str(key)])
    assert kept.output.startswith("kept ") and kept.output.split()[1] == made.output.split()[1]
    rotated = CliRunner().invoke(cli, ["keys", "rotate", "--key", str(key)])
    assert rotated.exit_code == 0 and f"retired {made.output.split()[1]}" in rotated.output
    doc = json.loads(CliRunner().invoke(cli, ["keys", "show", "--key", str(key)]).output)
    assert doc["server"] == "cli-keys" and [k["status"] for k in doc["keys"]] == ["current", "retired"]
    assert (key.stat().st_mode & 0o777) == 0o600


def test_a_signature_line_naming_another_alg_is_not_this_servers(service, signer):
    """The server signs with Ed25519 alone; ``alg`` is not under the signature, so a line naming another
    is not the server's line, whatever its signature bytes."""
    lines = finished(service)
    last = json.loads(lines[-1])
    last["signature"]["alg"] = "RSA-nope"
    verdict = verify(lines[:-1] + [json.dumps(last) + "\n"], Keys.parse(signer.keys()))
    assert not verdict.ok
    assert "alg is \"RSA-nope\"; the server signs with Ed25519" in verdict.problems[0]["problem"]
    assert verify(lines, Keys.parse(signer.keys())).ok
