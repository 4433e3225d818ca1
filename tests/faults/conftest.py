"""The fault suite: each test breaks something real (kills Redis, restores an older AOF,
holds streams open, skews clocks) and adds what it saw to one tally, printed as JSON at
the end of the run: games finished, exports verified, acknowledged moves present,
duplicates, stuck and poisoned games, the longest stall."""
from __future__ import annotations

import json

from tests.faults.tally import TALLY


def pytest_terminal_summary(terminalreporter):
    if any(TALLY.values()):
        terminalreporter.write_sep("=", "fault suite tally (issue 7)")
        terminalreporter.write_line(json.dumps(TALLY, sort_keys=True))
