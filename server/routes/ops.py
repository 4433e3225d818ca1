"""Operations: liveness, readiness, metrics, the OpenAPI document and its page."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml
from flask import Blueprint, Response, current_app, render_template

from application import liveness
from application.runtime import queue_name, queue_redis_from_env
from server import metrics
from server.errors import ApiError
from server.routes.common import service

bp = Blueprint("ops", __name__)


@lru_cache(maxsize=1)
def openapi_text() -> str:
    """The spec at the repository root (source of truth), or the copy in the working directory."""
    for path in (Path(__file__).resolve().parents[2] / "openapi.yaml", Path.cwd() / "openapi.yaml"):
        if path.is_file():
            return path.read_text()
    raise FileNotFoundError("openapi.yaml not found next to the server package or in the working directory")


@bp.get("/healthz")
def healthz():
    return {"status": "ok"}


@bp.get("/readyz")
def readyz():
    """200 ``ready``, or ``degraded`` naming the parts down (no worker or reactor polling, timers
    overdue): the API itself still serves. 503 when it cannot: the store or the queue Redis is down."""
    if "delve.queue_redis" not in current_app.extensions:
        current_app.extensions["delve.queue_redis"] = queue_redis_from_env()
    parts = liveness.parts(service().store, current_app.extensions["delve.queue_redis"], queue_name())
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
    return Response(openapi_text(), mimetype="application/yaml")


@bp.get("/docs")
def docs():
    spec = yaml.safe_load(openapi_text())
    return render_template("docs.html", spec=spec)
