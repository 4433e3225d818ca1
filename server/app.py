"""The Flask application factory.

``create_app()`` reads the environment (see events/runtime.py); tests pass a
ready GameService instead. gunicorn: ``server.app:create_app()``.
"""
from __future__ import annotations

import os

from flask import Flask

from events.runtime import service_from_env
from events.service import GameService
from server import cors, errors, metrics
from server.routes import audit, catalog, games, lobby, ops, players
from server.web import bp as web_bp


def create_app(service: GameService | None = None, **config) -> Flask:
    app = Flask(__name__)
    app.config.update(
        RATE_LIMIT=int(os.environ.get("DELVE_RATE_LIMIT", "200")),
        # Below redis-py's 5 s default socket timeout, so a quiet stream sends keep-alives.
        SSE_BLOCK_MS=int(os.environ.get("DELVE_SSE_BLOCK_MS", "4000")),
        MAX_EXPORT_BYTES=int(os.environ.get("DELVE_MAX_EXPORT_BYTES", str(32 * 1024 * 1024))),
        MAX_CONTENT_LENGTH=int(os.environ.get("DELVE_MAX_BODY_BYTES", str(33 * 1024 * 1024))),
        JSON_SORT_KEYS=False,
        CORS_ORIGINS=os.environ.get("DELVE_CORS_ORIGINS", ""),
    )
    app.config.update(config)
    app.extensions["delve.service"] = service or service_from_env()
    errors.install(app)
    cors.install(app)
    metrics.install(app, app.extensions["delve.service"].store)
    for module in (catalog, games, audit, ops, players, lobby):
        app.register_blueprint(module.bp)
    app.register_blueprint(web_bp)
    return app
