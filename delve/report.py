"""A judge's report of an export or a tournament bundle: self-contained HTML, or Markdown.

A game's report: the verdict, the game, its players, the seed commitment and its
reveal, the signatures, every move with its label and time, and the result. A
bundle's: the verdict, the signatures, the final standings the log's results give
(checked; never read from the signed statement), the director's decided and corrected
results, and one line per game.
"""
from __future__ import annotations

import html

from application.attestation import Keys
from application.replay import Verdict
from application.tournament_verify import BundleVerdict
from delve import verdicts
from delve.record import Record
from domain.core import canonical_json
from errors import BadRecord

STYLE = ("body{font:15px/1.45 system-ui,sans-serif;max-width:980px;margin:2em auto;padding:0 1em;color:#222}"
         "table{border-collapse:collapse;width:100%;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:3px 6px;"
         "text-align:left;vertical-align:top}th{background:#f3f1ec}code{font-size:13px;word-break:break-all}"
         ".ok{color:#176b2c}.failed{color:#a3211a}.incomplete{color:#9a6700}h1 small{font-weight:normal;color:#666}")


def render(lines: list, verdict: Verdict, suffix: str, keys: Keys | None) -> str:
    """The report of one file (``suffix`` ``.html`` or ``.md``)."""
    sections = _bundle(verdict) if isinstance(verdict, BundleVerdict) else _game(lines, verdict)
    return _html(sections) if suffix == ".html" else _markdown(sections)


TABLES = "Rounds count from 1 and a round's tables from 0, as in the API's paths and verify's problems."

# A report is a title and sections of (heading, paragraphs, table rows with a header row).
Section = tuple[str, list[str], list[list[str]]]


def _verdict_words(v: Verdict) -> str:
    line = verdicts.game_line(v) if not isinstance(v, BundleVerdict) else verdicts.lines("bundle", v)[0]
    return line.split(None, 1)[1] if " " in line else line


def _signature_rows(v: Verdict) -> list[list[str]]:
    rows = [["statement", "key", "server", "checked against keys", "result"]]
    for s in v.signatures:
        st = s.statement or {}
        result = s.problem or s.incomplete or (f"signed by {s.signed_by} ({s.key_status} key)" if s.signed_by
                                               else "present, not checked (pass --keys)")
        rows.append([s.kind, st.get("key_id", "-"), st.get("server", "-"), "yes" if v.keys_checked else "no", result])
    return rows


def _game(lines: list, v: Verdict) -> tuple[str, list[Section]]:
    try:
        r = Record.parse(lines)
        r.moves  # noqa: B018 - labels need the rules: fail here, not half way through the table
    except (BadRecord, Exception) as exc:  # a record the rules cannot read still gets its verdict
        return "Delve game record", [("Verdict", [f"{v.status.upper()}: {_verdict_words(v)}", f"({exc})"], [])]
    created = r.created
    finished = r.finished
    outcome = (finished or {}).get("scores", {}).get("outcome") if finished else None
    title = f"{created['game']} game {r.game_id}"
    players = [["seat", "name", "bot", "player id"]] + [
        [str(i), s.get("name") or "-", s.get("bot") or "-", s.get("player") or s.get("reserved") or "-"]
        for i, s in enumerate(r.seats)]
    seed = [f"Commitment (in GameCreated, published before the deal): `{created.get('seed_commitment')}`",
            f"Revealed seed: `{r.seed}`" if r.seed else "The seed was not revealed: the record ends before the game did.",
            "The revealed seed hashes to the commitment: " + ("yes" if v.replay_ok else "see the verdict")]
    move_rows = [["move", "time", "who", "label", "events (seq)"]] + [
        [str(m.n), m.at, r.seat_name(m.seat, m.actor), m.label,
         str(m.first_seq) if m.first_seq == m.last_seq else f"{m.first_seq}-{m.last_seq}"] for m in r.moves]
    result_rows = [["participant", "total", "place"]] + [
        [_participant(r, p["id"]), str(p["total"]), str(p["place"] or "-")]
        for p in ((finished or {}).get("scores") or {}).get("participants", [])]
    sections: list[Section] = [
        ("Verdict", [f"**{v.status.upper()}**: {_verdict_words(v)}"]
         + [f"Problem: {p.get('place') or ('seq ' + str(p['seq']) if p.get('seq') else '')} {p['problem']}"
            for p in v.problems] + [f"Note: {n['note']}" for n in v.notes], []),
        ("Game", [f"Game `{r.game_id}`: {created['game']}, rules version {r.game.rules_version} "
                  f"(replayed under that version)", f"Options: `{canonical_json(created.get('options'))}`",
                  f"{len(r.envs)} events, {len(r.moves)} moves, from {r.envs[0].get('at')} to {r.envs[-1].get('at')}",
                  f"Final chain head: `{r.envs[-1].get('hash')}`"], []),
        ("Players", [], players),
        ("Seed", seed, []),
        ("Signatures", [], _signature_rows(v)),
        ("Result", [f"Outcome: {outcome['kind']}, winners {', '.join(outcome['winners']) or 'none'}" if outcome
                    else "No result: the record ends before the game did."], result_rows if finished else []),
        ("Moves", ["Move n is the n-th command the game accepted; the same numbers as the API, the viewer "
                   "and `delve show --move n`."], move_rows),
    ]
    return title, sections


def _participant(r: Record, pid: str) -> str:
    """``seat:1`` as ``bob (seat 1)``; teams and game-driven actors as they are named."""
    kind, _, rest = pid.partition(":")
    return r.seat_name(int(rest)) if kind == "seat" and rest.isdigit() else pid


def _bundle(v: BundleVerdict) -> tuple[str, list[Section]]:
    standings = [["place", "entrant", "points"]] + [
        [str(s.get("place", "-")), f"{v.entrants.get(s.get('entrant'), '?')} ({s.get('entrant')})",
         str(s.get("points", s.get("score", "-")))] for s in (v.standings or [])]
    games = [["game", "status", "rules version", "events", "signed by", "chain head"]] + [
        [gid, g.status, g.rules_version or "-", str(g.events), g.signed_by or "-", g.chain_head or "-"]
        for gid, g in v.verdicts.items()]
    decided = [["round", "table", "result", "places", "reason", "by"]] + [
        [str(d["round"]), str(d["table"]), d["kind"].replace("_", " "), _places(v, d["result"]), d["reason"],
         str(d["by"])] for d in v.decisions]
    corrected = [["round", "table", "previous result", "corrected to", "reason", "by"]] + [
        [str(d["round"]), str(d["table"]), _outcome(v, d["previous"]), _outcome(v, d["result"]), d["reason"],
         str(d["by"])] for d in v.corrections]
    return f"Tournament {v.tournament}", [
        ("Verdict", [f"**{v.status.upper()}**: {_verdict_words(v)}"]
         + [f"Problem: {p.get('place', '')} {p['problem']}" for p in v.problems]
         + [f"Note: {n['note']}" for n in v.notes], []),
        ("Signatures", [], _signature_rows(v)),
        ("Final standings", _standings_words(v), standings),
        *([("Director's results", ["Tables the organizer decided instead of their games (TRN-DIR-1).", TABLES],
            decided)] if v.decisions else []),
        *([("Corrected results", ["Recorded results the organizer corrected, in log order (TRN-DIR-3).", TABLES],
            corrected)] if v.corrections else []),
        ("Games", [verdicts.summary([v])], games),
    ]


def _standings_words(v: BundleVerdict) -> list[str]:
    """What the standings table is: always the log's, recomputed from its results, never a statement's."""
    if v.standings is None:
        return ["No standings: the tournament log's final standings could not be checked (see the verdict)."]
    words = ["As the tournament log's results give them (recomputed; its TournamentFinished records the same)."]
    return words + ([] if v.ok else ["The bundle failed verification (see the verdict): these are what its log "
                                     "gives, not a verified result."])


def _places(v: BundleVerdict, result: dict) -> str:
    """``ann #1, bob #2`` (``#-``: nobody placed)."""
    return ", ".join(f"{v.entrants.get(e, e)} #{p if p is not None else '-'}" for e, p in result["places"].items())


def _outcome(v: BundleVerdict, result: dict) -> str:
    """``win: ann #1, bob #2``: a result's outcome kind and places."""
    return f"{str(result.get('outcome')).replace('_', ' ')}: {_places(v, result)}"


def _markdown(doc: tuple[str, list[Section]]) -> str:
    title, sections = doc
    out = [f"# {title}", ""]
    for heading, paragraphs, rows in sections:
        out += [f"## {heading}", ""] + [p + "\n" for p in paragraphs]
        if rows:
            out.append("| " + " | ".join(rows[0]) + " |")
            out.append("|" + "---|" * len(rows[0]))
            out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows[1:]]
            out.append("")
    return "\n".join(out) + "\n"


def _html(doc: tuple[str, list[Section]]) -> str:
    title, sections = doc
    body = [f"<h1>{html.escape(title)} <small>judge's report</small></h1>"]
    for heading, paragraphs, rows in sections:
        body.append(f"<h2>{html.escape(heading)}</h2>")
        body += [f"<p>{_inline(p)}</p>" for p in paragraphs]
        if rows:
            body.append("<table><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in rows[0]) + "</tr>")
            body += ["<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows[1:]]
            body.append("</table>")
    return (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>\n")


def _inline(text: str) -> str:
    """Markdown's **bold** and `code` in a paragraph, escaped for HTML."""
    parts = html.escape(text).split("`")
    out = "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))
    for word in ("OK", "FAILED", "INCOMPLETE"):
        out = out.replace(f"**{word}**", f"<strong class=\"{word.lower()}\">{word}</strong>")
    return out.replace("**", "")
