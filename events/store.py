"""The Redis Streams event store: one object that wires the store's parts together.

One stream per game (entry ID ``<seq>-0``), one meta hash, one snapshot, and
one feed stream per partition that reactors and followers read. Each part has
one job and its own module; the store itself offers the game log (append,
read, load) that every caller needs and names the other parts:

- ``appends`` (events.appends): a game's first events and every append, one Lua script each;
- ``reads`` (events.reads): meta hashes and envelopes, now or waiting for the next;
- ``hub`` (events.hub): one blocking read of the partition feeds that wakes every waiting stream;
- ``states`` (events.states): the folded state, this process's cache and the snapshots;
- ``compaction`` (events.compaction): a closed game's log packed into one archive;
- ``idempotency`` (events.idempotency): the keys that make a retried request land once;
- ``indexes`` (events.indexes): the lobby's sorted sets of games;
- ``groups`` (events.groups): consumer groups on the feeds (the reactor);
- ``tracking`` (events.tracking): followers' positions in the feeds, applied exactly once;
- ``counters`` (events.counters): the rate limit's fixed-window counters and counted holds (open streams);
- ``players``, ``ratings``, ``player_feeds`` (events.accounts): what lives beside the games.
"""
from __future__ import annotations

from typing import Callable, Iterator

import redis
from redis.cluster import RedisCluster

from domain.core import Game
from events.accounts import InvitationRecords, PlayerFeeds, PlayerRecords, RatingRecords
from events.appends import Appends
from events.archived import Archives
from events.compaction import Compaction
from events.groups import ConsumerGroups
from events.hub import FeedHub
from events.idempotency import Idempotency
from events.indexes import Indexes
from events.counters import Counters
from events.keys import Keys
from events.reads import Reads
from events.scripts import Scripts
from events.states import Folded, States
from events.tracking import Tracking


class RedisEventStore:
    """Stores game logs in Redis. Takes any ``redis.Redis`` (or a Cluster client)."""

    def __init__(self, r: redis.Redis, *, partitions: int = 16, snapshot_every: int = 50, prefix: str = "delve",
                 cache_size: int = 256, wait_replicas: int = 0, wait_timeout_ms: int = 1000,
                 wait_floor: int | None = None):
        self.r = r
        self.keys = keys = Keys(prefix, partitions)
        self._settings = dict(partitions=partitions, snapshot_every=snapshot_every, wait_replicas=wait_replicas,
                              wait_timeout_ms=wait_timeout_ms, wait_floor=wait_floor)
        scripts = Scripts(r)
        archives = Archives(r, keys)
        self.hub = None if isinstance(r, RedisCluster) else FeedHub(r, keys)  # events.hub: one read, every stream
        self.reads = Reads(r, keys, archives, self.hub)
        self.states = States(r, keys, scripts, self.reads, archives, cache_size=cache_size,
                             snapshot_every=snapshot_every)
        self.appends = Appends(r, keys, scripts, self.states.lost, self.states.times, wait_replicas=wait_replicas,
                               wait_timeout_ms=wait_timeout_ms, wait_floor=wait_floor)
        self.idempotency = Idempotency(r, keys, scripts, wait_replicas=wait_replicas,
                                       wait_timeout_ms=wait_timeout_ms, wait_floor=wait_floor)
        self.compaction = Compaction(r, keys, scripts, self.reads, self.idempotency)
        self.indexes = Indexes(r, keys)
        self.groups = ConsumerGroups(r, keys)
        self.tracking = Tracking(r, keys)
        self.counters = Counters(r, keys, scripts)
        self.players = PlayerRecords(r, keys)
        self.ratings = RatingRecords(r, keys)
        self.player_feeds = PlayerFeeds(r, keys)
        self.invitations = InvitationRecords(r, keys)

    # -- the game log: what every caller needs ------------------------------------------------

    def create(self, game_id: str, meta: dict[str, str], events: list[dict], *, command_id: str,
               rules_version: str, idem: tuple[str, dict] | None = None) -> list[dict]:
        """A new game (``Appends.create``)."""
        return self.appends.create(game_id, meta, events, command_id=command_id, rules_version=rules_version,
                                   idem=idem)

    def append(self, game_id: str, expected_version: int, events: list[dict], **kw) -> list[dict]:
        """A batch at ``expected_version`` (``Appends.append``: its keywords, its errors)."""
        return self.appends.append(game_id, expected_version, events, **kw)

    def meta(self, game_id: str) -> dict[str, str]:
        return self.reads.meta(game_id)

    def version(self, game_id: str) -> int:
        return self.reads.version(game_id)

    def read(self, game_id: str, after: int = 0, limit: int | None = None, upto: int | None = None) -> list[dict]:
        return self.reads.read(game_id, after, limit, upto)

    def export(self, game_id: str) -> Iterator[str]:
        return self.reads.export(game_id)

    def open(self, game_id: str, resolve: Callable[[dict[str, str]], Game]) -> tuple[dict[str, str], Folded]:
        return self.states.open(game_id, resolve)

    def load(self, game: Game, game_id: str, upto: int | None = None) -> Folded:
        return self.states.load(game, game_id, upto)

    # -- the layout and the server --------------------------------------------------------------

    @property
    def prefix(self) -> str:
        """The key prefix (a child process given it as DELVE_PREFIX reads the same data)."""
        return self.keys.prefix

    @property
    def rollbacks(self) -> int:
        """States this process held that Redis had lost (``events.states``; /metrics)."""
        return self.states.rollbacks

    def feeds(self, partitions: list[int] | None = None) -> list[str]:
        """Every partition feed (or those of ``partitions``), by name (what ``groups`` and ``tracking`` take)."""
        return self.keys.all_feeds() if partitions is None else [self.keys.feed(p) for p in partitions]

    def feed_of(self, game_id: str) -> str:
        return self.keys.feed_of(game_id)

    def sibling(self, prefix: str) -> "RedisEventStore":
        """A store on the same Redis under another prefix (tournament logs beside the games' logs)."""
        return RedisEventStore(self.r, prefix=prefix, cache_size=self.states.cache_size, **self._settings)

    def ping(self) -> bool:
        return bool(self.r.ping())

    def now_ms(self) -> int:
        """Redis's clock, the one the append script stamps events with (ms since the epoch)."""
        t = self.r.time()
        secs, micros = next(iter(t.values())) if isinstance(t, dict) else t  # a cluster answers per node
        return int(secs) * 1000 + int(micros) // 1000

    def stamp_ms(self, game_id: str, version: int) -> int:
        """The Redis time (ms) a batch appended at ``version`` now is stamped with: that of the read
        that saw the version (``events.clock``), else Redis's clock now."""
        when = self.states.times.take(game_id, version)
        return when.ms if when is not None else self.now_ms()

    def plain_client(self) -> redis.Redis | None:
        """This store's Redis when it is a single one (the queue may live in it), None on a Cluster."""
        return None if self.groups.cluster else self.r

    def server_version(self) -> str | None:
        return self.r.info("server").get("redis_version")

    def purge(self) -> int:
        """Delete every key under this store's prefix (a throwaway prefix: tests, benchmarks)."""
        n = 0
        for key in self.r.scan_iter(f"{self.keys.prefix}:*", count=1000):
            n += self.r.delete(key)
        return n
