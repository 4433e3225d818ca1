"""Seats of a game that waits for players: join, leave, and the creator's cancel."""
from __future__ import annotations

from flask import Blueprint, current_app

from application import joining, quotas
from server import auth, identity, parsing, ratelimit
from server.routes.me import too_many_active_games
from server import player_schemas as ps
from server.routes.common import dump, service

bp = Blueprint("lobby", __name__, url_prefix="/v1")


@bp.post("/games/<game_id>/join")
def join(game_id: str):
    svc = service()
    player = auth.player(svc)
    svc.store.meta(game_id)  # 404 before anything about the body
    ratelimit.check(svc.store, current_app.config["RATE_LIMIT"], identity.of(svc))
    body = parsing.schema(ps.JoinRequest).load(parsing.json_body(parsing.ACTION_BODY_BYTES))
    cap = current_app.config["ACTIVE_GAMES_PER_PLAYER"]
    if cap > 0 and quotas.active_games(svc, player.id) >= cap:
        raise too_many_active_games(cap)
    return dump(ps.SeatChange, joining.join(svc, game_id, player, body["seat"], body["entropy"], body["invite"])), 201


@bp.post("/games/<game_id>/leave")
def leave(game_id: str):
    svc = service()
    return dump(ps.SeatChange, joining.leave(svc, game_id, auth.player(svc))), 201


@bp.post("/games/<game_id>/cancel")
def cancel(game_id: str):
    svc = service()
    token = auth.bearer()
    who = svc.players.by_token(token) or svc.authenticate(game_id, token)  # a player, ADMIN, or a seat
    return dump(ps.Cancelled, joining.cancel(svc, game_id, who)), 201
