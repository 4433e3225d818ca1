"""The yardstick of `delve bench`: a bare Flask app answering a small JSON "hello",
served by the same gunicorn command line as Delve (``gunicorn benchmarks.bare:app``)."""
from __future__ import annotations

from flask import Flask

app = Flask(__name__)


@app.get("/hello")
def hello():
    return {"hello": "world"}
