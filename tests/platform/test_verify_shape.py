"""What a hash chain and a replay alone let through and `verify` does not: bytes beside the fields
the hash covers, a key given twice, and re-sealed records no server writes (two ends, another
game's envelope). Each such problem names its seq (docs/disputes.md)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from application.replay import verify
from delve.verdicts import game_line
from tests.support.forge import rechain

RECORD = Path(__file__).resolve().parent.parent / "data" / "mountain-king-2-2-greedy.ndjson"
SEQ = 101  # an envelope with no command: its line holds "command":null


def edited(change) -> list[str]:
    """The stored export with the text of envelope ``SEQ``'s line changed by ``change``."""
    lines = RECORD.read_text().splitlines()
    assert '"command":null' in lines[SEQ - 1]
    lines[SEQ - 1] = change(lines[SEQ - 1])
    return lines


@pytest.mark.parametrize("change,words", [
    (lambda line: line[:-1] + ',"note":"the judge owes me"}', "holds 'note', which Delve never writes"),
    (lambda line: line.replace('"command":null', '"comma9d":null'),
     "holds 'comma9d', which Delve never writes and no hash covers, and lacks 'command'"),
    (lambda line: line.replace('"command":null,', ""), "lacks 'command', which every envelope holds"),
    (lambda line: '{"data":{"forged":true},' + line[1:], "gives the key 'data' twice in one object"),
    (lambda line: line.replace('"data":{', '"data":{"x":1,"x":2,'), "gives the key 'x' twice in one object"),
], ids=["extra key", "renamed key", "missing key", "key twice", "key twice inside data"])
def test_bytes_the_hash_does_not_cover_fail_and_name_their_seq(change, words):
    verdict = verify(edited(change))
    assert not verdict.ok and not verdict.chain_ok
    assert verdict.problems[0]["seq"] == SEQ and words in verdict.problems[0]["problem"], verdict.problems
    assert game_line(verdict).startswith("FAILED      g") and f" seq {SEQ}: " in game_line(verdict)


def test_spaces_and_the_order_of_keys_are_not_content():
    lines = [json.dumps(dict(reversed(json.loads(line).items()))) for line in RECORD.read_text().splitlines()]
    assert verify(lines).ok


def resealed(change) -> list[str]:
    """A forger's copy of the stored export: ``change``d, renumbered and every hash recomputed."""
    envs = [json.loads(line) for line in RECORD.read_text().splitlines()]
    change(envs)
    for seq, env in enumerate(envs, start=1):
        env["seq"] = seq
    return rechain(envs)


def second_seed(envs):
    revealed = dict(next(e for e in envs if e["type"] == "SeedRevealed"), data={"seed": "22" * 32})
    envs.append(revealed)


@pytest.mark.parametrize("change,seq,words", [
    (lambda envs: envs.append(dict(envs[-1])), 230,
     "GameFinished after the game's end (SeedRevealed, GameFinished from seq 228): a record ends once"),
    (second_seed, 230, "SeedRevealed after the game's end (SeedRevealed, GameFinished from seq 228)"),
    (lambda envs: envs.insert(100, dict(envs[-1])), 101, "GameFinished before the seed was revealed"),
    (lambda envs: envs[SEQ - 1].update(game_id="gdeadbeefdeadbeef"), SEQ,
     "the envelope is of game 'gdeadbeefdeadbeef', the record of 'gd9668dd9f2483eb1': a record holds one game's"),
], ids=["GameFinished twice", "a second seed", "GameFinished in the middle", "another game's envelope"])
def test_a_record_no_server_writes_fails_though_its_chain_and_moves_hold(change, seq, words):
    verdict = verify(resealed(change))
    assert verdict.chain_ok and not verdict.ok
    assert verdict.problems[0]["seq"] == seq and words in verdict.problems[0]["problem"], verdict.problems


def test_an_integer_past_the_digits_python_reads_is_a_problem_of_its_line():
    lines = RECORD.read_text().splitlines()
    verdict = verify(lines[:5] + ['{"seq": ' + "9" * 5000 + "}"] + lines[5:])
    assert not verdict.ok
    assert verdict.problems == [{"seq": None, "problem": "line 6 holds an integer of more digits than the 4300 "
                                                         "Python reads"}]


def test_a_record_cut_between_its_seed_and_its_end_is_incomplete_not_ok():
    """The last envelope (GameFinished) and the signature lines dropped: every event left chains and
    replays, but the record stops inside its ending, before the final result (docs/disputes.md)."""
    lines = [line for line in RECORD.read_text().splitlines() if not line.startswith('{"signature"')]
    assert json.loads(lines[-1])["type"] == "GameFinished"
    verdict = verify(lines[:-1])
    assert verdict.chain_ok and verdict.replay_ok and not verdict.problems
    assert not verdict.ok and verdict.status == "incomplete"
    assert verdict.incomplete.startswith("the record ends before its game did: SeedRevealed at seq 228 is not "
                                         "followed by GameFinished")
    assert game_line(verdict).startswith("INCOMPLETE  g")
