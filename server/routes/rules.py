"""/rules/<doc>: the rules a refusal's ``rule_url`` points into (server/rules.py)."""
from __future__ import annotations

from flask import Blueprint, render_template

from errors import ApiError
from server import rules

bp = Blueprint("rules", __name__)


@bp.get("/rules/<doc>")
def document(doc: str):
    if doc not in rules.documents():
        raise ApiError(404, "rules_not_found", f"no rules document {doc!r}; there are: {', '.join(rules.documents())}")
    docs = [(d, title) for d, (title, _) in rules.documents().items()]
    return render_template("rules.html", title=rules.title(doc), body=rules.html(doc), docs=docs)
