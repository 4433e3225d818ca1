"""A real Delve site for the browser: the app on a real Redis, served over HTTP
from a thread, with bot games of every served game played by the in-process
reactor and jobs (workers/inprocess.py), exactly as `delve serve` plays them.

Used by the browser tests (tests/browser/conftest.py) and by the screenshot
script (tests/browser/screenshots.py), so both look at the same pages.
"""
from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass, field

import redis as redis_lib
from werkzeug.serving import WSGIRequestHandler, make_server

from errors import Stalled
from application.clocks import now_iso
from application.service import GameService
from events.store import RedisEventStore
from application.tournaments import TournamentService
from server.app import create_app
from delve.tournament import play_out
from domain import registry
from workers.inprocess import InProcessDriver

ADMIN = "admin-secret"

# Every served game (every registered one): the bots of a finished all-bot game, the bots beside
# the person in seat 0 of a live game (default: the same table), and the options of both. A game
# sits at its smallest table of two or more, its best simple bot first, unless TABLES sets its table:
# the live DWARF table has four seats, so its viewer draws the two copies of the Mine.
TABLES: dict[str, dict] = {
    "saboteur": {"bots": ["heuristic", "heuristic", "random"], "options": {}},
    "dwarf": {"bots": ["greedy", "random", "random"], "live_bots": ["random", "greedy", "random"], "options": {}},
}


def _table(game) -> dict:
    best = next((bot for bot in ("greedy", "heuristic") if bot in game.bots), "random")
    return {"bots": [best] + ["random"] * (max(2, game.min_players) - 1), "options": {}}


GAMES: dict[str, dict] = {gid: TABLES.get(gid) or _table(registry.get(gid)) for gid in registry.available()}


@dataclass
class LiveGame:
    id: str
    token: str  # seat 0's token: the person whose turn the bots wait for


@dataclass
class Player:
    id: str
    token: str


@dataclass
class Site:
    url: str
    service: GameService
    driver: InProcessDriver
    finished: dict[str, str] = field(default_factory=dict)  # game -> id of a finished bot game
    live: dict[str, LiveGame] = field(default_factory=dict)
    clocked: LiveGame | None = None  # a live Saboteur game under a Fischer clock, its person to act
    player: Player | None = None  # a registered player, for the open game and the player page
    open_game: str | None = None  # a Saboteur game whose seat 0 waits for a player to join
    tournament: str | None = None  # a finished tournament
    running_tournament: str | None = None  # created, and nothing played yet: see finish_running_tournament
    tournament_driver: InProcessDriver | None = None  # follows the running tournament, stepped only on demand

    def play_bots(self, game_id: str) -> None:
        """Let the bots of a live game move until it waits for its person again (or ends)."""
        try:
            self.driver.run([game_id])
        except Stalled:
            pass

    def finish_running_tournament(self) -> dict:
        """Pair, play and finish every round of the running tournament, as a server's jobs would."""
        return play_out(TournamentService(self.service), self.running_tournament, self.tournament_driver)


class _QuietHandler(WSGIRequestHandler):
    def log_request(self, code="-", size="-") -> None:
        """Pages make dozens of calls each; a test's output should show its failures, not those."""


class _Server(threading.Thread):
    """werkzeug's threaded server: an open SSE stream holds one thread, not the site."""

    def __init__(self, app):
        super().__init__(daemon=True, name="delve-browser-site")
        self.server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=_QuietHandler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def run(self) -> None:
        self.server.serve_forever(poll_interval=0.1)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _bot_seats(bots: list[str]) -> list[dict]:
    return [{"name": f"{bot}-{i}", "bot": bot} for i, bot in enumerate(bots)]


class running_site:
    """``with running_site(redis_url) as site:`` a served app with every game in three states."""

    def __init__(self, redis_url: str):
        self.redis = redis_lib.Redis.from_url(redis_url)
        self.prefix = f"b{uuid.uuid4().hex[:10]}"
        store = RedisEventStore(self.redis, prefix=self.prefix, snapshot_every=20)
        self.service = GameService(store, admin_token=ADMIN)
        # No rate limit: one page load makes dozens of calls, and a replay step several.
        self.app = create_app(self.service, RATE_LIMIT=0, VERIFY_PER_MINUTE=0, SSE_BLOCK_MS=500)
        self.server = _Server(self.app)
        self.driver = InProcessDriver(self.service)
        self.tournament_driver: InProcessDriver | None = None

    def __enter__(self) -> Site:
        self.server.start()
        site = Site(self.server.url, self.service, self.driver)
        for game, spec in GAMES.items():
            site.finished[game] = self.service.create(game, _bot_seats(spec["bots"]), spec["options"])["id"]
        self.driver.run(site.finished.values())
        for game, spec in GAMES.items():
            beside = spec.get("live_bots", spec["bots"][1:])
            created = self.service.create(game, [{"name": "you"}, *_bot_seats(beside)], spec["options"])
            site.live[game] = LiveGame(created["id"], created["seats"][0]["token"])
            site.play_bots(created["id"])
        created = self.service.create("saboteur", [{"name": "you"}, *_bot_seats(["heuristic", "random"])], {},
                                      clock={"initial_s": 600, "increment_s": 5, "on_timeout": "autoplay"})
        site.clocked = LiveGame(created["id"], created["seats"][0]["token"])
        site.play_bots(created["id"])
        player, token = self.service.players.register("Ada", now_iso())
        site.player = Player(player.id, token)
        site.open_game = self.service.create("saboteur", [{"open": True}, *_bot_seats(["heuristic", "random"])], {})["id"]
        tournaments = TournamentService(self.service)
        entrants = [{"bot": "greedy", "name": f"greedy {i}"} for i in range(2)] + \
            [{"bot": "random", "name": f"random {i}"} for i in range(2)]
        body = {"game": "mountain-king", "format": "round-robin", "table_size": 2, "entrants": entrants}
        # A driver that follows tournaments must exist before the tournament it plays.
        with InProcessDriver(self.service, tournaments=True) as driver:
            site.tournament = play_out(tournaments, tournaments.create({**body, "name": "Browser cup"})["id"],
                                       driver)["id"]
        self.tournament_driver = site.tournament_driver = InProcessDriver(self.service, tournaments=True)
        site.running_tournament = tournaments.create({**body, "format": "swiss", "rounds": 2,
                                                      "name": "Browser open"})["id"]
        return site

    def __exit__(self, *exc) -> None:
        self.server.stop()
        self.driver.close()
        if self.tournament_driver:
            self.tournament_driver.close()
        for key in self.redis.scan_iter(f"{self.prefix}:*", count=1000):
            self.redis.delete(key)
        self.redis.close()
