"""Shards: which reactor and which rq queue handle a game.

A game's partition (``events.keys.partition_of``: the crc32 of its id modulo
DELVE_PARTITIONS) names its keys; that partition modulo DELVE_SHARDS is its
shard. A shard owns the feeds of its partitions, so the reactors serving it
read only those (and share one consumer group on each, as before); and it owns
one rq queue, ``<DELVE_QUEUE>:<shard>`` (with one shard, just DELVE_QUEUE, so a
single-process install keeps its queue), with that queue's timers
(workers/timers.py). A tournament's log is partitioned the same way by its id.
Nothing in the store's keys changes: a shard is a set of partitions, each still
in its own Redis Cluster slot.

DELVE_SHARD says which shards a process serves (unset: all of them), so one
reactor and one worker started without it serve a deployment of any size.
"""
from __future__ import annotations

from dataclasses import dataclass

from events.keys import partition_of
from events.store import RedisEventStore
import settings


@dataclass(frozen=True)
class Shards:
    partitions: int = 16
    count: int = 1
    mine: tuple[int, ...] = (0,)  # the shards this process serves
    queue: str = "delve"  # DELVE_QUEUE: the base name of every shard's queue

    def __post_init__(self):
        if self.count > self.partitions:
            raise settings.BadSetting(f"DELVE_SHARDS={self.count} is more than DELVE_PARTITIONS={self.partitions}: "
                                      "a shard is a set of partitions, and some shards would have none")
        if not self.mine or any(not 0 <= s < self.count for s in self.mine):
            raise settings.BadSetting(f"DELVE_SHARD={','.join(map(str, self.mine))} names a shard outside "
                                      f"0..{self.count - 1} (DELVE_SHARDS={self.count})")

    def of(self, key: str) -> int:
        """The shard of a game (or tournament) id."""
        return partition_of(key, self.partitions) % self.count

    def owns(self, key: str) -> bool:
        return self.of(key) in self.mine

    def queue_name(self, shard: int) -> str:
        return self.queue if self.count == 1 else f"{self.queue}:{shard}"

    def queue_of(self, key: str) -> str:
        return self.queue_name(self.of(key))

    def queues(self) -> list[str]:
        """The queues of this process's shards."""
        return [self.queue_name(s) for s in self.mine]

    def all_queues(self) -> list[str]:
        return [self.queue_name(s) for s in range(self.count)]

    def feeds(self, store: RedisEventStore) -> list[str]:
        """The feeds of this process's shards in ``store`` (the games' or the tournament logs')."""
        return store.feeds([p for p in range(self.partitions) if p % self.count in self.mine])


def shards_from_env() -> Shards:
    """DELVE_PARTITIONS, DELVE_SHARDS, DELVE_SHARD and DELVE_QUEUE; a mismatch is a BadSetting."""
    count = settings.get("DELVE_SHARDS")
    return Shards(settings.get("DELVE_PARTITIONS"), count, settings.get("DELVE_SHARD") or tuple(range(count)),
                  settings.get("DELVE_QUEUE"))
