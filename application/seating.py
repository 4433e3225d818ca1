"""The roster of a game that waits for players: open seats, reservations, joins and leaves.

A seat at creation is one of three things: taken by a named seat as before
(``{"name", "bot"?, "level"?}``: ``named_bot``), left open (``{"open": true}``), or reserved for one
player (``{"player": id}``). The roster is a list of seat dicts; an untaken
seat carries ``open: true`` (and ``reserved`` when only one player may take
it), a taken one its ``player`` and the ``entropy`` that player sent.

The same pure functions fold the live lobby (``application.joining``) and the
replay of an export (:func:`opening`), so the verifier checks the very rules
the server applied: a seat is taken only while open and only by the player it
is reserved for, a player holds at most one seat, and ``GameStarted`` names
exactly the roster the joins produced and the seed derived from it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from domain.core import Illegal, Seat
from domain.kit import search
from errors import BadOpening
from application import seeding
from application.names import display_name

LOBBY_EVENTS = frozenset({"SeatTaken", "SeatLeft", "GameStarted", "GameCancelled"})


def named_bot(index: int, spec: dict) -> dict:
    """A seat spec with its ``bot`` and ``level`` as one bot id: ``{"bot": "search", "level":
    "hard"}`` seats ``search-hard`` (``domain.kit.search.parse_bot``); a bad level raises
    Illegal(bad_bot_level)."""
    if spec.get("bot") is None and spec.get("level") is None:
        return spec
    try:
        bot = search.parse_bot(spec.get("bot"), spec.get("level"))
    except Illegal as exc:
        raise Illegal(exc.code, exc.rule, f"seat {index}: {exc.message}") from exc
    return {**{k: v for k, v in spec.items() if k != "level"}, "bot": bot}


def roster(specs: list[dict], player_exists) -> list[dict]:
    """The roster at creation from the request's seat specs (``player_exists(id) -> bool``)."""
    out = []
    for i, spec in enumerate(specs):
        if spec.get("player") is not None:
            if not player_exists(spec["player"]):
                raise Illegal("unknown_player", None, f"seat {i}: no player {spec['player']!r}; "
                              "create one with POST /v1/players")
            out.append(_untaken(i, spec["player"]))
        elif spec.get("open"):
            out.append(_untaken(i, None))
        elif spec.get("name"):
            out.append(Seat(i, display_name(spec["name"], 40, f"seat {i}'s name", "bad_seat"), spec.get("bot")).to_dict())
        else:
            raise Illegal("bad_seat", None, f"seat {i}: give a name (and bot), open: true, or a player id")
    return out


def _untaken(index: int, reserved: str | None) -> dict:
    seat = {"seat": index, "name": "", "bot": None, "open": True}
    if reserved:
        seat["reserved"] = reserved
    return seat


def waiting(seats: list[dict]) -> bool:
    return any(s.get("open") for s in seats)


def seat_of(seats: list[dict], player: str) -> int | None:
    return next((s["seat"] for s in seats if s.get("player") == player), None)


def choose(seats: list[dict], player: str, wanted: int | None) -> int:
    """The seat ``player`` takes: the one asked for, else its reservation, else the first open one."""
    if seat_of(seats, player) is not None:
        raise Illegal("already_seated", None, "this player already holds a seat of this game")
    if wanted is not None:
        if not 0 <= wanted < len(seats):
            raise Illegal("no_such_seat", None, f"seats run from 0 to {len(seats) - 1}")
        seat = seats[wanted]
        if not seat.get("open"):
            raise Illegal("seat_taken", None, f"seat {wanted} is taken; leave out 'seat' to take any open one")
        if seat.get("reserved") not in (None, player):
            raise Illegal("seat_reserved", None, f"seat {wanted} is reserved for another player")
        return wanted
    mine = [s["seat"] for s in seats if s.get("open") and s.get("reserved") == player]
    free = [s["seat"] for s in seats if s.get("open") and not s.get("reserved")]
    if not mine and not free:
        raise Illegal("no_open_seat", None, "every seat of this game is taken or reserved for someone else")
    return (mine or free)[0]


def take(seats: list[dict], data: dict) -> list[dict]:
    """Fold ``SeatTaken {seat, player, name, entropy}``."""
    i = data["seat"]
    old = seats[i]
    out = list(seats)
    out[i] = {"seat": i, "name": data["name"], "bot": None, "player": data["player"],
              "entropy": data.get("entropy") or ""}
    if old.get("reserved"):
        out[i]["reserved"] = old["reserved"]
    return out


def leave(seats: list[dict], data: dict) -> list[dict]:
    """Fold ``SeatLeft {seat, player}``: the seat is open again (and still reserved if it was)."""
    i = data["seat"]
    out = list(seats)
    out[i] = _untaken(i, seats[i].get("reserved"))
    return out


def started(seats: list[dict]) -> dict:
    """The data of ``GameStarted``: the table the game is dealt for and every seat's entropy."""
    return {"seats": [Seat.from_dict(s).to_dict() for s in seats],
            "entropy": [{"seat": s["seat"], "value": s.get("entropy", "")} for s in seats]}


# -- replay -------------------------------------------------------------------------


@dataclass
class Opening:
    """Where a replay starts: the table, the DRBG seed, the recorded start events."""

    seats: list[Seat]
    seed: bytes
    start: list[dict]  # the envelopes ``game.start`` must reproduce
    version: int  # the seq after which commands are decided
    rest: list[list[dict]] = field(default_factory=list)  # the batches after the start
    dealt: bool = True


def opening(info: dict, batches: list[list[dict]], server_seed: bytes, revealed: dict) -> Opening:
    """Re-run the lobby of an export up to its start; raises BadOpening where it breaks.

    A game created with every seat taken starts in its first batch with the
    server seed itself (the games before open seats existed); one that waited
    for players starts at ``GameStarted`` with the derived seed.
    """
    first = batches[0]
    if not waiting(info["seats"]):
        return Opening([Seat.from_dict(s) for s in info["seats"]], server_seed, first[1:], first[-1]["seq"],
                       batches[1:])
    if len(first) != 1:
        raise BadOpening(first[1]["seq"], "events were dealt before GameStarted")
    seats = info["seats"]
    for n, batch in enumerate(batches[1:], start=1):
        for i, env in enumerate(batch):
            kind, data = env.get("type"), env.get("data") or {}
            if kind == "SeatTaken":
                _check_take(seats, data, env["seq"])
                seats = take(seats, data)
            elif kind == "SeatLeft":
                if seats[data["seat"]].get("player") != data.get("player"):
                    raise BadOpening(env["seq"], "SeatLeft for a seat that player does not hold")
                seats = leave(seats, data)
            elif kind == "GameStarted":
                if waiting(seats) or data != started(seats):
                    raise BadOpening(env["seq"], "GameStarted does not match the seats the joins filled")
                seed = seeding.derive(server_seed, [bytes.fromhex(e["value"]) for e in data["entropy"]])
                if revealed.get("game_seed") not in (None, seed.hex()):
                    raise BadOpening(None, "the revealed game seed is not HMAC(server seed, entropies)")
                return Opening([Seat.from_dict(s) for s in data["seats"]], seed, batch[i + 1:], batch[-1]["seq"],
                               batches[n + 1:])
            elif kind == "GameCancelled":
                return Opening([], server_seed, [], env["seq"], batches[n + 1:], dealt=False)
            elif kind != "SeedRevealed":
                raise BadOpening(env.get("seq"), f"{kind!r} before the game started")
    return Opening([], server_seed, [], batches[-1][-1]["seq"], [], dealt=False)


def _check_take(seats: list[dict], data: dict, seq: int) -> None:
    i = data.get("seat")
    if not isinstance(i, int) or not 0 <= i < len(seats):
        raise BadOpening(seq, "SeatTaken names no seat of the game")
    try:
        if choose(seats, data.get("player"), i) != i:
            raise BadOpening(seq, "SeatTaken took another seat")
        seeding.entropy(data.get("entropy"))
    except Illegal as exc:
        raise BadOpening(seq, f"SeatTaken breaks the lobby: {exc.code}") from exc
