"""Issue 7, item 5: idle event streams and slow request bodies must not take the API down.

Before, 17 idle SSE streams (16 threads per process) made /healthz time out,
and 17 clients sending a body at a byte every 2 s did the same, for good.
"""
from __future__ import annotations

import socket
import threading
import time

import pytest

from tests.faults import tally
from tests.faults.support import Redis, api

pytestmark = pytest.mark.slow
STREAMS, TRICKLERS = 200, 20


def open_stream(port: int, gid: str) -> socket.socket:
    """A client that opens the event stream, reads the status line, and then never reads again."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"GET /v1/games/{gid}/events/stream HTTP/1.1\r\nHost: t\r\n\r\n".encode())
    return s


def status_of(s: socket.socket) -> int:
    return int(s.recv(64).split(b" ", 2)[1])


def trickle(port: int) -> socket.socket:
    """A client that announces a body and then sends it a byte at a time, slowly."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(b"POST /v1/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
    return s


def test_idle_streams_and_slow_bodies_leave_the_api_answering(tmp_path):
    redis = Redis(tmp_path / "redis")
    try:
        with api(redis.url, workers=2, env={"DELVE_SSE_MAX_PER_ADDRESS": "1000", "DELVE_SSE_MAX_PER_GAME": "1000",
                                            "DELVE_BODY_TIMEOUT": "4"}) as a:
            watched, _ = a.create_tiny(turns=2)
            streams = [open_stream(a.port, watched) for _ in range(STREAMS)]
            slow = [trickle(a.port) for _ in range(TRICKLERS)]
            stop = threading.Event()

            def drip():
                while not stop.wait(2.0):
                    for s in slow:
                        try:
                            s.sendall(b" ")
                        except OSError:
                            pass
            dripper = threading.Thread(target=drip, daemon=True)
            dripper.start()
            try:
                assert sum(status_of(s) == 200 for s in streams) == STREAMS
                worst = 0.0
                gid, tokens = a.create_tiny(turns=12)
                for _ in range(40):
                    t = time.monotonic()
                    assert a.call("GET", "/healthz", timeout=5)[0] == 200
                    worst = max(worst, time.monotonic() - t)
                    if not a.call("GET", f"/v1/games/{gid}")[1]["active_seats"]:
                        break
                    status, body = a.move(gid, tokens)
                    assert status == 201, body
                else:
                    raise AssertionError("the game did not reach its end")
                tally.count(games_finished=1)
                tally.stall(worst)
                assert worst < 2.0, f"/healthz took {worst:.1f} s"
                time.sleep(4.5)  # past the body deadline: the trickling clients are answered 408 and let go
                assert status_of(slow[0]) == 408
            finally:
                stop.set()
                for s in streams + slow:
                    s.close()
    finally:
        redis.stop()


def test_streams_past_a_cap_are_refused_with_503_and_retry_after(tmp_path):
    redis = Redis(tmp_path / "redis")
    try:
        with api(redis.url, env={"DELVE_SSE_MAX_PER_ADDRESS": "2"}) as a:  # anonymous: counted per address
            gid, _ = a.create_tiny(turns=2)
            held = [open_stream(a.port, gid) for _ in range(2)]
            assert [status_of(s) for s in held] == [200, 200]
            status, body, headers = a.call("GET", f"/v1/games/{gid}/events/stream")
            assert status == 503 and body["code"] == "too_many_streams" and int(headers["Retry-After"]) > 0
            held[0].close()
            deadline = time.monotonic() + 10  # the server notices the closed stream at its next keep-alive
            while (again := open_stream(a.port, gid)) and status_of(again) == 503:
                again.close()
                assert time.monotonic() < deadline, "a closed stream's slot was never given back"
                time.sleep(0.2)
            again.close()
            held[1].close()
    finally:
        redis.stop()


def test_verify_uploads_are_capped_and_rate_limited(client, app):
    """Issue 7, item 7: 32 MB of `{}` lines cost 16 s of CPU per request, unlimited."""
    junk = b"{}\n" * (app.config["MAX_EXPORT_BYTES"] // 3 + 1)
    assert len(junk) > app.config["MAX_EXPORT_BYTES"] and app.config["MAX_EXPORT_BYTES"] <= 8 * 1024 * 1024
    refused = client.post("/v1/audit/verify", data=junk, content_type="application/x-ndjson")
    assert refused.status_code == 413 and refused.json["code"] == "body_too_large"
    app.config["VERIFY_PER_MINUTE"] = 2
    answers = [client.post("/v1/audit/verify", data=b"{}\n", content_type="application/x-ndjson") for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert answers[2].json["code"] == "rate_limited" and 0 < int(answers[2].headers["Retry-After"]) <= 60
