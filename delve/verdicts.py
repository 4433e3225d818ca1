"""`delve verify`'s words: one verdict line per game and per bundle, then a summary.

    OK          g1f3a… saboteur-1, 302 events: chain intact, replayed; signed by ed25519:9a… of delve
    FAILED      g14e… seq 383: the recorded command is illegal on replay: card_not_in_hand (SAB-PLAY-2)
    INCOMPLETE  g2b7… 120 events: the record ends before its game did …
    4 games replayed, 1 failed: g14e… seq 383: card_not_in_hand

A line that is not JSON is reported once, as what it is, not again as a broken chain. A signature
line not shaped as a server writes one is a problem with --keys, else a note under the verdict line:

    OK          g1f3a… (game.ndjson) saboteur-1, 302 events: chain intact, replayed; signatures not checked …
      note: line 304 is not a valid signature line: its statement is "x", not an object
"""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

from application.attestation import Keys
from application.replay import Verdict
from application.status import VerdictStatus
from application.tournament_verify import BundleVerdict

WORD = {status: status.upper() for status in VerdictStatus}


def load_keys(source: str, timeout: float = 10.0) -> Keys:
    """A keys document from a URL (a server's base URL or its /v1/audit/keys) or a file."""
    if source.startswith(("http://", "https://")):
        url = source if source.rstrip("/").endswith("/keys") else source.rstrip("/") + "/v1/audit/keys"
        try:
            with urllib.request.urlopen(url, timeout=timeout) as resp:  # noqa: S310 - the user's own URL
                doc = json.loads(resp.read())
        except (urllib.error.URLError, OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"could not read the keys at {url}: {exc}") from exc
    else:
        try:
            doc = json.loads(Path(source).read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"could not read the keys file {source}: {exc}{KEYS_ARE}") from exc
    try:
        return Keys.parse(doc)
    except ValueError as exc:
        raise ValueError(f"{source} is not a keys document: {exc}{KEYS_ARE}") from exc


KEYS_ARE = ("; --keys takes the server's URL or a saved copy of its GET /v1/audit/keys (the record to check is "
            "the FILE argument)")


def short(text: str | None, n: int = 12) -> str:
    return "-" if not text else text if len(text) <= n else text[:n] + "…"


def first_problem(v: Verdict) -> str:
    """The problem a reader should read first: the first with a place or seq, else the first."""
    if not v.problems:
        return v.incomplete or "unknown"
    p = next((p for p in v.problems if p.get("seq") is not None), v.problems[0])
    where = p.get("place") or (f"seq {p['seq']}" if p.get("seq") is not None else "")
    return f"{where}: {p['problem']}" if where else p["problem"]


def signature_words(v: Verdict) -> str:
    if v.signed_by:
        return f"signed by {v.signed_by}"
    if not v.keys_checked:
        signed = [s for s in v.signatures if s.statement]
        return "signatures not checked (pass --keys URL|FILE)" if signed else "unsigned"
    return "not signed by this server"


def game_line(v: Verdict, label: str | None = None) -> str:
    who = label or short(v.game_id)
    if v.status == VerdictStatus.OK:
        return (f"{WORD[VerdictStatus.OK]:<11} {who} {v.rules_version}, {v.events} events: chain intact, replayed; "
                f"{signature_words(v)}")
    if v.status == VerdictStatus.INCOMPLETE:
        return f"{WORD[VerdictStatus.INCOMPLETE]:<11} {who} {v.events} events: {v.incomplete}"
    return f"{WORD[VerdictStatus.FAILED]:<11} {who} {first_problem(v)}"


def lines(name: str, v: Verdict) -> list[str]:
    """The verdict lines of one file: a game's one line, or a bundle's line and one per game; then
    one ``note:`` line per note (a malformed signature line, when the signatures are not checked)."""
    name = Path(str(name)).name or str(name)
    notes = [f"  note: {n['note']}" for n in v.notes]
    if not isinstance(v, BundleVerdict):
        return [game_line(v, f"{short(v.game_id)} ({name})" if v.game_id else name)] + notes
    good = sum(1 for g in v.verdicts.values() if g.status == VerdictStatus.OK)
    head = f"tournament {short(v.tournament)} ({name})"
    if v.ok:
        decided = f", {len(v.decisions)} director's result{'s' if len(v.decisions) != 1 else ''}" if v.decisions else ""
        decided += f", {len(v.corrections)} correction{'s' if len(v.corrections) != 1 else ''}" if v.corrections else ""
        first = (f"{WORD[VerdictStatus.OK]:<11} {head}: {good} games replayed, pairings{decided} and standings follow; "
                 f"{signature_words(v)}")
    else:
        first = f"{WORD[VerdictStatus.FAILED]:<11} {head}: {first_problem(v)}"
    where = [f"  {game_line(g, f'{short(gid)} ({v.tables[gid]})' if gid in v.tables else None)}"
             for gid, g in v.verdicts.items()]
    left = [f"  withdrew: {v.entrants.get(str(w.get('entrant')), w.get('entrant'))} ({w.get('entrant')})"
            + (f" from round {w['from_round']}" if "from_round" in w else "") + (f", by {w['by']}" if "by" in w else "")
            for w in v.withdrawals]
    return [first] + where + left + notes


def summary(verdicts: list[Verdict]) -> str:
    """``4 games replayed, 1 failed: g14e… seq 383: card_not_in_hand``."""
    games: list[Verdict] = []
    for v in verdicts:
        games += list(v.verdicts.values()) if isinstance(v, BundleVerdict) else [v]
    strays = [g for g in games if not_a_record(g)]
    games = [g for g in games if not not_a_record(g)]
    failed = [g for g in games if g.status == VerdictStatus.FAILED]
    incomplete = [g for g in games if g.status == VerdictStatus.INCOMPLETE]
    bundles_failed = [v for v in verdicts if isinstance(v, BundleVerdict) and not v.ok and not failed]
    text = f"{len(games)} game{'s' if len(games) != 1 else ''} replayed"
    if strays:
        text += f", {len(strays)} file{'s' if len(strays) != 1 else ''} not a record: {first_problem(strays[0])}"
        if not (failed or incomplete or bundles_failed):
            return text
    if incomplete:
        text += f", {len(incomplete)} incomplete"
    if failed:
        text += f", {len(failed)} failed: {short(failed[0].game_id)} {first_problem(failed[0])}"
    elif bundles_failed:
        text += f"; tournament {short(bundles_failed[0].tournament)} failed: {first_problem(bundles_failed[0])}"
    elif not incomplete:
        text += ", all sound"
    return text


def not_a_record(v: Verdict) -> bool:
    """A file with no event of a game in it (empty, or another kind of file): nothing was replayed.
    A game's export with lines cut or changed still names its game (``game_id``) or a seq."""
    return (not isinstance(v, BundleVerdict) and v.game is None and v.game_id is None
            and all(p.get("seq") is None for p in v.problems))


def next_step(verdicts: list[Verdict]) -> str | None:
    """What a judge does about the first record that is not sound, or None when all are: a verdict
    says what is wrong and where, this says what to do about it."""
    for v in verdicts:
        games = list(v.verdicts.values()) if isinstance(v, BundleVerdict) else []
        bad = next((g for g in [v] + games if g.status != VerdictStatus.OK), None)
        if bad is None:
            continue
        if not_a_record(bad):
            return ("next: give delve verify a game's export (GET /v1/games/<id>/export) or a tournament's bundle "
                    "(GET /v1/tournaments/<id>/bundle), as the server sent it")
        if bad.status == VerdictStatus.INCOMPLETE and not bad.problems:
            return ("next: the record stops before its end (or before what the server signed): download it again "
                    "from the server, once the game or tournament has finished")
        if "not signed by this server" in first_problem(bad):
            return ("next: check that --keys holds the keys of the server that made the record (its /v1/audit/keys, "
                    "retired keys included); if it does, that server did not sign this record as it stands: ask it "
                    "for the record again")
        return ("next: the file is not as the server wrote it at the place named: get the record again from the "
                "server (or the other party's copy) and find where two copies part with `delve diff A B` "
                "(`--game ID` for a game of two bundles)")
    return None
