"""Operations: liveness, readiness, metrics, the OpenAPI document and its page."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, send_from_directory

from errors import ApiError
from events import liveness
from application.runtime import queue_redis_from_env
from application.shards import shards_from_env
from server import metrics, spec
from server.routes.common import service

bp = Blueprint("ops", __name__)
SWAGGER_UI = Path(__file__).resolve().parents[1] / "swagger_ui"


@bp.get("/healthz")
def healthz():
    return {"status": "ok"}


@bp.get("/readyz")
def readyz():
    """200 ``ready``, or ``degraded`` naming the parts down (no worker or reactor polling, timers
    overdue): the API itself still serves. 503 when it cannot: the store or the queue Redis is down."""
    if "delve.queue_redis" not in current_app.extensions:
        current_app.extensions["delve.queue_redis"] = queue_redis_from_env()
    parts = liveness.parts(service().store, current_app.extensions["delve.queue_redis"],
                           shards_from_env().all_queues())
    down = sorted(name for name, part in parts.items() if not part["up"])
    for name, what in (("store", "REDIS_URL"), ("queue", "RQ_REDIS_URL")):
        if name in down:
            raise ApiError(503, f"{name}_unavailable", f"the {name} Redis is unreachable; check {what} "
                           f"(down: {', '.join(down)})", retry_after=1, parts=parts)
    return {"status": "degraded" if down else "ready", "down": down, "parts": parts}


@bp.get("/metrics")
def prometheus():
    return metrics.exposition()


@bp.get("/openapi.yaml")
def openapi():
    return Response(spec.text(), mimetype="application/yaml")


@bp.get("/docs")
def docs():
    """The API reference: the vendored Swagger UI renders /openapi.yaml in the browser."""
    info = spec.document()["info"]
    return render_template("docs.html", title=info["title"], version=info["version"])


@bp.get("/docs/assets/<name>")
def docs_asset(name: str):
    """Swagger UI's script and stylesheet (a flat folder: no sub-paths)."""
    return send_from_directory(SWAGGER_UI, name, max_age=3600)
