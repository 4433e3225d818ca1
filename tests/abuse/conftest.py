"""The abuse suite: one client with one free player token tries each way found to hurt others,
against a real API (gunicorn, two processes, loopback only); each test asserts the limit holds and
that /healthz and another player's game stay answered. How long those bystander requests took is
recorded in a tally printed at the end (measured, not asserted: the machine may be busy)."""
from __future__ import annotations

import json

from tests.abuse.tally import TALLY, summary


def pytest_terminal_summary(terminalreporter):
    if TALLY:
        terminalreporter.write_sep("=", "abuse suite tally: bystander latencies in ms")
        terminalreporter.write_line(json.dumps(summary(), sort_keys=True))
