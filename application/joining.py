"""Joining, leaving and cancelling a game that waits for players.

Each step is an event in the game's own chain (``SeatTaken``, ``SeatLeft``,
``GameCancelled``), appended with the version it was decided at, so two
players racing for the last seat cannot both get it: the loser's append
conflicts, it re-reads the roster and takes another seat or is told there is
none. The join that fills the last seat appends, in the same batch,
``GameStarted`` and the game's start events dealt with the derived seed
(``application.seeding``): there is no moment when the table is full and undealt.
"""
from __future__ import annotations

import hmac
import json

from domain.core import Drbg, Illegal, Seat, fold
from domain.kit import START_STREAM
from errors import Forbidden, VersionConflict
from application import clocks, seating, seeding
from application.players import Player
from application.access import ADMIN
from application.loaded import Loaded
from application.service import GameService
from application.status import GameStatus
from application.tokens import hash_token

RETRIES = 8  # appends lost to concurrent joins before giving up with a 409


def _waiting(g: Loaded) -> list[dict]:
    if g.meta["status"] != GameStatus.OPEN:
        raise Illegal("game_not_open", None, f"the game is {g.meta['status']}: seats change only while it is open")
    return json.loads(g.meta["seats"])


def _append(svc: GameService, game_id: str, kind: str, step) -> tuple[Loaded, list[dict], dict]:
    """Decide a lobby step on the current roster and append it; re-decide after a lost race.

    ``step(g) -> (events, meta, stamp fields, extra)``; raises VersionConflict
    (409) only after RETRIES lost races in a row.
    """
    for _ in range(RETRIES):
        g = svc.load(game_id)
        events, meta, stamp, extra = step(g)
        try:
            envs, _ = svc.repo.append(g, events, command_id=f"{kind}:{game_id}:{g.version}", meta=meta,
                                      stamp=stamp)
        except VersionConflict:
            continue
        svc.project_lobby(game_id)
        return g, envs, extra
    raise VersionConflict(svc.store.version(game_id))


def join(svc: GameService, game_id: str, player: Player, seat: int | None = None,
         entropy: str | None = None, invite: str | None = None) -> dict:
    """Take a seat for ``player``; the last seat taken starts the game. Returns ``{seat, version, status}``.

    A private game seats only its creator, a player a seat is reserved for, or one who shows its
    ``invite`` token.
    """
    value = seeding.entropy(entropy)

    def step(g: Loaded):
        _may_sit(g, json.loads(g.meta["seats"]), player, invite)  # before anything about the game is told
        seats = _waiting(g)
        index = seating.choose(seats, player.id, seat)
        taken = {"seat": index, "player": player.id, "name": player.name, "entropy": value}
        seats = seating.take(seats, taken)
        events = [{"type": "SeatTaken", "data": taken}]
        meta = {"seats": json.dumps(seats)}
        dealt = None
        if not seating.waiting(seats):
            began = seating.started(seats)
            seed = seeding.derive(bytes.fromhex(g.meta["server_seed"]),
                                  [bytes.fromhex(e["value"]) for e in began["entropy"]])
            options = svc.store.read(game_id, after=0, limit=1)[0]["data"]["options"]
            start = g.game.start(options, [Seat.from_dict(s) for s in began["seats"]], Drbg(seed, START_STREAM))
            events += [{"type": "GameStarted", "data": began}, *start]
            dealt = fold(g.game, start)
            version = g.version + len(events)
            meta.update(status=GameStatus.ACTIVE, seed=seed.hex(), started_version=str(version),
                        **clocks.at_start(json.loads(g.meta["clock_control"]) if g.meta.get("clock_control") else None,
                                          len(seats), g.game.active_seats(dealt), version))
        stamp = ("started_at",) if dealt is not None else ()
        return events, meta, stamp, {"seat": index, "dealt": dealt, "status": meta.get("status", GameStatus.OPEN)}

    g, envs, out = _append(svc, game_id, "join", step)
    version = envs[-1]["seq"]
    svc.players.note_game(player.id, game_id, g.meta["created_at"])
    svc.invitations.remove(player.id, game_id)  # a reserved seat taken: its invitation is answered
    return {"seat": out["seat"], "version": version, "status": out["status"]}


def _may_sit(g: Loaded, seats: list[dict], player: Player, invite: str | None) -> None:
    if _insider(g, seats, player):
        return
    if not (invite and g.meta.get("invite") and hmac.compare_digest(hash_token(invite), g.meta["invite"])):
        raise Forbidden("private_game", "this game is private: send its invite token as `invite` to join it")


def _insider(g: Loaded, seats: list[dict], player: Player) -> bool:
    """Whether ``player`` may know of this game: it is public, or they created it, sit or are expected in it."""
    return g.meta.get("visibility") != "private" or g.meta.get("creator") == player.id \
        or any(s.get("reserved") == player.id or s.get("player") == player.id for s in seats)


def _may_see(g: Loaded, player: Player) -> None:
    if not _insider(g, json.loads(g.meta["seats"]), player):
        raise Forbidden("private_game", "this game is private and this player has no part in it")


def leave(svc: GameService, game_id: str, player: Player) -> dict:
    """Give up ``player``'s seat before the start; a reserved seat stays reserved for it."""

    def step(g: Loaded):
        _may_see(g, player)
        seats = _waiting(g)
        index = seating.seat_of(seats, player.id)
        if index is None:
            raise Illegal("not_seated", None, "this player holds no seat of this game")
        gone = {"seat": index, "player": player.id}
        return ([{"type": "SeatLeft", "data": gone}],
                {"seats": json.dumps(seating.leave(seats, gone))}, (), {"seat": index})

    _g, envs, out = _append(svc, game_id, "leave", step)
    svc.players.forget_game(player.id, game_id)
    return {"seat": out["seat"], "version": envs[-1]["seq"], "status": GameStatus.OPEN}


def decline(svc: GameService, game_id: str, player: Player) -> dict:
    """The player a seat is reserved for says no: the game, which could only start with them, is
    cancelled (status ``aborted``, ``GameCancelled`` by that player) and the invitation dropped."""

    def step(g: Loaded):
        _may_see(g, player)
        seats = _waiting(g)
        if not any(s.get("open") and s.get("reserved") == player.id for s in seats):
            raise Illegal("not_invited", None, "no seat of this game waits for this player")
        return ([{"type": "GameCancelled", "data": {"by": player.id}},
                 {"type": "SeedRevealed", "data": seeding.revealed(g.meta)}],
                {"status": GameStatus.ABORTED}, ("finished_at",), {})

    try:
        _g, envs, _ = _append(svc, game_id, "decline", step)
    finally:
        svc.invitations.remove(player.id, game_id)
    return {"version": envs[-1]["seq"], "status": GameStatus.ABORTED}


def cancel(svc: GameService, game_id: str, caller: Player | int | None) -> dict:
    """End an open game before the start (its creator or the admin): status ``aborted``.

    The server seed is revealed at once: nothing was dealt with it, and the
    export can then be verified like any finished game's.
    """
    by = caller.id if isinstance(caller, Player) else "admin" if caller == ADMIN else None

    def step(g: Loaded):
        if isinstance(caller, Player):
            _may_see(g, caller)
        _waiting(g)
        if by is None or (by != "admin" and by != g.meta.get("creator")):
            raise Forbidden("not_creator", "only the player who created this game (or the admin) may cancel it")
        return ([{"type": "GameCancelled", "data": {"by": by}},
                 {"type": "SeedRevealed", "data": seeding.revealed(g.meta)}],
                {"status": GameStatus.ABORTED}, ("finished_at",), {})

    _g, envs, _ = _append(svc, game_id, "cancel", step)
    return {"version": envs[-1]["seq"], "status": GameStatus.ABORTED}
