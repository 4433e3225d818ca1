"""Nothing secret can be learned from anything public before the end (issue 12).

The attack of the issue: a hash published while the game runs (the audit's
chain head, or any other) is a hash over the dealt secrets, so anyone may try
each candidate card of a hidden field, recompute the batch's hashes, and keep
the candidate whose hash appears in public. Here games of both games are
played through the API with human seats and a bot seat; after every batch the
spectator and each seat read everything public to them (summary, events,
legal actions, audit, scores, states, the lobby, the export attempt, the SSE
and NDJSON streams, every response's headers). Then the attack is mounted on
every batch, for each viewer, with an attacker stronger than a real one: it
knows every field of the batch except the one hidden leaf it is guessing. It
must recover nothing.

A control mounts the same attack with what the audit published before the fix
(the chain head after every batch) and must recover secrets: the attack works,
so its failing to work on the public data means something.
"""
from __future__ import annotations

import copy
import json
import random
import re

import pytest

from domain import registry
from events.envelope import GENESIS, compute_hash
from tests.api.helpers import ADMIN, auth, tiny_game

HEX64 = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")
CANDIDATES_PER_FIELD = 80  # the issue counted about 67 candidate cards per hidden field
WATCHED = 40  # batches watched per game


def _bot(game) -> str:
    return next(b for b in ("heuristic", "greedy", "random", *sorted(game.bots)) if b in game.bots)


# Every shipped game with something to hide -> its seats (humans, the last one a bot); Mountain
# King at three seats, the others at their smallest table of at least two.
GAMES = {gid: ([None] * (max(2, g.min_players) + (gid == "mountain-king") - 1) + [_bot(g)], WATCHED)
         for gid in registry.available() if (g := registry.get(gid)).game_type.information == "imperfect"
         and type(g).__module__.startswith("domain.")}


def leaves(value, path=()):
    """Every scalar in ``value`` by its path (dict keys and list indices)."""
    if isinstance(value, dict):
        return {p: v for k, item in value.items() for p, v in leaves(item, (*path, k)).items()}
    if isinstance(value, list):
        return {p: v for i, item in enumerate(value) for p, v in leaves(item, (*path, i)).items()}
    return {path: value}


def with_leaf(value, path, new):
    out = copy.deepcopy(value)
    node = out
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = new
    return out


def field_name(path) -> str:
    """The name a hidden leaf's candidates are drawn by (``card`` for hands.0.card...)."""
    named = [p for p in path if isinstance(p, str)]
    return named[-1] if named else "<item>"


def hidden_paths(env: dict, seen: dict | None) -> list[tuple]:
    """The leaves of ``env``'s data the viewer did not see (all of them if the event was withheld)."""
    shown = leaves(seen["data"]) if seen else {}
    missing = object()
    return [p for p, v in leaves(env["data"]).items() if shown.get(p, missing) != v]


def batches(envelopes: list[dict]) -> list[list[dict]]:
    out: list[list[dict]] = []
    for env in envelopes:
        if out and out[-1][0]["command_id"] == env["command_id"]:
            out[-1].append(env)
        else:
            out.append([env])
    return out


def attack(envelopes: list[dict], seen_by_seq: dict[int, dict], public: set[str]) -> list[tuple[int, tuple]]:
    """Try every candidate of every hidden leaf of every batch against ``public``.

    Returns the (seq, path) of each hidden leaf whose true value a candidate
    hash confirmed. A batch can only be attacked from a known starting hash.
    """
    pool: dict[str, list] = {}
    for env in envelopes:
        for path, value in leaves(env["data"]).items():
            if value not in pool.setdefault(field_name(path), []):
                pool[field_name(path)].append(value)
    recovered = []
    for batch in batches(envelopes):
        if batch[0]["prev_hash"] not in public | {GENESIS}:
            continue
        for i, env in enumerate(batch):
            for path in hidden_paths(env, seen_by_seq.get(env["seq"])):
                truth = leaves(env["data"])[path]
                for candidate in pool[field_name(path)][:CANDIDATES_PER_FIELD - 1] + [truth]:
                    head, hits = env["prev_hash"], False
                    for j, later in enumerate(batch[i:]):
                        trial = {**later, "prev_hash": head}
                        if j == 0:
                            trial["data"] = with_leaf(env["data"], path, candidate)
                        head = compute_hash(trial)
                        hits = hits or head in public
                    if hits and candidate == truth:
                        recovered.append((env["seq"], path))
                        break
    return recovered


def stream_text(client, gid, token, accept) -> str:
    """The start of the live stream (SSE or NDJSON) up to its first keep-alive or its end."""
    resp = client.get(f"/v1/games/{gid}/events/stream", headers={**auth(token), "Accept": accept}, buffered=False)
    chunks = []
    for chunk in resp.response:
        chunks.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
        if chunks[-1] in (": keep-alive\n\n", "\n") or "end" in chunks[-1]:
            break
    resp.close()
    return str(resp.headers) + "".join(chunks)


def public_reads(client, gid, token, version) -> list[str]:
    """Everything a viewer holding ``token`` (None = spectator) can read about the game now,
    headers (ETag, Link...) included."""
    paths = ["", "/events?limit=1000", "/events?limit=2", "/legal-actions", "/audit", "/scores",
             f"/states/{version}", "/export"]
    answers = [client.get(f"/v1/games/{gid}{p}", headers=auth(token)) for p in paths]
    answers.append(client.get("/v1/games?limit=1"))
    return [str(a.headers) + a.get_data(as_text=True) for a in answers]


def play_and_watch(client, game_id: str, bots: list, moves: int):
    """Play ``moves`` batches; return the game id, the viewers' tokens and what each saw."""
    created = client.post("/v1/games", json={"game": game_id, "seats": [
        {"name": f"p{i}", **({"bot": b} if b else {})} for i, b in enumerate(bots)]})
    assert created.status_code == 201, created.json
    gid = created.json["id"]
    tokens = {s["seat"]: s["token"] for s in created.json["seats"] if s["token"]}
    viewers = {None: None, **tokens}
    service = client.application.extensions["delve.service"]
    rng = random.Random(12)
    seen_text: dict = {v: [] for v in viewers}
    for _ in range(moves):
        summary = client.get(f"/v1/games/{gid}").json
        for viewer, token in viewers.items():
            seen_text[viewer] += public_reads(client, gid, token, summary["version"])
        if not summary["active_seats"]:
            break
        seat = summary["active_seats"][0]
        if seat not in tokens:
            assert service.bot_turn(gid, summary["version"]) is not None
            continue
        legal = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(tokens[seat])).json
        resp = client.post(f"/v1/games/{gid}/actions", headers=auth(tokens[seat]),
                           json={"expected_version": legal["version"], "command": rng.choice(legal["commands"])})
        assert resp.status_code == 201, resp.json
        seen_text[seat].append(resp.get_data(as_text=True))
    for viewer, token in viewers.items():
        seen_text[viewer] += [stream_text(client, gid, token, accept)
                              for accept in ("text/event-stream", "application/x-ndjson")]
    return gid, viewers, seen_text


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_no_public_hash_confirms_a_guess_before_the_end(client, game_id):
    bots, moves = GAMES[game_id]
    gid, viewers, seen_text = play_and_watch(client, game_id, bots, moves)
    summary = client.get(f"/v1/games/{gid}").json
    assert summary["status"] == "active"
    export = client.get(f"/v1/games/{gid}/export", headers=ADMIN)
    envelopes = [line for line in map(json.loads, export.data.decode().splitlines()) if "seq" in line]
    assert len(batches(envelopes)) > 10 and any(e["seat"] == len(bots) - 1 for e in envelopes), "bots played"
    for viewer, token in viewers.items():
        public = {h for text in seen_text[viewer] for h in HEX64.findall(text)}
        own = client.get(f"/v1/games/{gid}/events?limit=1000", headers=auth(token)).json["events"]
        seen_by_seq = {e["seq"]: e for e in own}
        assert sum(len(hidden_paths(e, seen_by_seq.get(e["seq"]))) for e in envelopes) > 0, "something is hidden"
        assert attack(envelopes, seen_by_seq, public) == [], f"viewer {viewer} recovered secrets"
        # Bot batches' command ids are predictable; no viewer may see them before the end.
        assert not any(f"bot:{gid}:" in text for text in seen_text[viewer])

    # Control: the chain heads the audit published before issue 12 confirm hidden values.
    old_audit = {env["hash"] for batch in batches(envelopes) for env in batch[-1:]}
    spectator_seen = {e["seq"]: e for e in client.get(f"/v1/games/{gid}/events?limit=1000").json["events"]}
    assert attack(envelopes, spectator_seen, old_audit), "the attack must work when heads are public"


def test_audit_shows_the_head_to_the_admin_and_to_everyone_after_the_end(client):
    created = tiny_game(client, turns=2)
    gid, token = created["id"], created["seats"][0]["token"]
    assert client.get(f"/v1/games/{gid}/audit").json["chain_head"] is None
    assert client.get(f"/v1/games/{gid}/audit", headers=auth(token)).json["chain_head"] is None
    head = client.get(f"/v1/games/{gid}/audit", headers=ADMIN).json["chain_head"]
    assert HEX64.fullmatch(head)
    for turn in range(2):
        version = client.get(f"/v1/games/{gid}").json["version"]
        tok = created["seats"][turn % 2]["token"]
        assert client.post(f"/v1/games/{gid}/actions", headers=auth(tok),
                           json={"expected_version": version, "command": {"type": "pass"}}).status_code == 201
    client.application.extensions["delve.service"].finalize(gid)
    audit = client.get(f"/v1/games/{gid}/audit").json
    last = [line for line in map(json.loads, client.get(f"/v1/games/{gid}/export").data.decode().splitlines()) if "seq" in line][-1]
    assert audit["chain_head"] == last["hash"] and audit["seed"]
