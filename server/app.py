"""The Flask application factory.

``create_app()`` reads the environment (see application/runtime.py); tests pass a
ready GameService instead. gunicorn: ``server.app:create_app()``.
"""
from __future__ import annotations

import os

from flask import Flask

from application.runtime import service_from_env
from application.service import GameService
from server import cors, errors, metrics, streams
from server.routes import audit, catalog, games, lobby, me, ops, players, tournaments
from server.web import bp as web_bp


def create_app(service: GameService | None = None, **config) -> Flask:
    app = Flask(__name__)
    app.config.update(
        RATE_LIMIT=int(os.environ.get("DELVE_RATE_LIMIT", "200")),
        # Below redis-py's 5 s default socket timeout, so a quiet stream sends keep-alives.
        SSE_BLOCK_MS=int(os.environ.get("DELVE_SSE_BLOCK_MS", "4000")),
        # Verifying costs CPU in proportion to the upload: capped, and rate-limited per client.
        MAX_EXPORT_BYTES=int(os.environ.get("DELVE_MAX_EXPORT_BYTES", str(8 * 1024 * 1024))),
        VERIFY_PER_MINUTE=int(os.environ.get("DELVE_VERIFY_PER_MINUTE", "12")),
        MAX_CONTENT_LENGTH=int(os.environ.get("DELVE_MAX_BODY_BYTES", str(33 * 1024 * 1024))),
        CORS_ORIGINS=os.environ.get("DELVE_CORS_ORIGINS", ""),
        # Stream caps per process, client and game, a stream's longest life, the body deadline
        # (server/streams.py; docs/reliability.md).
        SSE_MAX_STREAMS=int(os.environ.get("DELVE_SSE_MAX_STREAMS", "256")),
        SSE_MAX_PER_CLIENT=int(os.environ.get("DELVE_SSE_MAX_PER_CLIENT", "8")),
        SSE_MAX_PER_GAME=int(os.environ.get("DELVE_SSE_MAX_PER_GAME", "64")),
        SSE_MAX_SECONDS=float(os.environ.get("DELVE_SSE_MAX_SECONDS", "300")),
        BODY_TIMEOUT=float(os.environ.get("DELVE_BODY_TIMEOUT", "10")),
    )
    app.config.update(config)
    app.extensions["delve.streams"] = streams.StreamSlots(
        app.config["SSE_MAX_STREAMS"], app.config["SSE_MAX_PER_CLIENT"], app.config["SSE_MAX_PER_GAME"])
    app.wsgi_app = streams.BodyDeadline(app.wsgi_app, app.config["BODY_TIMEOUT"])
    app.extensions["delve.service"] = service or service_from_env()
    errors.install(app)
    cors.install(app)
    metrics.install(app, app.extensions["delve.service"].store)
    for module in (catalog, games, audit, ops, players, lobby, me, tournaments):
        app.register_blueprint(module.bp)
    app.register_blueprint(web_bp)
    return app
