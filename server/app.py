"""The Flask application factory.

``create_app()`` reads its settings from the environment (``settings``; docs/settings.md); tests pass a
ready GameService instead. gunicorn: ``server.app:create_app()``.
"""
from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from application.runtime import service_from_env
from application.service import GameService
from server import cors, errors, gunicorn_problems, metrics, streams
from server.routes import audit, catalog, games, lobby, me, ops, players, rules, tournaments
from server.web import bp as web_bp, home as home_bp
import settings


def create_app(service: GameService | None = None, **config) -> Flask:
    app = Flask(__name__)
    app.config.update(
        RATE_LIMIT=settings.get("DELVE_RATE_LIMIT"),
        SSE_BLOCK_MS=settings.get("DELVE_SSE_BLOCK_MS"),
        # Verifying costs CPU in proportion to the upload: capped, and rate-limited per client.
        MAX_EXPORT_BYTES=settings.get("DELVE_MAX_EXPORT_BYTES"),
        VERIFY_PER_MINUTE=settings.get("DELVE_VERIFY_PER_MINUTE"),
        MAX_CONTENT_LENGTH=settings.get("DELVE_MAX_BODY_BYTES"),
        CORS_ORIGINS=settings.get("DELVE_CORS_ORIGINS"),
        TRUSTED_PROXIES=settings.get("DELVE_TRUSTED_PROXIES"),
        # Stream caps per process, client and game, a stream's longest life, the body deadline
        # (server/streams.py; docs/reliability.md).
        SSE_MAX_STREAMS=settings.get("DELVE_SSE_MAX_STREAMS"),
        SSE_MAX_PER_GAME=settings.get("DELVE_SSE_MAX_PER_GAME"),
        SSE_MAX_SECONDS=settings.get("DELVE_SSE_MAX_SECONDS"),
        BODY_TIMEOUT=settings.get("DELVE_BODY_TIMEOUT"),
        # Quotas per identity (a valid token's owner, else the address; server/identity.py, docs/settings.md).
        SSE_MAX_PER_CLIENT=settings.get("DELVE_SSE_MAX_PER_CLIENT"),
        SSE_MAX_PER_ADDRESS=settings.get("DELVE_SSE_MAX_PER_ADDRESS"),
        PLAYERS_PER_HOUR=settings.get("DELVE_PLAYERS_PER_HOUR"),
        GAMES_PER_HOUR=settings.get("DELVE_GAMES_PER_HOUR"),
        TOURNAMENTS_PER_HOUR=settings.get("DELVE_TOURNAMENTS_PER_HOUR"),
        ACTIVE_GAMES_PER_PLAYER=settings.get("DELVE_ACTIVE_GAMES_PER_PLAYER"),
    )
    app.config.update(config)
    app.extensions["delve.streams"] = streams.StreamSlots(
        app.config["SSE_MAX_STREAMS"], app.config["SSE_MAX_PER_GAME"])
    app.wsgi_app = streams.BodyDeadline(app.wsgi_app, app.config["BODY_TIMEOUT"])
    if app.config["TRUSTED_PROXIES"]:
        # Outermost, so everything inside (rate limits, quotas, logs) sees the client's address, and only
        # the last TRUSTED_PROXIES hops of X-Forwarded-For are believed: a client cannot forge its own.
        hops = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    app.extensions["delve.service"] = service or service_from_env()
    errors.install(app)
    gunicorn_problems.install()
    cors.install(app)
    metrics.install(app, app.extensions["delve.service"].store)
    for module in (catalog, games, audit, ops, players, lobby, me, tournaments, rules):
        app.register_blueprint(module.bp)
    app.register_blueprint(web_bp)
    app.register_blueprint(home_bp)
    return app
