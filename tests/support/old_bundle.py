"""Make a real tournament bundle with the code of an older commit, for tests/data/bundles/.

The stored bundles are each made by the code of their commit, on that commit's own test Redis
and service (its tests' ``service`` fixture), never by today's code imitating it. To make one:

    git worktree add --detach /tmp/old d46d871
    cp tests/support/old_bundle.py /tmp/old/tests/tournament/test_zz_old_bundle.py
    cd /tmp/old && BUNDLE_OUT=/tmp/b.ndjson BUNDLE_BODY='{"game": "mountain-king", "format": "swiss",
      "table_size": 2, "rounds": 2, "name": "first generation", "entrants": [{"bot": "random", "name": "ann"},
      {"bot": "random", "name": "bob"}, {"bot": "random", "name": "cy"}]}' \\
      PYTHONPATH=/tmp/old <this checkout>/.venv/bin/python -m pytest tests/tournament/test_zz_old_bundle.py -q

(this venv runs every commit since tournaments came, d46d871). ``BUNDLE_STEPS``, a JSON list, runs
director's commands on the tournament before it is played out: ``{"m": "withdraw", "a": ["e3"],
"k": {"from_round": 1}}`` calls ``ts.withdraw(tid, "e3", from_round=1)``; ``{"m": "decide_result",
"auto": 1, "skip": ["e3"], "body": {"kind": "adjudicated", "reason": "..."}}`` decides the first table of
the round being played without e3 (places in seat order, or the first seat the loser of a walkover
or forfeit), and so does ``correct_result``.

The upgraded bundle (``gen1-upgraded-...``) is a tournament begun by d46d871's code and finished by
93861e7's on the same Redis, as a server upgraded between the two would: ``phase_a`` with the old
checkout on ``PYTHONPATH`` (it plays round 1, pairs round 2 under drawn ids and plays its game, then
stops before reporting it), ``phase_b`` with the new one (it reports round 2, pairs round 3 under
derived ids and plays it out), both against ``REDIS_URL`` under the key prefix ``upgraded``:

    REDIS_URL=redis://127.0.0.1:8151 PYTHONPATH=/tmp/old python tests/support/old_bundle.py a   # prints TID
    REDIS_URL=redis://127.0.0.1:8151 PYTHONPATH=/tmp/new python tests/support/old_bundle.py b TID /tmp/b.ndjson

Not collected here (no ``test_`` prefix); each part imports what its commit has.
"""
from __future__ import annotations

import inspect
import json
import os
import sys
from pathlib import Path


def _has(path: str) -> bool:
    """Does the checkout being run hold ``path``? Asked of its files, not by trying an import: a
    venv with this project installed would answer an import the old checkout lacks with today's module."""
    import workers  # every commit since tournaments came has workers/
    return (Path(workers.__file__).resolve().parent.parent / path).exists()


def _service_classes():
    if _has("events/tournaments.py"):  # before 6f37d45 (2026-11-25) the application lived in events/
        from events.tournaments import TournamentService
    else:
        from application.tournaments import TournamentService
    from workers.inprocess import InProcessDriver
    return TournamentService, InProcessDriver


def _play_out(ts, tid: str, driver) -> None:
    if _has("delve/tournament.py"):  # since 863bf21
        from delve.tournament import play_out
        play_out(ts, tid, driver)
        return
    for _ in range(50):  # d46d871: its tests' own loop
        t = ts.get(tid)
        if t["status"] == "finished":
            return
        running = [tb["game_id"] for tb in t["rounds"][-1]["tables"] if tb["result"] is None] if t["rounds"] else []
        if running:
            driver.run(running)
        ts.advance(tid)
    raise AssertionError(f"tournament {tid} did not finish")


def _driver(service):
    _, InProcessDriver = _service_classes()
    follows = "tournaments" in inspect.signature(InProcessDriver.__init__).parameters  # since 93861e7
    return InProcessDriver(service, **({"tournaments": True} if follows else {}))


def _step(ts, tid: str, step: dict) -> None:
    if not step.get("auto"):
        getattr(ts, step["m"])(tid, *step.get("a", []), **step.get("k", {}))
        return
    current = ts.get(tid)["rounds"][-1]
    index, table = next((i, tb) for i, tb in enumerate(current["tables"])
                        if not set(tb["seats"]) & set(step.get("skip", [])))
    body = dict(step["body"])
    if body["kind"] == "adjudicated":
        body["places"] = {e: n + 1 for n, e in enumerate(table["seats"])}
    else:
        body["losers"] = table["seats"][:1]
    getattr(ts, step["m"])(tid, current["round"], index, body)


def _write(lines, path: str) -> None:
    with open(path, "w") as f:
        for line in lines:
            line = line.decode() if isinstance(line, bytes) else line
            f.write(line if line.endswith("\n") else line + "\n")


def test_write_bundle(service):
    """Run as a test of the old checkout, so its own fixture builds the service (and signer)."""
    TournamentService, _ = _service_classes()
    ts = TournamentService(service)
    with _driver(service) as driver:
        tid = ts.create(json.loads(os.environ["BUNDLE_BODY"]))["id"]
        for step in json.loads(os.environ.get("BUNDLE_STEPS", "[]")):
            _step(ts, tid, step)
        _play_out(ts, tid, driver)
    _write(ts.bundle(tid), os.environ["BUNDLE_OUT"])


def _services():
    import redis

    from events.store import RedisEventStore
    if _has("events/service.py"):
        from events.service import GameService
    else:
        from application.service import GameService
    TournamentService, _ = _service_classes()
    r = redis.Redis.from_url(os.environ["REDIS_URL"])
    service = GameService(RedisEventStore(r, prefix="upgraded", snapshot_every=5), admin_token="admin-secret")
    return service, TournamentService(service)


def phase_a() -> None:
    """The old server (d46d871): round 1 played and reported, round 2 paired and its game played,
    then the server stops before it reports that game."""
    service, ts = _services()
    body = {"game": "mountain-king", "format": "swiss", "table_size": 2, "rounds": 3,
            "name": "upgraded mid-tournament",
            "entrants": [{"bot": "random", "name": n} for n in ("ann", "bob", "cy")]}
    with _driver(service) as driver:
        t = ts.create(body)
        driver.run([tb["game_id"] for tb in t["rounds"][0]["tables"]])
        ts.advance(t["id"])
        t = ts.get(t["id"])
        type(ts).advance = lambda self, tid: False  # the upgrade: nothing more is logged by this code
        driver.run([tb["game_id"] for tb in t["rounds"][1]["tables"]])
    print(t["id"])


def phase_b(tid: str, out: str) -> None:
    """The upgraded server (93861e7) takes the tournament over and plays it out."""
    service, ts = _services()
    with _driver(service) as driver:
        ts.advance(tid)
        _play_out(ts, tid, driver)
    _write(ts.bundle(tid), out)


if __name__ == "__main__":
    if sys.argv[1] == "a":
        phase_a()
    else:
        phase_b(sys.argv[2], sys.argv[3])
