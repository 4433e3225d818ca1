"""Store a real export of the current rules version of a game in tests/data/ (a bot game,
played to its end on a throwaway embedded Redis by the real service).

    python -m tests.support.stored_export dwarf 3 greedy [--option solo_level=andvettr]

Run it after a rules fix bumps a version (docs/rules-versions.md): the stored-exports
test asks for an export of every version the server holds.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import redis

from application.replay import verify
from application.service import GameService
from events.store import RedisEventStore
from localredis.server import EmbeddedRedis

DATA = Path(__file__).resolve().parent.parent / "data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("seats", type=int)
    parser.add_argument("bot")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE (a string option)")
    args = parser.parse_args()
    server = EmbeddedRedis()
    try:
        service = GameService(RedisEventStore(redis.Redis.from_url(server.start()), prefix="stored"),
                              admin_token="unused")
        options = dict(o.split("=", 1) for o in args.option)
        gid = service.create(args.game, [{"name": f"{args.bot}{i}", "bot": args.bot} for i in range(args.seats)],
                             options)["id"]
        for _ in range(100_000):
            g = service.load(gid)
            if g.game.is_terminal(g.state):
                break
            if g.game.turn(g.state).actor:
                service.actor_turn(gid, g.version)
            else:
                service.bot_turn(gid, g.version)
        else:
            raise SystemExit("the game did not end in 100000 steps")
        service.finalize(gid)
        lines = [line if isinstance(line, str) else line.decode() for line in service.export(gid, admin=False)]
        verdict = verify(lines)
        if not verdict.ok:
            raise SystemExit(f"the export does not verify: {verdict.problems}")
        note = "".join(f"-{v}" for v in options.values())
        path = DATA / f"{verdict.rules_version}-{args.seats}-{args.bot}{note}.ndjson"
        path.write_text("".join(line.rstrip("\n") + "\n" for line in lines))
        print(f"wrote {path} ({len(lines)} events)")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
