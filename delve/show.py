"""`delve show` and `delve diff`: a game's position at any move, and where two records part,
from export files alone (no server).

    $ delve show game.ndjson --move 30
    saboteur g1f3a… (rules saboteur-1), 115 moves; players: ann (seat 0), bob (seat 1), cy (seat 2)
    move 30 of 115 · 2026-11-23T12:08:10.104Z · ann (seat 0): Play P13 (tee-new) at (6,2) · seq 101-103
    ...the position after it, as seat/spectator sees it...
"""
from __future__ import annotations

from domain import registry
from domain.core import canonical_json
from delve.record import Record, readable


def header(r: Record) -> str:
    players = ", ".join(r.seat_name(i) + (f" [bot {s['bot']}]" if s.get("bot") else "") for i, s in enumerate(r.seats))
    return (f"{r.created['game']} {r.game_id} (rules {r.game.rules_version}), {len(r.moves)} moves; "
            f"players: {players}")


def move_line(r: Record, n: int) -> str:
    if n == 0:
        return f"move 0 of {len(r.moves)} · the deal, before any move"
    m = r.moves[n - 1]
    seqs = f"seq {m.first_seq}" if m.first_seq == m.last_seq else f"seq {m.first_seq}-{m.last_seq}"
    return f"move {n} of {len(r.moves)} · {m.at} · {r.seat_name(m.seat, m.actor)}: {m.label} · {seqs}"


def position(r: Record, n: int, seat: int | None) -> dict:
    """What ``show --json`` prints: the move, its events, the view of ``seat`` (None: a spectator's)
    and the scores after move ``n``."""
    state = r.state_after(n)
    m = r.moves[n - 1] if n else None
    return {"game": r.created["game"], "game_id": r.game_id, "rules_version": r.game.rules_version,
            "moves": len(r.moves), "move": m.to_dict(with_events=True) if m else {"move": 0},
            "seat": seat, "view": r.game.view(state, seat), "scores": r.game.scores(state).to_dict()}


def text(r: Record, n: int, seat: int | None) -> str:
    pos = position(r, n, seat)
    lines = [header(r), move_line(r, n)]
    if n:
        lines += [f"  {e['seq']} {e['type']} {canonical_json(e['data'])[:160]}" for e in pos["move"]["events"]]
    viewer = "a spectator" if seat is None else r.seat_name(seat)
    drawn = _drawn(r, pos["view"])
    lines += ["", f"position after move {n}, as {viewer} sees it:"] + (drawn or readable(pos["view"], 1))
    scores = pos["scores"]
    lines += ["", "scores: " + ", ".join(f"{p['id']} {p['total']}" + (f" (place {p['place']})" if p["place"] else "")
                                         for p in scores["participants"])
              + (f" · outcome {scores['outcome']['kind']}" if scores["final"] else "")]
    return "\n".join(lines)


def _drawn(r: Record, view: dict) -> list[str]:
    """The game's text board of ``view``, drawn by its current rules version (``Game.draw``; a
    frozen version is never edited, and its views have the same shape or close), or nothing for
    a view the drawing does not understand: the fields still show."""
    try:
        return registry.get(r.created["game"]).draw(view)
    except (KeyError, TypeError, ValueError, AttributeError):
        return []


def diff(a: Record, b: Record) -> str:
    """Where two records of one game first differ: the set-up, a move, or one being longer."""
    if a.game_id != b.game_id:
        return f"not records of one game: {a.game_id} and {b.game_id}"
    if canonical_json(a.envs[0]) != canonical_json(b.envs[0]):
        fields = sorted(k for k in set(a.created) | set(b.created) if a.created.get(k) != b.created.get(k))
        return f"the records differ before any move: GameCreated differs in {', '.join(fields) or 'its envelope'}"
    for i, (ma, mb) in enumerate(zip(a.moves, b.moves), start=1):
        if _plain(ma) != _plain(mb):
            return (f"the records differ first at move {i}:\n  A: {move_line(a, i)}\n  B: {move_line(b, i)}\n"
                    f"  {_what_differs(ma, mb)}")
    shared = min(len(a.moves), len(b.moves))
    if len(a.moves) != len(b.moves):
        longer, name = (a, "A") if len(a.moves) > len(b.moves) else (b, "B")
        return (f"identical through move {shared}; {name} goes on to move {len(longer.moves)} "
                f"(next: {move_line(longer, shared + 1)})")
    rest_a, rest_b = [e for e in a.envs if e["seq"] > _last(a)], [e for e in b.envs if e["seq"] > _last(b)]
    if [canonical_json(e) for e in rest_a] != [canonical_json(e) for e in rest_b]:
        return f"identical through all {shared} moves; the ending differs (seed reveal or final scores)"
    for ea, eb in zip(a.envs, b.envs):
        if canonical_json(ea) != canonical_json(eb):
            keys = sorted(k for k in ea.keys() | eb.keys() if k not in ea or k not in eb or ea[k] != eb[k])
            return (f"the moves and events agree, but the envelopes of seq {ea.get('seq')} differ in "
                    f"{', '.join(keys)}")
    return f"the records are identical: {shared} moves, {len(a.envs)} events, head {a.envs[-1].get('hash')}"


def _last(r: Record) -> int:
    return r.moves[-1].last_seq if r.moves else 0


def _plain(m) -> list[str]:
    return [canonical_json({k: e.get(k) for k in ("seq", "type", "data", "seat", "command", "command_id", "at")})
            for e in m.events]


def _what_differs(ma, mb) -> str:
    for k in ("seat", "command", "command_id", "at"):
        if getattr(ma, k) != getattr(mb, k):
            return f"{k}: {canonical_json(getattr(ma, k))} vs {canonical_json(getattr(mb, k))}"
    return "the events it caused differ"
