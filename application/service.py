"""The application service: the one path every command and read of a game takes.

HTTP handlers and rq jobs (bot turns, game-driven actor steps, finalisation)
all call ``GameService``, so a bot's move is checked, decided and appended
exactly like a human's. It is a facade over parts with one job each:

- ``access``: the seat a bearer token stands for (``application.access``);
- ``commands``: create a game, decide and append a seat's command (``application.commands``);
- ``turns``: what the platform decides itself: bot and actor turns, platform
  commands, closing a game (``application.turns``);
- ``queries``: summaries, views, legal commands, events, past states, moves (``application.queries``),
  each redacted for its reader (``application.redaction``);
- ``auditor``: the audit summary, the export, compaction (``application.audit``);

and it holds what lives beside the games: players, ratings, players' feeds and
invitations. It owns seat tokens (stored only as hashes), the game seed
(secret until the end) and the lobby indexes.
"""
from __future__ import annotations

from typing import Any, Iterator

from domain import registry
from application import lobby
from application.access import Access
from application.audit import Audit
from application.commands import Commands
from application.feed import PlayerFeed
from application.invitations import Invitations
from application.loaded import Loaded
from application.players import Players
from application.queries import Queries
from application.ratings import Ratings
from application.signing import Signer
from application.turns import Turns
from events.repository import Repository
from events.store import RedisEventStore


class GameService:
    def __init__(self, store: RedisEventStore, admin_token: str | None = None, signer: Signer | None = None):
        self.store = store
        self.repo = Repository(store, registry.of, Loaded)
        self.signer = signer  # signs seed commitments and closed records (application.signing); None: unsigned
        self.players = Players(store.players)
        self.ratings = Ratings(store.ratings, self.players)
        self.feed = PlayerFeed(store.player_feeds)
        self.invitations = Invitations(store.invitations)
        self.access = Access(store, self.players, admin_token)
        self.commands = Commands(store, self.repo, signer, self.players, self.invitations, self.feed)
        self.turns = Turns(self.commands)
        self.queries = Queries(store, self.repo)
        self.auditor = Audit(store, signer)

    @property
    def admin_token_hash(self) -> str | None:
        return self.access.admin_token_hash

    def authenticate(self, game_id: str, token: str | None, meta: dict[str, str] | None = None) -> int | None:
        return self.access.authenticate(game_id, token, meta)

    # -- commands (application.commands, application.turns) --------------------------------------

    def create(self, game_id: str, seats: list[dict], options: dict, tags: dict[str, str] | None = None, *,
               creator: str | None = None, visibility: str = "public", clock: dict | None = None,
               derived_id: str | None = None, rules_version: str | None = None,
               idem: tuple[str, dict] | None = None) -> dict:
        return self.commands.create(game_id, seats, options, tags, creator=creator, visibility=visibility,
                                    clock=clock, derived_id=derived_id, rules_version=rules_version, idem=idem)

    def load(self, game_id: str, upto: int | None = None, meta: dict[str, str] | None = None) -> Loaded:
        return self.commands.load(game_id, upto, meta)

    def submit(self, game_id: str, seat: int, expected_version: int, command: Any, command_id: str) -> dict:
        return self.commands.submit(game_id, seat, expected_version, command, command_id)

    def submit_loaded(self, g: Loaded, game_id: str, seat: int, expected_version: int, command: Any,
                      command_id: str, idem: tuple[str, dict] | None = None) -> dict:
        return self.commands.submit_loaded(g, game_id, seat, expected_version, command, command_id, idem)

    def replay_action(self, game_id: str, seat: int, record: dict) -> dict:
        return self.commands.replay_action(game_id, seat, record)

    def platform(self, game_id: str, seat: int | None, kind: str, expected_version: int | None = None) -> dict:
        return self.turns.platform(game_id, seat, kind, expected_version)

    def finalize(self, game_id: str) -> bool:
        return self.turns.finalize(game_id)

    def bot_turn(self, game_id: str, version: int) -> dict | None:
        return self.turns.bot_turn(game_id, version)

    def actor_turn(self, game_id: str, version: int) -> dict | None:
        return self.turns.actor_turn(game_id, version)

    # -- reads (application.queries) --------------------------------------------------------------

    def summary(self, game_id: str, seat: int | None, g: Loaded | None = None) -> dict:
        return self.queries.summary(game_id, seat, g)

    def summary_key(self, game_id: str, seat: int | None, g: Loaded) -> tuple | None:
        return self.queries.summary_key(game_id, seat, g)

    def legal_key(self, game_id: str, seat: int | None, g: Loaded) -> tuple:
        return self.queries.legal_key(game_id, seat, g)

    def legal(self, game_id: str, seat: int | None, g: Loaded | None = None) -> dict:
        return self.queries.legal(game_id, seat, g)

    def events(self, game_id: str, seat: int | None, after: int = 0, limit: int = 100) -> dict:
        return self.queries.events(game_id, seat, after, limit)

    def follow_events(self, game_id: str, seat: int | None, after: int, block_ms: int, until: float,
                      meta: dict[str, str]) -> Iterator[list[dict] | None]:
        return self.queries.follow_events(game_id, seat, after, block_ms, until, meta)

    def state_at(self, game_id: str, seat: int | None, version: int, meta: dict[str, str] | None = None,
                 move: dict | None = None) -> dict:
        return self.queries.state_at(game_id, seat, version, meta, move)

    def moves(self, game_id: str, seat: int | None, meta: dict[str, str] | None = None) -> dict:
        return self.queries.moves(game_id, seat, meta)

    def move(self, game_id: str, seat: int | None, n: int, meta: dict[str, str] | None = None) -> dict:
        return self.queries.move(game_id, seat, n, meta)

    def scores(self, game_id: str) -> dict:
        return self.queries.scores(game_id)

    def list_games(self, game: str | None, status: str | None, offset: int, limit: int,
                   after: str | None = None) -> dict:
        return self.queries.list_games(game, status, offset, limit, after)

    def project_lobby(self, game_id: str) -> None:
        """Index a game in the lobby (idempotent; the reactor calls it too)."""
        lobby.project(self.store, game_id)

    # -- records (application.audit) ---------------------------------------------------------------

    def audit(self, game_id: str, seat: int | None = None) -> dict:
        return self.auditor.audit(game_id, seat)

    def export(self, game_id: str, admin: bool):
        return self.auditor.export(game_id, admin)

    def compact(self, game_id: str) -> bool:
        return self.auditor.compact(game_id)
