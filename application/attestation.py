"""What the server signs, and how a reader checks it against the server's public keys.

Three statements, each signed by ``application.signing.Signer`` and carried by
the export or bundle as a trailing line ``{"signature": {"statement", "alg", "signature"}}``:

- ``seed_commitment``, signed when the game is created, before anything is dealt:
  game id, game, rules version, options, seats (names and player ids) and the
  seed commitment. A player who saved it can prove what was committed.
- ``game_record``, signed when the game ends: game id, game, rules version, the
  number of events, the final chain head, the status, the outcome and each
  move's label (``application.moves``). The head
  is a hash over every field of every envelope (players, names, times, command
  ids, commands, events, result), and a verifier refuses any other key in an
  envelope (``events.envelope.first_broken_link``) or a key given twice, so the
  signature covers all of them, not only what a replay re-derives.
- ``tournament_standings``, signed when a tournament finishes: the tournament's
  own events and head, each game's head, and the final standings.

A record that holds fewer events than the server signed is *incomplete*, never OK.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from application import signing
from domain.core import canonical_json

SEED_COMMITMENT, GAME_RECORD, STANDINGS = "seed_commitment", "game_record", "tournament_standings"


def commitment_statement(game_id: str, created: dict) -> dict:
    """The statement of a game's ``GameCreated`` data that players can hold before the deal."""
    return {"kind": SEED_COMMITMENT, "game_id": game_id, "game": created["game"],
            "rules_version": created["rules_version"], "options": created["options"], "seats": created["seats"],
            "seed_commitment": created["seed_commitment"]}


def record_statement(game_id: str, game: str, rules_version: str, events: int, head: str, status: str,
                     outcome: dict | None, labels: list[str]) -> dict:
    """``labels[n - 1]`` is the game's label of move n: signed, so a reader without the rules (the
    viewer's offline replay) shows the server's words for each move, and knows them for its."""
    return {"kind": GAME_RECORD, "game_id": game_id, "game": game, "rules_version": rules_version,
            "events": events, "head": head, "status": status, "outcome": outcome, "labels": labels}


def standings_statement(tournament: str, game: str, events: int, head: str, games: dict[str, str | None],
                        standings: list) -> dict:
    return {"kind": STANDINGS, "tournament": tournament, "game": game, "events": events, "head": head,
            "games": games, "standings": standings}


def signature_line(signed: dict) -> dict:
    return {"signature": signed}


KINDS = (SEED_COMMITMENT, GAME_RECORD, STANDINGS)
SIGNED_FIELDS = ("alg", "signature", "statement")


def split(lines: Iterable[dict]) -> tuple[list[dict], list[dict]]:
    """Envelopes (and bundle headers) apart from the signature lines a record carries."""
    envs, signed, _malformed = split_numbered(enumerate(lines, start=1))
    return envs, signed


def split_numbered(lines: Iterable[tuple[int, dict]]) -> tuple[list[dict], list[dict], list[tuple[int, str]]]:
    """Envelopes (and bundle headers), the signed statements, and ``(line number, why)`` of each
    signature line that is not shaped as a server writes one (``malformed``).

    A signature line is a line with a ``signature`` and no ``seq`` (every envelope has one). One
    whose ``signature`` is an object is read as a signed statement even if malformed (its checks
    say what is wrong with it); one whose ``signature`` is anything else holds none, and is left
    out of both lists: a reader is told of it (``replay.malformed_signature_lines``), never left
    to find it silently dropped, nor read as an envelope that breaks the chain."""
    envs, signed, bad = [], [], []
    for n, line in lines:
        if "signature" in line and "seq" not in line:
            why = malformed(line)
            if why is not None:
                bad.append((n, why))
            if isinstance(line["signature"], dict):
                signed.append(line["signature"])
        else:
            envs.append(line)
    return envs, signed, bad


def malformed(line: dict) -> str | None:
    """Why a signature line is not ``{"signature": {"statement", "alg", "signature"}}`` with a
    statement of a kind the server signs, or None when it is (its signature is checked against
    keys, not here)."""
    extra = sorted(k for k in line if k != "signature")
    if extra:
        return f"it holds {', '.join(map(repr, extra))[:80]} beside its signature; a signature line holds only that"
    signed = line["signature"]
    if not isinstance(signed, dict):
        return f"its signature is {canonical_json(signed)[:60]}, not an object of statement, alg and signature"
    missing = [k for k in SIGNED_FIELDS if k not in signed]
    others = sorted(k for k in signed if k not in SIGNED_FIELDS)
    if missing or others:
        return (f"its signature {'lacks ' + ', '.join(missing) if missing else ''}"
                f"{' and ' if missing and others else ''}{'holds ' + ', '.join(map(repr, others))[:80] if others else ''}"
                "; a signature is an object of statement, alg and signature")
    statement = signed["statement"]
    if not isinstance(statement, dict):
        return f"its statement is {canonical_json(statement)[:60]}, not an object"
    if statement.get("kind") not in KINDS:
        return f"its statement's kind is {canonical_json(statement.get('kind'))[:60]}, not one of {', '.join(KINDS)}"
    if not isinstance(signed["alg"], str):
        return f"its alg is {canonical_json(signed['alg'])[:60]}, not a string"
    if not isinstance(signed["signature"], str):
        return f"its signature bytes are {canonical_json(signed['signature'])[:60]}, not base64 text"
    return None


@dataclass
class Keys:
    """A server's public keys document (``GET /v1/audit/keys``)."""

    server: str
    by_id: dict[str, dict] = field(default_factory=dict)

    @classmethod
    def parse(cls, doc: dict) -> "Keys":
        if not isinstance(doc, dict) or not isinstance(doc.get("keys"), list) or not isinstance(doc.get("server"), str):
            raise ValueError('a keys document is {"server": NAME, "keys": [{"key_id", "public_key", ...}]}')
        return cls(doc["server"], {k["key_id"]: k for k in doc["keys"] if isinstance(k, dict) and "key_id" in k})


@dataclass
class Signed:
    """The outcome of checking one kind of statement: who signed it, or what fails."""

    kind: str
    signed_by: str | None = None  # "<key id> of <server>"
    key_status: str | None = None  # current / retired
    problem: str | None = None
    disagrees: bool = False  # the statement says otherwise than the record: a problem, keys or not
    incomplete: str | None = None
    statement: dict | None = None

    def to_dict(self) -> dict:
        return {"kind": self.kind, "signed_by": self.signed_by, "key_status": self.key_status,
                "problem": self.problem, "incomplete": self.incomplete, "statement": self.statement}


def check_signature(signed: dict, keys: Keys) -> tuple[str | None, str | None, str | None]:
    """(signed_by, key status, problem) of one signature against ``keys``."""
    statement = signed.get("statement") if isinstance(signed, dict) else None
    if not isinstance(statement, dict) or not isinstance(signed.get("signature"), str):
        return None, None, "not signed by this server: the signature line is malformed"
    if signed.get("alg") != signing.ALG:  # the alg is not signed: a line naming another is not the server's
        return None, None, (f"not signed by this server: the signature line's alg is "
                            f"{canonical_json(signed.get('alg'))[:60]}; the server signs with {signing.ALG}")
    kid, server = statement.get("key_id"), statement.get("server")
    if not isinstance(kid, str):  # a key id is a string: a list there was an unhashable lookup (a 500)
        return None, None, (f"not signed by this server: the statement's key_id is {canonical_json(kid)[:60]}, "
                            "not a key id")
    if server != keys.server:
        return None, None, f"not signed by this server: signed as {server!r}; the keys are those of {keys.server!r}"
    key = keys.by_id.get(kid)
    if key is None:
        return None, None, f"not signed by this server: key {kid!r} is not one of the keys of {keys.server!r}"
    try:
        public = signing.public_from_text(key["public_key"])
    except (ValueError, TypeError, KeyError):
        return None, None, f"the keys document holds a malformed public key for {kid!r}"
    if not signing.check(public, statement, signed["signature"]):
        return None, None, f"not signed by this server: the signature does not match key {kid} of {server}"
    return f"{kid} of {server}", key.get("status"), None


def check_game(game_id: str | None, envs: list[dict], signed: list[dict], keys: Keys | None) -> list[Signed]:
    """Check a game export's commitment and record signatures against ``envs`` (and ``keys``, when given).

    Without keys a signature proves nothing, but a statement that says otherwise than the record
    it rides on means one of the two was changed: that is a problem (``disagrees``) either way."""
    out = []
    created = _data(envs[0]) if envs else {}
    for kind in (GAME_RECORD, SEED_COMMITMENT):
        mine = [s for s in signed if isinstance(s, dict) and isinstance(s.get("statement"), dict)
                and s["statement"].get("kind") == kind and s["statement"].get("game_id") == game_id]
        result = Signed(kind)
        out.append(result)
        if not mine:
            result.problem = f"not signed by this server: the record carries no {kind} signature"
            continue
        if len({canonical_json(s) for s in mine}) > 1:  # a reader may take any one: the server signs one
            result.disagrees = True
            result.problem = f"the record carries {len(mine)} different {kind} signatures; a server signs one"
            continue
        result.statement = st = mine[-1]["statement"]
        if keys is not None:
            result.signed_by, result.key_status, result.problem = check_signature(mine[-1], keys)
            if result.problem:
                continue
        held, events = len(envs), st.get("events") if isinstance(st.get("events"), int) else -1
        if kind == GAME_RECORD and held < events and _prefix_of_signed(envs, st):
            result.incomplete = (f"the server signed {events} events ending in head {st.get('head')}; "
                                 f"this record holds only {held}")
            continue
        differs = _commitment_differs(st, created) if kind == SEED_COMMITMENT else _record_differs(st, envs)
        if differs:
            result.disagrees = True
            result.problem = (f"not signed by this server: {differs}" if keys is not None
                              else f"the record and the {kind} statement it carries disagree: {differs}")
    return out


def _commitment_differs(st: dict, created: dict) -> str | None:
    fields = ("game", "rules_version", "options", "seats", "seed_commitment")
    if [st.get(k) for k in fields] != [created.get(k) for k in fields]:
        return "the signed game, rules version, options, seats or seed commitment differ from GameCreated's"
    return None


def _record_differs(st: dict, envs: list[dict]) -> str | None:
    """What of the record's statement the record itself says otherwise: all of it but the labels (a
    game's words for its moves, reworded since without a new rules version) and who signed it. The
    status follows from the end: aborted for a cancelled game or an aborted outcome (a record from
    before outcomes tells nothing)."""
    created, last = _data(envs[0]), envs[-1]
    if (st.get("events"), st.get("head")) != (len(envs), last.get("hash")):
        return (f"the signed record has {st.get('events')} events and head {st.get('head')}; this one has "
                f"{len(envs)} and head {last.get('hash')}")
    if (st.get("game"), st.get("rules_version")) != (created.get("game"), created.get("rules_version")):
        return (f"the signed game is {st.get('game')!r} under rules {st.get('rules_version')!r}; GameCreated "
                f"names {created.get('game')!r} under {created.get('rules_version')!r}")
    scores = _data(last).get("scores")
    outcome = scores.get("outcome") if isinstance(scores, dict) and last.get("type") == "GameFinished" else None
    if canonical_json(st.get("outcome")) != canonical_json(outcome):
        return f"the signed outcome is {canonical_json(st.get('outcome'))}; the record's is {canonical_json(outcome)}"
    cancelled = any(e.get("type") == "GameCancelled" for e in envs)
    if cancelled or isinstance(outcome, dict):
        status = "aborted" if cancelled or outcome.get("kind") == "aborted" else "finished"
        if st.get("status") != status:
            return f"the signed status is {st.get('status')!r}; the record's end makes it {status!r}"
    return None


def _data(env: dict) -> dict:
    data = env.get("data")
    return data if isinstance(data, dict) else {}


def _prefix_of_signed(envs: list[dict], statement: dict) -> bool:
    """A shorter record can only be a prefix: its events are numbered 1..n with no gap (the chain says the rest)."""
    return all(env.get("seq") == i for i, env in enumerate(envs, start=1))
