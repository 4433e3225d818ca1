"""Operations: liveness, readiness, metrics, the OpenAPI document and its page."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, render_template, send_from_directory

from server import metrics, spec
from server.errors import ApiError
from server.routes.common import service

bp = Blueprint("ops", __name__)
SWAGGER_UI = Path(__file__).resolve().parents[1] / "swagger_ui"


@bp.get("/healthz")
def healthz():
    return {"status": "ok"}


@bp.get("/readyz")
def readyz():
    try:
        service().store.ping()
    except Exception:
        raise ApiError(503, "store_unavailable", "Redis is unreachable; check REDIS_URL", retry_after=1)
    return {"status": "ready"}


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
