"""/v1/players and /v1/ratings: create a player identity, read a public profile, a game's leaderboard."""
from __future__ import annotations

from flask import Blueprint, current_app

from domain import registry
from application.players import profile
from application.clocks import now_iso
from server import player_schemas as ps
from server import auth, identity, parsing, ratelimit
from server.routes.common import dump, next_link, service

bp = Blueprint("players", __name__, url_prefix="/v1")


@bp.post("/players")
def create_player():
    svc = service()
    who = identity.of(svc)
    ratelimit.check(svc.store, current_app.config["RATE_LIMIT"], who)
    # Tokens are free, so their number is what bounds every per-token quota: per address, whatever the token.
    ratelimit.check(svc.store, current_app.config["PLAYERS_PER_HOUR"], who if who == identity.ADMIN else
                    identity.address(), seconds=3600, what="players created")
    body = parsing.schema(ps.CreatePlayerRequest).load(parsing.json_body(parsing.ACTION_BODY_BYTES))
    player, token = service().players.register(body["name"], now_iso())
    return dump(ps.CreatePlayerResponse, {**player.to_dict(), "token": token}), 201, {
        "Location": f"/v1/players/{player.id}"}


@bp.get("/players/me")
def get_me():
    """The caller's own profile (player token), private games included: who a stored token names."""
    svc = service()
    me = auth.player(svc)
    ratings = svc.ratings.of_player(me.id, registry.available())
    return dump(ps.Profile, profile(svc.players, svc.store, me.id, ratings, svc.ratings.history(me.id), private=True))


@bp.get("/players/<player_id>")
def get_player(player_id: str):
    svc = service()
    ratings = svc.ratings.of_player(player_id, registry.available())
    return dump(ps.Profile, profile(svc.players, svc.store, player_id, ratings, svc.ratings.history(player_id)))


@bp.get("/ratings/<game>")
def leaderboard(game: str):
    """The game's players and bots by ordinal (mu - 3 sigma), best first."""
    registry.get(game)  # an unknown game is a 422 unknown_game, as everywhere
    q = parsing.query(ps.LeaderboardQuery)
    board = service().ratings.leaderboard(game, q["offset"], q["limit"])
    if len(board["players"]) < q["limit"]:  # no total is kept: a full page may have a next one
        return dump(ps.Leaderboard, board)
    return dump(ps.Leaderboard, board), 200, next_link(f"/v1/ratings/{game}", {"offset": q["offset"] + q["limit"],
                                                                               "limit": q["limit"]})
