"""gunicorn's own refusals as problem+json, like every other answer of the API.

gunicorn answers some requests before Flask sees them: a request line past its
limit (414), headers past theirs (431), a malformed request or a body framed
two ways at once (400), a chunk size that is not hex. It writes those with
``gunicorn.util.write_error``, as an HTML page. ``install()`` replaces that one
function, in the process that serves the app, with one that writes the same
status as an RFC 9457 problem with a stable ``code`` (the status's reason in
snake case), so a client parses every error the same way. It runs from the
app factory, so every way of starting gunicorn (``delve serve``, the Docker
image, the tests) gets it; without gunicorn it does nothing.
"""
from __future__ import annotations

import json
import sys

from server.errors import PROBLEM, title


def problem_bytes(status: int, reason: str, detail: str) -> bytes:
    code = reason.lower().replace(" ", "_").replace("-", "_")
    body = json.dumps({"type": f"https://delve.dev/problems/{code}", "title": title(code), "status": status,
                       "detail": detail or reason, "code": code}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: {PROBLEM}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
    return head + body


def install() -> None:
    util = sys.modules.get("gunicorn.util")
    if util is None or getattr(util.write_error, "delve_problem", False):
        return

    def write_error(sock, status_int: int, reason: str, mesg: str) -> None:
        util.write_nonblock(sock, problem_bytes(int(status_int), reason, mesg))

    write_error.delve_problem = True
    util.write_error = write_error
