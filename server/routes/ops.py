"""Operations: liveness, readiness, metrics, the OpenAPI document and its page."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml
from flask import Blueprint, Response, render_template

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
    try:
        service().store.ping()
    except Exception:
        raise ApiError(503, "store_unavailable", "Redis is unreachable; check REDIS_URL")
    return {"status": "ready"}


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
