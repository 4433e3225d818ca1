"""Verify a tournament bundle offline: every game, every report, every pairing.

A bundle (GET /v1/tournaments/{id}/bundle) is NDJSON: a header line
``{"bundle": "delve-tournament", "tournament", "games"}``, the tournament's
envelopes, then each game's export. The verdict holds when:

1. the tournament's hash chain is intact and its revealed seed matches the
   commitment in TournamentCreated;
2. every game verifies on its own (chain and replay, application/replay.py);
3. each GameFinished report names that game's chain head and the result its
   final score board gives (an aborted or cancelled game: nobody placed), and
   the game seats the paired entrants in order (the bot, or a seat reserved
   for the entrant player);
4. every RoundPaired is what the pairing rules produce from the entrants,
   the results logged before it and the revealed seed, with the game ids
   derived from (tournament, round, table) (a first-generation log: see
   below), once the round before it is
   completed; no entrant registers after the start; every RoundCompleted
   completes the round being played once each table has its result, with the
   standings those results give;
5. every ResultDecided (a director's forfeit, walkover, double forfeit or
   adjudication) is one the rules allowed at that point of the log, for a
   table that was paired and not yet decided, with the result its kind and
   entrants give; no game's report replaces it (TRN-DIR-1); every withdrawal
   from a round is from one the rules allowed, and one from the round being
   played is followed by the forfeit of the entrant's table there (TRN-WD-2);
   every ResultCorrected is one the rules allowed at that point of the log
   (TRN-DIR-3: a table with a result, no knockout round already completed),
   names as ``previous`` the result then recorded, and gives the result its
   kind and entrants give; pairings after it count the corrected result;
6. the final standings follow from all of that (the decided and corrected
   results included), once the last round is completed;
7. the signed standings statement, if any, names this log (its events and
   head), its games' chain heads and those final standings: checked with or
   without keys (keys check who signed it), since a report shows the standings
   the log gives, never the statement's.

Every bundle Delve ever made keeps verifying. A bundle of the first generation (made by the
code of 2026-11-23 between d46d871 and 93861e7) is told by its TournamentCreated, which names no
``clock``, ``start_at`` or ``organizer``: its games were created before their RoundPaired, under
ids the game service drew, and its reports carry no ``outcome``. Its log is checked by the rules
of the code that wrote each event (``_written_later``): a RoundPaired may name drawn ids, each
game at one table only, and a report without an outcome gives the places and scores of the
game's final score board; from the first event only later code wrote (derived ids, an outcome,
TournamentStarted, ...) every event is checked as in a current log. Everything else (the chain,
every game, the seats, the pairings, the standings) is checked the same in both generations. A
log naming some of those settings but not all is of no generation, and fails.

Problems name their place: ``tournament seq 7`` or ``game g1f... seq 12``.
"""
from __future__ import annotations

import hashlib
import json
from typing import Callable, Iterable

from domain.core import Illegal
from domain.tournament import decide, is_complete, pair_round, standings
from domain.tournament.log import config_of, evolve, game_id_for, initial, pairing_view, table_result, TournamentStatus
from domain.tournament.pairing import waits
from events.envelope import first_broken_link
from application import attestation
from application.replay import Verdict, malformed_signature_lines, read_ndjson, verify, verify_envelopes


class BundleVerdict(Verdict):
    def __init__(self, keys_checked: bool = False):
        super().__init__(keys_checked=keys_checked)
        self.games: dict[str, bool] = {}
        self.verdicts: dict[str, Verdict] = {}  # each game's own verdict, in the bundle's order
        self.tournament: str | None = None
        self.standings: list | None = None  # the final standings, once checked against the log's results
        self.game_heads: dict[str, str | None] = {}  # each paired game -> the chain head its report names
        self.entrants: dict[str, str] = {}  # entrant id -> name, from the log (for reports)
        self.decisions: list[dict] = []  # each ResultDecided's data the rules allowed, in log order (for reports)
        self.corrections: list[dict] = []  # each ResultCorrected's data the rules allowed, in log order (for reports)
        self.tables: dict[str, str] = {}  # each paired game -> where it was played ("round 1 table 0: ann, cy")
        self.withdrawals: list[dict] = []  # each EntrantWithdrew's data, in log order (for reports)
        self.generation: int | None = None  # 1 or 2: the generation of the tournament log (generation())

    def at(self, where: str, seq: int | None, text: str) -> None:
        self.problems.append({"seq": seq, "place": where if seq is None else f"{where} seq {seq}", "problem": text})

    @property
    def signed_by(self) -> str | None:
        standings = next((s for s in self.signatures if s.kind == attestation.STANDINGS), None)
        return standings.signed_by if standings and not standings.problem else None

    def to_dict(self) -> dict:
        return {**super().to_dict(), "games": self.games, "tournament": self.tournament,
                "game_verdicts": {gid: {"status": g.status, "events": g.events, "rules_version": g.rules_version,
                                        "signed_by": g.signed_by, "chain_head": g.chain_head}
                                  for gid, g in self.verdicts.items()}}


def verify_bundle(lines: Iterable[str | bytes], keys: attestation.Keys | None = None) -> BundleVerdict:
    """Check a bundle; with ``keys``, its standings and every game must be signed by that server."""
    numbered, parse_problems = read_ndjson(lines)
    envs, signed, malformed = attestation.split_numbered(numbered)
    v = BundleVerdict(keys_checked=keys is not None)
    v.problems.extend({**p, "place": "bundle"} for p in parse_problems)
    if not envs or envs[0].get("bundle") != "delve-tournament":
        _no_header(v, envs[0] if envs else None)
        return v
    header, envs = envs[0], envs[1:]
    tid = v.tournament = header.get("tournament")
    log = [e for e in envs if e.get("game_id") == tid]
    games: dict[str, list[dict]] = {}
    for env in envs:
        if env.get("game_id") != tid:
            games.setdefault(str(env.get("game_id")), []).append(env)
    v.events = len(log)
    v.chain_head = log[-1].get("hash") if log else None
    v.entrants = {str(e["data"]["entrant"].get("id")): str(e["data"]["entrant"].get("name"))
                  for e in log if e.get("type") == "EntrantRegistered" and isinstance(e.get("data"), dict)
                  and isinstance(e["data"].get("entrant"), dict)}
    v.withdrawals = [e["data"] for e in log if e.get("type") == "EntrantWithdrew" and isinstance(e.get("data"), dict)]
    bad, why = first_broken_link(log)
    v.chain_ok = bool(log) and bad is None and not parse_problems
    if not log:
        v.at("tournament", None, f"the bundle holds no event of tournament {tid!r}")
    elif bad is not None:
        v.at("tournament", bad, f"chain broken: {why}")
    heads = {}
    for gid, game_envs in games.items():
        verdict = verify_envelopes(game_envs, signed, keys=keys)
        v.verdicts[gid] = verdict
        v.games[gid] = verdict.ok
        heads[gid] = game_envs[-1].get("hash")
        for p in verdict.problems:
            v.at(f"game {gid}", p.get("seq"), p["problem"])
        if verdict.incomplete and not verdict.problems:
            v.at(f"game {gid}", None, f"incomplete: {verdict.incomplete}")
    try:
        v.replay_ok = v.chain_ok and _replay(log, games, heads, header, v)
    except (Illegal, KeyError, TypeError, ValueError, AttributeError, IndexError, StopIteration) as exc:
        v.at("tournament", None, f"the log cannot be replayed: {exc!r}")
        v.replay_ok = False
    _check_standings_signature(v, tid, log, signed, keys)
    malformed_signature_lines(v, malformed, place="bundle")
    v.ok = v.chain_ok and v.replay_ok and all(v.games.values()) and not v.problems
    return v


def _no_header(v: BundleVerdict, first: dict | None) -> None:
    """A file told apart as a bundle without its header names what it lacks, not a chain broken further on."""
    if isinstance(first, dict) and first.get("type") == "TournamentCreated":
        v.tournament = first.get("game_id")
        v.at("bundle", None, "the header line is missing: the file begins with the tournament's log, where a bundle "
                             'begins with {"bundle": "delve-tournament", "tournament", "games"}')
    else:
        v.at("bundle", None, "the first line is not a tournament bundle header")


def _check_standings_signature(v: BundleVerdict, tid: str | None, log: list[dict], signed: list[dict],
                               keys: attestation.Keys | None) -> None:
    """Who signed the standings statement is checked against keys if given; that it says what the log
    gives, always (no report shows it, but an unchecked statement unlike the log is a forgery)."""
    mine = [s for s in signed if isinstance(s, dict) and isinstance(s.get("statement"), dict)
            and s["statement"].get("kind") == attestation.STANDINGS and s["statement"].get("tournament") == tid]
    result = attestation.Signed(attestation.STANDINGS)
    v.signatures = [result]
    if not mine:
        result.problem = "not signed by this server: the bundle carries no signed standings"
    else:
        result.statement = mine[-1]["statement"]
        if keys is not None:
            result.signed_by, result.key_status, result.problem = attestation.check_signature(mine[-1], keys)
    unlike = None if result.problem or not mine else _statement_unlike_log(result.statement, log, v)
    result.problem = result.problem or unlike
    if result.problem and (keys is not None or unlike):
        v.at("tournament", None, result.problem)


def _statement_unlike_log(st: dict, log: list[dict], v: BundleVerdict) -> str | None:
    """What the standings statement says that the log does not (its games and standings once the log's
    final standings are checked), or None."""
    head = log[-1].get("hash") if log else None
    if (st.get("events"), st.get("head")) != (len(log), head):
        return (f"the signed standings name {st.get('events')} tournament events and head {st.get('head')}; "
                f"this log has {len(log)} and head {head}")
    if v.standings is None:
        return None  # the log's own problems say why its standings are not checked
    games = st.get("games") if isinstance(st.get("games"), dict) else {}
    if games != v.game_heads:
        wrong = min(g for g in {*games, *v.game_heads} if g not in games or games[g] != v.game_heads.get(g))
        return f"the signed standings name another chain head than the log's report for game {wrong}"
    if st.get("standings") != v.standings:
        return "the signed standings disagree with the final standings the log gives: " + _first_difference(
            st.get("standings"), v.standings)
    return None


def _first_difference(signed: object, checked: list[dict]) -> str:
    """``line 1 names e1 with 2 points at place 1, the log e3 with 3 points at place 1``."""
    rows = signed if isinstance(signed, list) else []
    for i, (theirs, mine) in enumerate(zip(rows, checked)):
        if theirs != mine:
            said, given = _standing(theirs), _standing(mine)
            if said == given:
                said, given = json.dumps(theirs, sort_keys=True), json.dumps(mine, sort_keys=True)
            return f"line {i + 1} names {said}, the log {given}"
    return f"they have {len(rows)} lines, the log {len(checked)}"


def _standing(row: object) -> str:
    if not isinstance(row, dict):
        return json.dumps(row)
    return f"{row.get('entrant')} with {row.get('points')} points at place {row.get('place')}"


def _replay(log: list[dict], games: dict[str, list[dict]], heads: dict[str, str], header: dict,
            v: BundleVerdict) -> bool:
    created = log[0]
    if created.get("type") != "TournamentCreated":
        v.at("tournament", created.get("seq"), "the first event is not TournamentCreated")
        return False
    revealed = [e for e in log if e["type"] == "SeedRevealed"]
    if not revealed:
        v.at("tournament", None, "no SeedRevealed: the tournament has not finished")
        return False
    seed = bytes.fromhex(revealed[0]["data"]["seed"])
    if hashlib.sha256(seed).hexdigest() != created["data"]["seed_commitment"]:
        v.at("tournament", revealed[0]["seq"], "the revealed seed does not match the commitment")
        return False
    v.generation = generation(created["data"])
    if v.generation is None:
        v.at("tournament", created["seq"], f"TournamentCreated names some of {', '.join(LATER_SETTINGS)} but not all: "
                                           "no generation of the tournament log has that shape")
        return False
    state, ok = initial(), True
    early = v.generation == 1  # events may be in the first generation's shapes (until _written_later)
    for i, env in enumerate(log):
        ev = {"type": env["type"], "data": env["data"]}
        early = early and not _written_later(state, ev)
        if ev["type"] == "EntrantWithdrew" and "from_round" in ev["data"]:
            ok &= _check_withdrawal(state, ev["data"], log[i + 1:i + 2], env["seq"], v)
        elif ev["type"] == "RoundPaired":
            ok &= _check_pairing(state, ev["data"], seed, env["seq"], v, _drawn_ids if early else None)
        elif ev["type"] == "RoundCompleted":
            ok &= _check_completed(state, ev["data"], env["seq"], v)
        elif ev["type"] == "EntrantRegistered" and state["status"] != TournamentStatus.REGISTERING:
            v.at("tournament", env["seq"], "an entrant registered after registration closed")
            ok = False
        elif ev["type"] == "GameFinished":
            result_of = _first_result if early else table_result
            ok &= _check_report(state, ev["data"], games, heads, env["seq"], v, result_of)
        elif ev["type"] in decide.DIRECTOR_EVENTS and not _check_director(state, ev, env["seq"], v):
            return False  # the log cannot be folded past a director's result the rules refuse
        elif ev["type"] == "TournamentFinished":
            ok &= _check_final(state, ev["data"], env["seq"], v)
        evolve(state, ev)
    v.tables = {t["game_id"]: where_played(r["round"], i, t["seats"], v.entrants)
                for r in state["rounds"] for i, t in enumerate(r["tables"])}
    listed = [t["game_id"] for r in state["rounds"] for t in r["tables"]]
    if sorted(listed) != sorted(header.get("games") or []) or set(listed) != set(games):
        v.at("bundle", None, "the header's games, the games in the bundle and the games paired differ: "
                             + _games_apart(listed, header.get("games") or [], list(games)))
        ok = False
    return ok


def where_played(round_no: object, index: int, seats: list, names: dict) -> str:
    """A table as a judge reads it: "round 2 table 1: rando, ann" (an entrant by its name, else its id)."""
    return f"round {round_no} table {index}: " + ", ".join(str(names.get(e, e)) for e in seats)


def _games_apart(paired: list, header: list, held: list) -> str:
    """Which games the header, the bundle's records and the log's pairings do not share."""
    def ids(games) -> str:
        return ", ".join(str(g) for g in games[:5]) + (f" and {len(games) - 5} more" if len(games) > 5 else "")
    parts = [f"{what}: {ids(games)}" for what, games in (
        ("paired but not in the bundle", [g for g in paired if g not in held]),
        ("in the bundle but paired at no table", [g for g in held if g not in paired]),
        ("paired but not in the header", [g for g in paired if g not in header]),
        ("in the header but paired at no table", [g for g in header if g not in paired])) if games]
    return "; ".join(parts) or f"the header lists {len(header)} games, the log pairs {len(paired)}"


def _check_pairing(state: dict, data: dict, seed: bytes, seq: int, v: BundleVerdict,
                   check_ids: Callable[[dict, dict, int, BundleVerdict], bool] | None = None) -> bool:
    """``check_ids``: how the round's game ids are checked when they are not derived from it (``_drawn_ids``
    early in a first-generation log)."""
    if not _last_round_completed(state, f"round {data['round']} is paired", seq, v):
        return False
    expected = pair_round(config_of(state), state["entrants"], pairing_view(state["rounds"]), seed)
    got = {"round": data["round"], "tables": [{"seats": t["seats"]} for t in data["tables"]], "byes": data["byes"]}
    if got != expected:
        v.at("tournament", seq, f"round {data['round']} is not the pairing the rules give: expected "
                                f"{json.dumps(expected['tables'])} with byes {expected['byes']}")
        return False
    if check_ids is not None:
        return check_ids(state, data, seq, v)
    ids = derived_ids(state, data)
    if [t["game_id"] for t in data["tables"]] != ids:
        v.at("tournament", seq, f"round {data['round']} names game ids other than those derived from it: {ids}")
        return False
    return True


def _check_withdrawal(state: dict, data: dict, after: list[dict], seq: int, v: BundleVerdict) -> bool:
    """A withdrawal from a round (TRN-WD-2) the rules allowed; from the round being played, followed
    by the forfeit of the entrant's table there (whoever decided it)."""
    try:
        step = decide.withdraw(state, decide.find_entrant(state, data["entrant"]), data["from_round"],
                               by=data.get("by") or decide.ADMIN)  # a withdrawal named no one before 2026-11-28
    except Illegal as refused:
        v.at("tournament", seq, f"a withdrawal the rules refuse ({refused.rule}): {refused.message}")
        return False
    forfeits = [{k: x for k, x in ev["data"].items() if k != "by"} for ev in step.events[1:]]
    logged = [{k: x for k, x in (env.get("data") or {}).items() if k != "by"} for env in after
              if env.get("type") == "ResultDecided"][:len(forfeits)]
    if forfeits != logged:
        v.at("tournament", seq, f"{data['entrant']} withdrew from round {data['from_round']}, the round being played, "
                                "but its table there is not forfeited by it (TRN-WD-2)")
        return False
    return True


def _check_director(state: dict, ev: dict, seq: int, v: BundleVerdict) -> bool:
    """Ask for the logged result again on the log before it (TRN-DIR-1, TRN-DIR-3): the same event
    (a correction naming the result it replaced), or a named problem."""
    data = ev["data"]
    again, word = decide.DIRECTOR_EVENTS[ev["type"]], ev["type"].removeprefix("Result").lower()
    where = f"round {data.get('round')} table {data.get('table')}"
    try:
        expected = again(state, data.get("round"), data.get("table"), decide.decision_request(data),
                         data.get("by"))["data"]
    except Illegal as refused:
        v.at("tournament", seq, f"a {word} result the rules refuse ({refused.rule}): {refused.message}")
        return False
    if "previous" in expected and expected["previous"] != data.get("previous"):
        v.at("tournament", seq, f"the correction of {where} names a previous result other than the one recorded: "
                                f"{json.dumps(expected['previous'])}")
        return False
    if expected != data:
        v.at("tournament", seq, f"the {word} result of {where} is not what its kind and entrants give: "
                                f"expected {json.dumps(expected['result'])}")
        return False
    (v.corrections if ev["type"] == "ResultCorrected" else v.decisions).append(data)
    return True


def _check_report(state: dict, data: dict, games: dict[str, list[dict]], heads: dict[str, str], seq: int,
                  v: BundleVerdict, result_of: Callable[[dict | None, list[str]], dict] = table_result) -> bool:
    """``result_of``: the result the code that wrote the report gave a final score board (``table_result``,
    but ``_first_result`` early in a first-generation log)."""
    table = state["rounds"][data["round"] - 1]["tables"][data["table"]]
    gid = table["game_id"]
    if table.get("decision") or table.get("corrections"):
        v.at("tournament", seq, f"game {gid} is reported for a table the director decided or corrected "
                                "(TRN-DIR-1, TRN-DIR-3)")
        return False
    if data["game_id"] != gid or gid not in games:
        v.at("tournament", seq, f"the report names game {data['game_id']!r}; the bundle lacks it or paired another")
        return False
    if heads[gid] != data["chain_head"]:
        v.at("tournament", seq, f"the reported chain head differs from game {gid}'s")
        return False
    if not _seats_match(state, table["seats"], games[gid][0]):
        v.at("tournament", seq, f"game {gid} does not seat the entrants paired at its table")
        return False
    finished = [e for e in games[gid] if e.get("type") == "GameFinished"]
    cancelled = any(e.get("type") == "GameCancelled" for e in games[gid])
    if not finished and not cancelled:
        v.at("tournament", seq, f"game {gid} is reported but has not ended")
        return False
    if result_of(finished[-1]["data"]["scores"] if finished else None, table["seats"]) != data["result"]:
        v.at("tournament", seq, f"the reported result differs from game {gid}'s final scores")
        return False
    return True


def derived_ids(state: dict, data: dict) -> list[str]:
    """The game ids of a RoundPaired's tables derived from (tournament, round, table), as the code
    since 93861e7 names them."""
    return [game_id_for(state["tournament"], data["round"], i) for i in range(len(data["tables"]))]


# -- the generations of the tournament log ----------------------------------------------------------

LATER_SETTINGS = ("clock", "start_at", "organizer")
"""The settings every TournamentCreated names (each may be null) since 93861e7, and none before."""

FIRST_GENERATION_EVENTS = frozenset({"TournamentCreated", "EntrantRegistered", "EntrantWithdrew", "RoundPaired",
                                     "GameFinished", "RoundCompleted", "SeedRevealed", "TournamentFinished"})
"""The event types the first generation's code wrote."""


def generation(created: dict) -> int | None:
    """The generation of a tournament log, from its TournamentCreated's data: 1 for the code of
    2026-11-23 12:25-16:52 (d46d871 up to 93861e7), which named none of LATER_SETTINGS; 2 since,
    naming all of them; None (no generation) for a log naming some."""
    named = [key in created for key in LATER_SETTINGS]
    return 2 if all(named) else 1 if not any(named) else None


# A server that ran the first generation's code may have been upgraded with a tournament under way
# (the code since 93861e7 reads and advances such a log), so a first-generation log may go on in the
# later shapes. Its events are checked by the rules of the code that wrote them: the first
# generation's until the first event only later code wrote (_written_later), the current ones from
# there on, since code never went back.

def _written_later(state: dict, ev: dict) -> bool:
    """Is ``ev``, in a first-generation log, in a shape only the code since 93861e7 wrote?"""
    kind, data = ev["type"], ev["data"]
    if kind == "RoundPaired":
        ids = [t.get("game_id") for t in data.get("tables") or []]
        return bool(ids) and ids == derived_ids(state, data)
    if kind == "GameFinished":
        return isinstance(data.get("result"), dict) and "outcome" in data["result"]
    if kind == "EntrantRegistered":
        return bool((data.get("entrant") or {}).get("player"))  # player entrants came with 93861e7
    if kind == "EntrantWithdrew":
        return "from_round" in data
    return kind not in FIRST_GENERATION_EVENTS


def _drawn_ids(state: dict, data: dict, seq: int, v: BundleVerdict) -> bool:
    """A first-generation round names the games the game service created for its tables before it
    was logged, under ids it drew: each a game of its own, paired at no other table (the game's seats
    are checked at its report, its chain head and result against the report)."""
    ids = [t["game_id"] for t in data["tables"]]
    before = {t["game_id"] for r in state["rounds"] for t in r["tables"]}
    again = next((gid for i, gid in enumerate(ids) if gid in before or gid in ids[:i]), None)
    if again is not None:
        v.at("tournament", seq, f"round {data['round']} names game {again}, which another table plays already")
        return False
    return True


def _first_result(scores: dict | None, seats: list[str]) -> dict | None:
    """A table's result as the first generation reported it: the places and scores of the game's
    final score board, no outcome; it reported only a game that finished (None otherwise)."""
    if scores is None:
        return None
    lines = {line["seat"]: line for line in scores["seats"]}
    return {"places": {e: lines[i]["place"] for i, e in enumerate(seats)},
            "scores": {e: lines[i]["total"] for i, e in enumerate(seats)}}


def _seats_match(state: dict, seats: list[str], created: dict) -> bool:
    """Seat ``i`` of the game (its GameCreated roster) is entrant ``seats[i]``: its bot under
    its name, or a seat reserved for its player."""
    roster = (created.get("data") or {}).get("seats") or []
    by_id = {e["id"]: e for e in state["entrants"]}
    if created.get("type") != "GameCreated" or len(roster) != len(seats):
        return False
    for seat, eid in zip(roster, seats):
        e = by_id[eid]
        if e.get("player") and seat.get("reserved") != e["player"]:
            return False
        if not e.get("player") and (seat.get("bot"), seat.get("name")) != (e["bot"], e["name"]):
            return False
    return True


def _check_completed(state: dict, data: dict, seq: int, v: BundleVerdict) -> bool:
    """The round being played completes once no table waits (TRN-DIR-2), with the standings its results
    give then: the live standings a client showed, checked like the final ones."""
    config, current = config_of(state), state["rounds"][-1] if state["rounds"] else None
    if current is None or data["round"] != current["round"] or current["completed"]:
        v.at("tournament", seq, f"round {data['round']} is completed, but it is not the round being played")
        return False
    if any(waits(config, table) for table in current["tables"]):
        v.at("tournament", seq, f"round {data['round']} is completed before every table has its result")
        return False
    if data["standings"] != standings(config, state["entrants"], pairing_view(state["rounds"])):
        v.at("tournament", seq, f"round {data['round']} is completed with standings other than its results give")
        return False
    return True


def _last_round_completed(state: dict, what: str, seq: int, v: BundleVerdict) -> bool:
    """Rounds follow one another: the next is paired, or the tournament finishes, after a RoundCompleted."""
    last = state["rounds"][-1] if state["rounds"] else None
    if last is not None and not last["completed"]:
        v.at("tournament", seq, f"{what} before round {last['round']} is completed")
        return False
    return True


def _check_final(state: dict, data: dict, seq: int, v: BundleVerdict) -> bool:
    config, rounds = config_of(state), pairing_view(state["rounds"])
    if not _last_round_completed(state, "TournamentFinished", seq, v):
        return False
    if not is_complete(config, state["entrants"], rounds):
        v.at("tournament", seq, "TournamentFinished before the format was complete")
        return False
    if data["standings"] != standings(config, state["entrants"], rounds):
        v.at("tournament", seq, "the final standings do not follow from the results")
        return False
    v.standings = data["standings"]
    v.game_heads = {t["game_id"]: t["chain_head"] for r in state["rounds"] for t in r["tables"]}
    return True


def verify_any(lines: Iterable[str | bytes], keys: attestation.Keys | None = None,
               expect_head: str | None = None) -> Verdict:
    """A game export or a tournament bundle, told apart by the first line."""
    lines = list(lines)
    first = next((line for line in lines if line.strip()), b"")
    if opens_bundle(first):
        return verify_bundle(lines, keys)
    return verify(lines, keys, expect_head)


def opens_bundle(line: str | bytes) -> bool:
    """Does a first line open a bundle: its header, or TournamentCreated where the header went missing
    (else the file is a game export)?"""
    try:
        head = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or an integer past the digits Python reads
        return False
    return isinstance(head, dict) and (head.get("bundle") == "delve-tournament"
                                       or head.get("type") == "TournamentCreated")
