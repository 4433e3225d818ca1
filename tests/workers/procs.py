"""Entry point of the worker and reactor subprocesses the crash test starts:
the real ones, with the tests' tiny game registered first."""
from __future__ import annotations

import logging
import sys

from domain import registry
from tests.support.tinygame import GAME

if __name__ == "__main__":
    registry.register(GAME)
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s {sys.argv[1]} %(levelname)s %(message)s")
    if sys.argv[1] == "worker":
        from workers.worker import run
        run()
    else:
        from workers.reactor import run_from_env
        run_from_env()
