"""Clocks: a time control per game, kept by the platform so the domain stays pure.

A game may be created with ``clock``: Fischer (``{"initial_s", "increment_s"}``)
or a fixed time per move (``{"per_move_s"}``), and ``on_timeout``:

- ``forfeit``: the platform issues the ``timeout`` platform command for the
  seat (``Game.decide_platform`` says what it means: the kit's default ends
  the game with that seat placed last);
- ``autoplay``: the seat's default bot (the game's first) makes that move,
  and the seat keeps playing.

A *move* is one accepted batch. Each batch writes, in the same atomic append,
a clock record (``meta["clock"]``): the remaining times at the previous batch,
that batch's stamp, the seats that were to act, the mover and the seats to act
now. The append stamps the batch with Redis's time (``meta["at"]``, the
envelopes' ``at``); :func:`resolve` charges the seats that were to act the
time between the two stamps and gives the mover its increment (Fischer) or a
fresh allowance (per move). So the remaining times follow from the events'
stamps and the control alone, whatever the clock of the process that decided.

The deadline of a version is ``since + the least remaining time of the seats
to act``. A timer (``workers.table``'s ``clock`` kind, ``workers.timers``,
``clock <game> <version>``) calls :func:`expire` then; it appends ``TimeExpired
{seat, policy}`` and the policy's events only if the game is still at that
version and the time has really run out. A move that lands first moves the
version, so the timer finds nothing to do, and a timer run twice finds the
version moved by its first run.

Late is judged by the recorded times, not by when the platform got round to
it (an outage, a crash): a command that reaches the service after the
deadline is refused and the timeout applied first (``GameService``), and the
timeout's record charges the seats to act up to the deadline (``until``), not
up to the timeout's own stamp, so the time between the two is nobody's.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone

from application.status import GameStatus
from domain.core import Drbg, Illegal, fold
from domain.kit import bot_choice, command_stream
from errors import VersionConflict

POLICIES = ("forfeit", "autoplay")
MAX_SECONDS = 7 * 24 * 3600


def control(spec: dict | None, game) -> dict | None:
    """The time control of a create request, checked; None for a game without a clock."""
    if spec is None:
        return None
    if not isinstance(spec, dict):
        raise Illegal("bad_clock", None, "clock is an object")
    policy = spec.get("on_timeout", "forfeit")
    kinds = {k for k in spec if k != "on_timeout"}
    if kinds == {"per_move_s"}:
        out = {"per_move_s": _seconds(spec, "per_move_s", 1)}
    elif kinds in ({"initial_s"}, {"initial_s", "increment_s"}):
        out = {"initial_s": _seconds(spec, "initial_s", 1), "increment_s": _seconds(spec, "increment_s", 0)}
    else:
        raise Illegal("bad_clock", None, "clock is {initial_s, increment_s?} (Fischer) or {per_move_s}, "
                      "with on_timeout 'forfeit' or 'autoplay'")
    if policy not in POLICIES:
        raise Illegal("bad_clock", None, f"on_timeout is one of {list(POLICIES)}")
    if policy == "autoplay" and not game.bots:
        raise Illegal("bad_clock", None, f"{game.title} has no bot to play a seat that runs out of time")
    if policy == "forfeit" and not callable(getattr(game, "decide_platform", None)):
        raise Illegal("bad_clock", None, f"{game.title} does not define a timeout; use on_timeout 'autoplay'")
    return {**out, "on_timeout": policy}


def _seconds(spec: dict, key: str, least: int) -> int:
    value = spec.get(key, 0)
    if type(value) is not int or not least <= value <= MAX_SECONDS:
        raise Illegal("bad_clock", None, f"{key} is a whole number of seconds, {least}-{MAX_SECONDS}")
    return value


def _ms(stamp: str) -> int:
    return int(datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() * 1000)


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_iso() -> str:
    """This process's clock, for what is not stamped by an append (player accounts, a clock job's check)."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def start(ctl: dict, seats: int, active: set[int], version: int) -> dict:
    """The record of the batch that deals the game: every seat's full allowance, the first seats to act."""
    full = 1000 * ctl.get("initial_s", ctl.get("per_move_s", 0))
    return {"base": [full] * seats, "since": None, "ran": [], "mover": None, "active": sorted(active),
            "version": version}


def resolve(ctl: dict, record: dict, at: str) -> list[int]:
    """Each seat's remaining ms at ``at``, the stamp of the batch that wrote ``record``.

    The seats that were to act (``ran``) are charged the time from the previous
    batch's stamp (``since``) to this one's, or to ``until`` if the record has
    one (a timeout: its deadline); the mover gains its increment (Fischer) or a
    fresh allowance (per move), as do seats newly to act.
    """
    remaining = list(record["base"])
    if record["since"] is not None:
        end = _ms(at) if record.get("until") is None else min(_ms(at), record["until"])
        elapsed = max(0, end - _ms(record["since"]))
        for seat in record["ran"]:
            remaining[seat] = max(0, remaining[seat] - elapsed)
    mover = record["mover"]
    if "per_move_s" in ctl:
        for seat in set(record["active"]) | ({mover} - {None}):
            if seat == mover or seat not in record["ran"]:
                remaining[seat] = 1000 * ctl["per_move_s"]
    elif mover is not None and mover in record["ran"]:
        remaining[mover] += 1000 * ctl["increment_s"]
    return remaining


def _now(meta: dict[str, str]) -> tuple[dict, dict, list[int], str] | None:
    """(control, record, remaining at the last batch, that batch's stamp) of a clocked game, else None."""
    record = _record(meta)
    if record is None or not meta.get("clock_control"):
        return None
    ctl = json.loads(meta["clock_control"])
    return ctl, record, resolve(ctl, record, meta["at"]), meta["at"]


def time_left(meta: dict[str, str], seat: int) -> int | None:
    """``seat``'s remaining ms at the game's last batch (None without a clock): it follows from
    the events' stamps and the control alone, so a re-run of a bot's move finds the same
    figure, and so the same thinking budget (``domain.kit.search``)."""
    held = _now(meta)
    return None if held is None else held[2][seat]


def deadline_ms(meta: dict[str, str]) -> int | None:
    """When the first running clock of the game's current version falls (ms since the epoch)."""
    held = _now(meta) if meta.get("status") == GameStatus.ACTIVE else None
    if held is None or not held[1]["active"]:
        return None
    _ctl, record, remaining, since = held
    return _ms(since) + min(remaining[s] for s in record["active"])


def deadline(meta: dict[str, str]) -> datetime | None:
    ms = deadline_ms(meta)
    return None if ms is None else datetime.fromtimestamp(ms / 1000, timezone.utc)


def deadline_iso(meta: dict[str, str]) -> str | None:
    ms = deadline_ms(meta)
    return None if ms is None else iso(ms)


def _record(meta: dict[str, str]) -> dict | None:
    return json.loads(meta["clock"]) if meta.get("clock") else None


def summary(meta: dict[str, str], now_ms: int) -> dict:
    """``clocks: [{seat, remaining_ms}]`` as of now (running clocks counted down) and ``deadline``."""
    held = _now(meta)
    if held is None:
        return {"clocks": [], "deadline": None}
    _ctl, record, remaining, since = held
    running = meta.get("status") == GameStatus.ACTIVE
    elapsed = max(0, now_ms - _ms(since)) if running else 0
    clocks = [{"seat": i, "remaining_ms": max(0, left - (elapsed if running and i in record["active"] else 0))}
              for i, left in enumerate(remaining)]
    return {"clocks": clocks, "deadline": deadline_iso(meta)}


def after_batch(meta: dict[str, str], mover: int | None, active: set[int], version: int,
                until: int | None = None) -> dict[str, str]:
    """The meta fields to write with a batch decided on ``meta`` (nothing for a game without a clock);
    ``until``: charge the seats to act only up to then (ms; a timeout's deadline)."""
    held = _now(meta)
    if held is None:
        return {}
    _ctl, record, remaining, since = held
    return {"clock": json.dumps({"base": remaining, "since": since, "ran": record["active"], "mover": mover,
                                 "active": sorted(active), "version": version,
                                 **({"until": until} if until is not None else {})}),
            "clock_control": meta["clock_control"]}  # unchanged; written again so a batch tells its deadline


def deadline_written(meta: dict[str, str], at: str) -> int | None:
    """The deadline a batch set, from the meta fields it wrote (``after_batch``, ``at_start``) and its stamp."""
    if "clock" not in meta or "clock_control" not in meta:
        return None
    return deadline_ms({**meta, "status": GameStatus.ACTIVE, "at": at})


def at_start(ctl: dict | None, seats: int, active: set[int], version: int) -> dict[str, str]:
    """The meta fields of a game dealt at ``version`` (nothing for a game without a clock)."""
    if ctl is None:
        return {}
    return {"clock_control": json.dumps(ctl), "clock": json.dumps(start(ctl, seats, active, version))}


def expired_seat(meta: dict[str, str], now_ms: int) -> int | None:
    """The seat whose time has run out by ``now_ms`` (the one with least time left), if any."""
    held = _now(meta)
    if held is None or not held[1]["active"]:
        return None
    _ctl, record, remaining, since = held
    seat = min(record["active"], key=lambda s: (remaining[s], s))
    return seat if remaining[seat] - (now_ms - _ms(since)) <= 0 else None


def expire(svc, game_id: str, version: int, now: str) -> dict | None:
    """Apply the timeout policy if ``game_id`` still rests at ``version`` and a clock has fallen by ``now``.

    Returns what was appended, or None (the game moved on, or the time has
    not run out: the job came early or a move landed first).
    """
    g = svc.load(game_id)
    record = _record(g.meta)
    if g.version != version or g.meta["status"] != GameStatus.ACTIVE or record is None or record["version"] != version:
        return None
    seat = expired_seat(g.meta, _ms(now))
    if seat is None or g.game.is_terminal(g.state):
        return None
    ctl = json.loads(g.meta["clock_control"])
    seed = bytes.fromhex(g.meta["seed"])
    rng = Drbg(seed, command_stream(version))
    if ctl["on_timeout"] == "forfeit":
        command = {"type": "timeout"}
        evs = g.game.decide_platform(g.state, seat, command, rng)
    else:
        command = bot_choice(g.game, g.state, seat, next(iter(g.game.bots.values())), seed, version)
        evs = g.game.decide(g.state, seat, command, rng)
    state = fold(g.game, evs, g.state)
    events = [{"type": "TimeExpired", "data": {"seat": seat, "policy": ctl["on_timeout"]}}, *evs]
    active = set() if g.game.is_terminal(state) else g.game.active_seats(state)
    meta = after_batch(g.meta, seat if ctl["on_timeout"] == "autoplay" else None, active, version + len(events),
                       until=deadline_ms(g.meta))
    try:
        envs, _ = svc.repo.append(g, events, state=state, seat=seat, command_id=f"clock:{game_id}:{version}",
                                  command=command, meta=meta)
    except VersionConflict:
        return None  # a move landed first: it stopped this clock
    return {"seat": seat, "policy": ctl["on_timeout"], "version": envs[-1]["seq"]}
