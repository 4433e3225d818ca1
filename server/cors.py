"""CORS: browsers on the origins in ``DELVE_CORS_ORIGINS`` may call the API.

The setting is a comma-separated list of origins (``https://a.example,
https://b.example``) or ``*`` for any; empty (the default) sends no CORS
headers, so only same-origin pages (the built-in viewer) can read answers.
Credentials are bearer tokens in ``Authorization``, never cookies, so
``Access-Control-Allow-Credentials`` is not needed.
"""
from __future__ import annotations

from flask import Flask, Response, request

ALLOWED_HEADERS = "Authorization, Content-Type, Idempotency-Key, If-None-Match, Last-Event-ID"
EXPOSED_HEADERS = "ETag, Location, Link, Retry-After, Idempotent-Replayed"


def parse_origins(setting: str) -> frozenset[str]:
    return frozenset(o.strip().rstrip("/") for o in setting.split(",") if o.strip())


def install(app: Flask) -> None:
    origins = parse_origins(app.config["CORS_ORIGINS"])
    if not origins:
        return

    @app.after_request
    def _cors(resp: Response) -> Response:
        origin = request.headers.get("Origin")
        if origin is None or ("*" not in origins and origin not in origins):
            return resp
        resp.headers["Access-Control-Allow-Origin"] = "*" if "*" in origins else origin
        resp.vary.add("Origin")
        resp.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
        if request.method == "OPTIONS":  # a preflight: Flask answered it with the route's Allow
            resp.headers["Access-Control-Allow-Methods"] = resp.headers.get("Allow", "GET, POST")
            resp.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
            resp.headers["Access-Control-Max-Age"] = "600"
        return resp
