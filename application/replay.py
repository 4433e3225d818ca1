"""Verify an exported game: the hash chain, then a full replay from the revealed seed.

A verifier needs nothing but the export and the rules: ``GameCreated`` names
the game, its rules version (replayed by that version's frozen rules,
``domain.registry``), options, seats and the seed commitment; ``SeedRevealed`` gives the
seed; every batch carries what caused it. Re-running ``start`` and, per batch,
``decide`` (a seat's command), ``decide_actor`` (``{"type": "actor_step"}``,
no seat) or ``decide_platform`` (``resign``/``timeout``/``forfeit``/``abort``)
with the same DRBG streams (``domain.kit.driver``) must reproduce every event.

The record must be shaped as a server writes one (``_check_one_game``, ``_check_ending``), which
no replay looks at. The recorded final scores must equal the replayed ones. Exports made before
the protocol step (issue 6) recorded scores without ``participants`` and
``outcome``; for those, and only those, the keys they recorded are compared.
"""
from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass, field
from typing import Any, Iterable

import orjson

from domain import registry
from domain.core import PLATFORM_COMMANDS, Drbg, Illegal, canonical_bytes, canonical_json, fold
from domain.kit import ACTOR_STEP, START_STREAM, command_stream
from errors import BadOpening
from application import attestation, seating
from application.attestation import Signed
from application.moves import batches
from application.status import VerdictStatus
from events.envelope import PLATFORM_EVENTS, domain_events, first_broken_link

LEGACY_SCORE_KEYS = frozenset({"final", "ranking", "winners", "seats"})
"""What ``GameFinished.scores`` held before participants and outcomes existed."""
ENDINGS = (("SeedRevealed", "GameFinished"), ("GameCancelled", "SeedRevealed"))
"""How a record ends, in one batch: ``finalize`` reveals the seed and finishes the game; a game
cancelled before its start reveals the seed after. Nothing follows."""
ENDING_KINDS = frozenset(kind for end in ENDINGS for kind in end)


@dataclass
class Verdict:
    """What a reader learns from a record: ``status`` is ``ok``, ``incomplete`` (sound so far, but it
    ends before its game did, or before what the server signed) or ``failed`` (``problems`` say why)."""

    ok: bool = False
    events: int = 0
    chain_head: str | None = None
    chain_ok: bool = False
    replay_ok: bool = False
    game: str | None = None
    game_id: str | None = None
    rules_version: str | None = None  # the rules version that replayed the record (the one it names)
    incomplete: str | None = None  # why the record is incomplete, if it is
    signatures: list[Signed] = field(default_factory=list)
    keys_checked: bool = False  # the signatures were checked against a server's public keys
    problems: list[dict] = field(default_factory=list)
    notes: list[dict] = field(default_factory=list)  # what a reader should know that does not fail the record

    def note(self, line: int | None, text: str) -> None:
        self.notes.append({"line": line, "note": text})

    def problem(self, seq: Any, text: str) -> None:
        """``seq`` is read from the record, which may hold anything there: a problem names an
        event's number only when it is one (a ``seq`` of ``"x"`` is the text's to quote)."""
        self.problems.append({"seq": _number(seq), "problem": text})

    @property
    def status(self) -> VerdictStatus:
        if self.ok:
            return VerdictStatus.OK
        return VerdictStatus.INCOMPLETE if self.incomplete and not self.problems else VerdictStatus.FAILED

    @property
    def signed_by(self) -> str | None:
        """``<key id> of <server>`` of the record's signature, once checked against keys."""
        record = next((s for s in self.signatures if s.kind == attestation.GAME_RECORD), None)
        return record.signed_by if record and not record.problem else None

    def to_dict(self) -> dict:
        return {"ok": self.ok, "status": self.status, "events": self.events, "chain_head": self.chain_head,
                "chain_ok": self.chain_ok, "replay_ok": self.replay_ok, "game": self.game, "game_id": self.game_id,
                "rules_version": self.rules_version, "incomplete": self.incomplete, "signed_by": self.signed_by,
                "keys_checked": self.keys_checked, "signatures": [s.to_dict() for s in self.signatures],
                "problems": self.problems, "notes": self.notes}


def parse_ndjson(lines: Iterable[str | bytes]) -> tuple[list[dict], list[dict]]:
    """Envelopes and parse problems (line numbers) of an NDJSON export (``read_ndjson``)."""
    numbered, problems = read_ndjson(lines)
    return [env for _n, env in numbered], problems


def read_ndjson(lines: Iterable[str | bytes]) -> tuple[list[tuple[int, dict]], list[dict]]:
    """Each object of an NDJSON export with its line number, and the parse problems (line numbers).
    A UTF-8 byte order mark may open the file (RFC 8259 lets a reader allow one).

    A line that gives a key twice in one object is a problem (its envelope is kept as the
    standard library reads it, the last one counting): readers differ on which one counts,
    and a hash covers only one of them."""
    envs: list[tuple[int, dict]] = []
    problems: list[dict] = []
    for n, line in enumerate(lines, start=1):
        if isinstance(line, bytes):
            line = line.decode("utf-8", errors="replace")
        if n == 1:
            line = line.removeprefix("\ufeff")
        if not line.strip():
            continue
        try:
            env, twice = _parse(line)
        except json.JSONDecodeError as exc:
            problems.append({"seq": None, "problem": f"line {n} is not JSON: {exc.msg}"})
            continue
        except RecursionError:  # Python's parser recurses: '[' * 100000 would otherwise be a crash
            problems.append({"seq": None, "problem": f"line {n} nests arrays or objects too deeply to be an envelope"})
            continue
        except ValueError:  # the standard library's only other refusal
            problems.append({"seq": None, "problem": f"line {n} holds an integer of more digits than the "
                                                     f"{sys.get_int_max_str_digits()} Python reads"})
            continue
        if not isinstance(env, dict):
            problems.append({"seq": None, "problem": f"line {n} is not a JSON object"})
            continue
        if twice is not None:
            problems.append({"seq": _number(env.get("seq")),
                             "problem": f"line {n} gives the key {twice!r} twice in one object: readers differ on "
                                        "which one counts, and the hash covers only one"})
        envs.append((n, env))
    return envs, problems


def _parse(line: str) -> tuple[Any, str | None]:
    """A line's value, and a key one of its objects gives twice (None if no object does).

    A line spelled as orjson writes the value it reads gives no key twice, and orjson and the
    standard library read it alike: so are the lines Delve writes, bar a few floats, and that
    path costs a fifth of the standard library's with a hook. Any other line is read by the
    standard library, whose hook sees every key."""
    raw = line.encode("utf-8", "surrogatepass")
    try:
        value = orjson.loads(raw)
        if orjson.dumps(value, option=orjson.OPT_SORT_KEYS) == raw:
            return value, None
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):
        pass
    twice: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict:
        obj = dict(items)
        if len(obj) < len(items):
            seen: set[str] = set()
            twice.append(next(k for k, _ in items if k in seen or seen.add(k)))
        return obj

    return json.loads(line, object_pairs_hook=pairs), (twice[0] if twice else None)


def _number(seq: Any) -> int | None:
    """``seq`` if it is an event's number: a record may hold anything there."""
    return seq if isinstance(seq, int) and not isinstance(seq, bool) else None


def verify(lines: Iterable[str | bytes], keys: attestation.Keys | None = None,
           expect_head: str | None = None) -> Verdict:
    """Check an export: chain, replay under its rules version, and its signatures.

    With ``keys`` (a server's public keys) the signatures must be that server's and
    match the record, else the verdict fails ("not signed by this server"); without,
    they are reported but prove nothing. ``expect_head``: a chain head a player saved
    during the game, which must be the hash of one of the record's events.
    """
    numbered, parse_problems = read_ndjson(lines)
    envs, signed, malformed = attestation.split_numbered(numbered)
    v = verify_envelopes(envs, signed, parse_problems, keys, expect_head)
    malformed_signature_lines(v, malformed)
    return v


def malformed_signature_lines(v: Verdict, malformed: list[tuple[int, str]], place: str | None = None) -> None:
    """Each signature line not shaped as a server writes one (``attestation.malformed``), said once:
    a problem when the signatures are checked against keys (the server writes no such line), else a
    note, which does not fail the record (unchecked signatures prove nothing either way)."""
    for n, why in malformed:
        text = f"line {n} is not a valid signature line: {why}"
        if v.keys_checked:
            v.problems.append({"seq": None, **({"place": place} if place else {}), "problem": text})
        else:
            v.note(n, text)
    v.ok = v.ok and not (malformed and v.keys_checked)


def verify_envelopes(envs: list[dict], signed: list[dict], parse_problems: list[dict] | None = None,
                     keys: attestation.Keys | None = None, expect_head: str | None = None) -> Verdict:
    v = Verdict(events=len(envs), keys_checked=keys is not None)
    v.problems.extend(parse_problems or [])
    if not envs:
        v.problem(None, "the export holds no events")
        return v
    if not parse_problems and not {"seq", "type", "hash"} & set(envs[0]):
        # not an envelope at all (a keys file, a game's summary): said as what it is, not as a broken chain
        held = f"its keys: {', '.join(sorted(map(str, envs[0])))[:80]}" if envs[0] else "an empty object"
        v.problem(None, f"line 1 is not an event of a game export nor a tournament bundle's header ({held}): give "
                        "an export (GET /v1/games/<id>/export) or a bundle (GET /v1/tournaments/<id>/bundle)")
        return v
    v.chain_head = _text(envs[-1].get("hash"))
    v.game_id = _text(envs[0].get("game_id"))
    if not parse_problems:  # a line no envelope could be read from is said once, as what it is, not again as the
        # chain and the replay breaking where it stands
        bad_seq, why = first_broken_link(envs)
        v.chain_ok = bad_seq is None
        if bad_seq is not None:
            v.problem(bad_seq, f"chain broken at seq {bad_seq}: {why}")
        misshapen = _misshapen(envs)
        if misshapen is not None:
            v.problem(*misshapen)  # no check below reads such an envelope: it is said, once, as what it is
        else:
            _check_one_game(envs, v)
            _check_ending(envs, v)
            v.replay_ok = _replay(envs, v)
    _check_signatures(v, envs, signed, keys, whole=not parse_problems)
    if expect_head is not None:
        at = next((e.get("seq") for e in envs if e.get("hash") == expect_head.lower()), None)
        if at is None:
            v.problem(None, f"the head {expect_head} is not the hash of any event of this record: "
                            "this record is not the one the server showed when that head was saved")
    v.ok = v.chain_ok and v.replay_ok and v.incomplete is None and not v.problems
    return v


def _text(value: Any) -> str | None:
    """A hash or an id read from the record, which may hold anything there: the verdict names it
    only when it is a string (the chain check says what is wrong with it otherwise)."""
    return value if isinstance(value, str) else None


def _misshapen(envs: list[dict]) -> tuple[Any, str] | None:
    """The first envelope no check can read, and why: every envelope Delve writes names its event
    ``type`` (a string) and carries its ``data`` (an object). An upload may hold anything there
    (a list as a type crashed the verifier: a 500)."""
    for env in envs:
        kind, data = env.get("type"), env.get("data")
        if not isinstance(kind, str):
            return env.get("seq"), f"the envelope's type is {canonical_json(kind)[:60]}, not an event type's name"
        if not isinstance(data, dict):
            return env.get("seq"), f"the {kind[:60]} envelope's data is {canonical_json(data)[:60]}, not an object"
    return None


def _check_one_game(envs: list[dict], v: Verdict) -> None:
    """Every envelope is of the game GameCreated creates (a replay never reads ``game_id``)."""
    game_id = envs[0].get("game_id")
    other = next((e for e in envs if e.get("game_id") != game_id), None)
    if other is not None:
        v.problem(other.get("seq"), f"the envelope is of game {other.get('game_id')!r}, the record of {game_id!r}: "
                                    "a record holds one game's events")


def _check_ending(envs: list[dict], v: Verdict) -> None:
    """The record ends once, as ``ENDINGS`` say: the replay reads the first SeedRevealed and checks
    each GameFinished's scores, so a second of either, or events after the end, would pass it."""
    first = next((i for i, e in enumerate(envs) if e.get("type") in ENDING_KINDS), None)
    if first is None:
        return
    tail = envs[first:]
    kinds = tuple(e.get("type") for e in tail)
    n = next((n for n in range(1, len(kinds) + 1) if all(kinds[:n] != end[:n] for end in ENDINGS)), None)
    if n is None:
        if kinds not in ENDINGS:  # the ending begun and cut: SeedRevealed without the GameFinished after it
            end = next(end for end in ENDINGS if end[:len(kinds)] == kinds)
            v.incomplete = (f"the record ends before its game did: {', '.join(kinds)} at seq {tail[0].get('seq')} "
                            f"is not followed by {', '.join(end[len(kinds):])}, so its final result is not in it: "
                            "ask the server for the record again")
        return
    where = (f"after the game's end ({', '.join(kinds[:n - 1])} from seq {tail[0].get('seq')})" if n > 1
             else "before the seed was revealed")
    v.problem(tail[n - 1].get("seq"), f"{kinds[n - 1]} {where}: a record ends once, with SeedRevealed and "
                                      "GameFinished (a game cancelled before its start: GameCancelled and SeedRevealed)")


def _check_signatures(v: Verdict, envs: list[dict], signed: list[dict], keys: attestation.Keys | None,
                      whole: bool) -> None:
    """Signatures count against the verdict when checked against a server's keys; a signed statement
    that disagrees with the record counts without them too (one of the two was changed), unless the
    envelopes are not ``whole`` (a line was lost: that is the problem)."""
    v.signatures = attestation.check_game(v.game_id, envs, signed, keys)
    record = next(s for s in v.signatures if s.kind == attestation.GAME_RECORD)
    if record.incomplete:
        v.incomplete = record.incomplete
    for s in v.signatures:
        counts = whole if s.disagrees else keys is not None
        if s.problem and counts and not (s.kind == attestation.GAME_RECORD and v.incomplete and not record.statement):
            v.problem(None, s.problem)


def _plain(envs: Iterable[dict]) -> list[str]:
    return [canonical_json({"type": e.get("type"), "data": e.get("data")}) for e in envs]


def _same(recorded: list[dict], expected: list[dict]) -> bool:
    """``_plain(recorded) == _plain(expected)``, spelled as one list each: the canonical JSON of a
    list is its items' joined by commas, which splits back into the same items only."""
    return (canonical_bytes([{"type": e.get("type"), "data": e.get("data")} for e in recorded])
            == canonical_bytes([{"type": e.get("type"), "data": e.get("data")} for e in expected]))


def _replay(envs: list[dict], v: Verdict) -> bool:
    created = envs[0]
    if created.get("type") != "GameCreated":
        v.problem(created.get("seq"), "the first event is not GameCreated")
        return False
    info = created["data"]  # an object (_misshapen)
    if not isinstance(info.get("game"), str) or not isinstance(info.get("rules_version"), (str, type(None))):
        v.problem(created.get("seq"), "GameCreated does not name its game and rules version (strings)")
        return False
    try:
        game = registry.get(info.get("game"), info.get("rules_version"))
    except Illegal as exc:
        v.problem(1, exc.message)
        return False
    v.game, v.rules_version = game.id, game.rules_version
    revealed = [e for e in envs if e.get("type") == "SeedRevealed"]
    if not revealed:
        v.incomplete = "the record ends before its game did (no SeedRevealed, no GameFinished): only the chain " \
                       "can be checked"
        return False
    try:
        seed = bytes.fromhex(revealed[0]["data"]["seed"])
    except (KeyError, TypeError, ValueError):
        v.problem(revealed[0].get("seq"), "SeedRevealed does not carry a hex seed")
        return False
    if hashlib.sha256(seed).hexdigest() != info.get("seed_commitment"):
        v.problem(revealed[0].get("seq"), "the revealed seed does not match the commitment in GameCreated")
        return False
    try:
        opening = seating.opening(info, batches(envs), seed, revealed[0]["data"])
        if not opening.dealt:
            return True  # cancelled while it waited for players: nothing was dealt, nothing to re-run
        return _replay_batches(game, info, opening, v)
    except BadOpening as exc:
        v.problem(exc.seq, exc.text)
        return False
    except (Illegal, KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        v.problem(None, f"replay failed: an event or command is not shaped as rules {game.rules_version} reads it "
                        f"({type(exc).__name__}: {exc})")
        return False


def _replay_batches(game, info: dict, opening: seating.Opening, v: Verdict) -> bool:
    """Re-run ``start`` where the opening says the game was dealt, then every batch after it."""
    seed, first = opening.seed, opening.start
    expected = game.start(info["options"], opening.seats, Drbg(seed, START_STREAM))
    if not _same(first, expected):
        v.problem(_first_diff(first, expected), "start events differ from a re-run of start() with the seed")
        return False
    state = fold(game, domain_events(first))
    version = opening.version
    for batch in opening.rest:
        head = batch[0]
        if head.get("command") is not None:
            try:
                expected = _rerun(game, state, head, Drbg(seed, command_stream(version)))
            except Illegal as exc:
                v.problem(head["seq"], f"the recorded command is illegal on replay: {exc.code} ({exc.rule})")
                return False
            played = _played(batch)
            if not _same(played, expected):
                v.problem(_first_diff(played, expected), "events differ from a re-run of the recorded command")
                return False
        elif not _check_platform_batch(game, state, batch, v):
            return False
        state = fold(game, domain_events(batch), state)
        version = batch[-1]["seq"]
    return True


def _rerun(game, state, head: dict, rng: Drbg) -> list[dict]:
    """The events the recorded cause of a batch produces now."""
    command, seat = head["command"], head["seat"]
    kind = command.get("type") if isinstance(command, dict) else None
    if seat is None and kind == ACTOR_STEP:
        return game.decide_actor(state, command["actor"], rng)
    if kind in PLATFORM_COMMANDS:
        return game.decide_platform(state, seat, command, rng)
    return game.decide(state, seat, command, rng)


def _played(batch: list[dict]) -> list[dict]:
    """The events a batch's command decided: a clock's batch opens with ``TimeExpired {seat, policy}``
    (``application.clocks``), then the timeout or the autoplayed move of that seat."""
    head = batch[0]
    if head.get("type") == "TimeExpired" and (head.get("data") or {}).get("seat") == head.get("seat"):
        return batch[1:]
    return batch


def _same_scores(recorded, replayed: dict) -> bool:
    if isinstance(recorded, dict) and set(recorded) == LEGACY_SCORE_KEYS:
        replayed = {k: replayed[k] for k in LEGACY_SCORE_KEYS}
    return canonical_json(recorded) == canonical_json(replayed)


def _check_platform_batch(game, state, batch: list[dict], v: Verdict) -> bool:
    for env in batch:
        if env.get("type") not in PLATFORM_EVENTS - {"GameCreated"} - seating.LOBBY_EVENTS:
            v.problem(env.get("seq"), f"event {env.get('type')!r} has no command that caused it")
            return False
        if env["type"] == "GameFinished":
            if not game.is_terminal(state):
                v.problem(env["seq"], "GameFinished recorded before the game reached its end")
                return False
            if not _same_scores(env["data"].get("scores"), game.scores(state).to_dict()):
                v.problem(env["seq"], "the recorded final scores differ from the replayed ones")
                return False
    return True


def _first_diff(recorded: list[dict], expected: list[dict]) -> int | None:
    rec, exp = _plain(recorded), _plain(expected)
    for i, line in enumerate(rec):
        if i >= len(exp) or line != exp[i]:
            return recorded[i].get("seq")
    return recorded[-1].get("seq") if recorded else None
