"""The browser viewer: a lobby, a live / replay page for one game, a tournament page and a player page.

The pages are static HTML plus vanilla JavaScript that calls the public /v1
API from the browser, exactly as a third-party client would; nothing here
reads the store. That keeps the viewer honest (a dispute is settled with the
same endpoints anyone can call) and the server free of view logic. No CDN
and no build step: every asset is served from ``static/`` below.
"""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, redirect, render_template, send_from_directory, url_for

from errors import ApiError


STATIC = Path(__file__).with_name("static")
MAX_ID = 64  # openapi.yaml's TournamentId
MAX_PLAYER_ID = 40  # and getPlayer's player_id

bp = Blueprint("web", __name__, url_prefix="/web", template_folder="templates")
# The server's own address: a person who opens it (the address `delve serve` prints) meets the lobby.
home = Blueprint("home", __name__)


@home.get("/")
def root():
    return redirect(url_for("web.lobby"))


@bp.after_request
def no_referrer(resp):
    """A seat link carries its token in the fragment (#token=...), which browsers never send;
    no Referer at all leaves nothing of a page's address to the sites it links to."""
    resp.headers["Referrer-Policy"] = "no-referrer"
    return resp


@bp.get("")
def lobby():
    return render_template("web/lobby.html")


@bp.get("/")
def lobby_slash():
    """``/web/`` is the lobby too (typed or linked with the slash, it was a 404)."""
    return redirect(url_for("web.lobby"))


@bp.get("/games/<game_id>")
def viewer(game_id: str):
    """The viewer page; the script loads the game, so an unknown id is reported in the page."""
    return render_template("web/viewer.html", game_id=game_id)


@bp.get("/replay")
def replay():
    """Open a saved export and replay it in the browser, offline (static/offline.js): no call to any server
    but those the page makes when it loads, for this server's public keys and its catalog (each game's
    renderer and components, which name the players and actors as the live pages do)."""
    return render_template("web/replay.html")


@bp.get("/tournaments/<tournament_id>")
def tournament(tournament_id: str):
    """Standings, rounds and links to the games; the script loads it, so an unknown id is reported
    in the page. An id longer than any tournament's (the API's limit) names none: a 404 here."""
    if len(tournament_id) > MAX_ID:
        raise ApiError(404, "tournament_not_found", f"no tournament id is longer than {MAX_ID} characters")
    return render_template("web/tournament.html", tournament_id=tournament_id)


@bp.get("/players/<player_id>")
def player(player_id: str):
    """A player's ratings and public games; the script loads them, so an unknown id is reported in the page."""
    if len(player_id) > MAX_PLAYER_ID:
        raise ApiError(404, "player_not_found", f"no player id is longer than {MAX_PLAYER_ID} characters")
    return render_template("web/player.html", player_id=player_id)


@bp.get("/ratings")
@bp.get("/ratings/<game>")
def ratings(game: str = ""):
    """A game's leaderboard (the script reads GET /v1/ratings/<game>); without a game, the catalog's games."""
    if len(game) > MAX_PLAYER_ID:
        raise ApiError(404, "unknown_game", f"no game id is longer than {MAX_PLAYER_ID} characters")
    return render_template("web/ratings.html", game=game)


@bp.get("/static/<name>")
def asset(name: str):
    """One script or stylesheet of the viewer (a flat folder: no sub-paths). Revalidated on every use
    (``no-cache`` with an ETag: a 304 while unchanged), never kept for a while: the scripts import
    one another, and after an upgrade a browser holding some of them would run old and new together."""
    response = send_from_directory(STATIC, name, max_age=0)
    response.cache_control.no_cache = True
    return response
