"""Writing a game's log: the first events of a new game and every append after them.

The envelopes are sealed here, hashes included, with the time Redis's clock
showed in the read before the append (``events.clock``). The append is one Lua
script (``append.lua``) that checks the expected version, the head and the
time, then stores the events, the new version, the meta fields and the feed
entry together or not at all; a stale ``expected_version`` is an ordinary
outcome (:class:`VersionConflict`).
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable

import redis

from domain.core import canonical_json
from errors import GameExists, GameNotFound, KeyAlreadyUsed, VersionConflict
from events import clock, replication
from events.clock import ReadTimes, Stamp, time_ms
from events.envelope import GENESIS, seal
from events.idempotency import IDEMPOTENCY_TTL
from events.keys import Keys
from events.replies import as_text
from events.scripts import Scripts

log = logging.getLogger("delve.store")


class Appends:
    """``on_lost(game_id, what)`` is told when Redis holds another head than the one decided on."""

    def __init__(self, r: redis.Redis, keys: Keys, scripts: Scripts, on_lost: Callable[[str, str], None],
                 times: ReadTimes, *, wait_replicas: int = 0, wait_timeout_ms: int = 1000,
                 wait_floor: int | None = None):
        self.r, self.keys, self.scripts, self.on_lost, self.times = r, keys, scripts, on_lost, times
        self.wait_replicas, self.wait_timeout_ms = wait_replicas, wait_timeout_ms  # events/replication.py
        self.wait_floor = wait_floor
        # Told (game_id, version, at, meta fields written) after each append; the application adds a
        # clock's timer there at once (application/runtime.py). A failure is logged: the write stands.
        self.after_append: Callable[[str, int, str, dict[str, str]], None] | None = None

    def create(self, game_id: str, meta: dict[str, str], events: list[dict], *, command_id: str,
               rules_version: str, idem: tuple[str, dict] | None = None) -> list[dict]:
        """Write a new game's first events and its meta hash (``created_at`` = the append time); GameExists if taken.
        ``idem`` = (key, record): stored with them, as an append's (a create under an Idempotency-Key)."""
        return self._write(game_id, -1, GENESIS, events, seat=None, command_id=command_id, command=None,
                           rules_version=rules_version, meta=meta, stamp=("created_at",), idem=idem)

    def append(self, game_id: str, expected_version: int, events: list[dict], *, expected_head: str,
               seat: int | None, command_id: str, command: dict | None, rules_version: str,
               meta: dict[str, str] | None = None, stamp: tuple[str, ...] = (),
               idem: tuple[str, dict] | None = None) -> list[dict]:
        """Append a batch if the stored version is ``expected_version`` and its head ``expected_head``.

        The head check means a command decided on a state Redis no longer
        holds (Redis lost writes, then the game went on along another branch)
        can never land: VersionConflict either way. GameNotFound for an
        unknown game. ``meta`` fields are set atomically with the append,
        ``stamp`` fields to its time (``finished_at``). ``idem`` = (key,
        record): the record is stored with the events, in the same script;
        KeyAlreadyUsed if that key already names a committed batch.
        """
        if not events:
            raise ValueError("an append needs at least one event: the head hash names the last one")
        return self._write(game_id, expected_version, expected_head, events, seat=seat, command_id=command_id,
                           command=command, rules_version=rules_version, meta=meta or {}, stamp=stamp, idem=idem)

    def _write(self, game_id: str, expected: int, head: str, events: list[dict], *, seat: int | None,
               command_id: str, command: dict | None, rules_version: str, meta: dict[str, str],
               stamp: tuple[str, ...], idem: tuple[str, dict] | None) -> list[dict]:
        """Seal the batch at the time of the read before it and run the append script; once more at a
        fresh reading of the clock if the script finds that time behind the game's last or ahead of now."""
        when = self.times.take(game_id, expected) if expected >= 0 else None
        for attempt in range(2):
            when = when if when is not None and attempt == 0 else self._now(game_id)
            envs = seal(events, game_id=game_id, first_seq=max(expected, 0) + 1, prev_hash=head, seat=seat,
                        command_id=command_id, command=command, at=when.at, rules_version=rules_version)
            res = self._run(game_id, expected, head, envs, meta, stamp, idem, when)
            if int(res[0]) != 4:
                break
        status = int(res[0])
        if status == -1:
            raise GameNotFound(game_id)
        if status == 2:
            raise KeyAlreadyUsed(json.loads(res[2]))
        if status == 3:
            self.on_lost(game_id, f"an append expected head {head[:12]} at version {expected}, Redis holds another")
        if status == 4:
            raise VersionConflict(int(res[1]))  # Redis's clock moved under two readings: the caller retries
        if status != 1:
            raise GameExists(game_id) if expected < 0 else VersionConflict(int(res[1]))
        if self.after_append is not None and meta:
            try:
                self.after_append(game_id, envs[-1]["seq"], envs[-1]["at"], meta)
            except Exception:
                log.warning("game %s: what follows the append at version %d failed", game_id, envs[-1]["seq"],
                            exc_info=True)
        return envs

    def _now(self, game_id: str) -> Stamp:
        """Redis's clock and the game's last time, read now (a create, or a retry after a clock step)."""
        last, now = self.scripts.now(keys=[self.keys.meta(game_id)])
        return clock.stamp(time_ms(now), as_text(last) if last else None)

    def _run(self, game_id: str, expected: int, head: str, envs: list[dict], meta: dict[str, str],
             stamp: tuple[str, ...], idem: tuple[str, dict] | None, when: Stamp) -> list:
        k = self.keys
        types = ",".join(sorted({e["type"] for e in envs}))
        keys = [k.meta(game_id), k.events(game_id), k.feed_of(game_id),
                k.idem(game_id, idem[0]) if idem else k.meta(game_id)]
        args = [expected, head, game_id, types, canonical_json(idem[1]) if idem else "", IDEMPOTENCY_TTL,
                when.at, when.ms, envs[-1]["hash"], len(meta), *(x for kv in meta.items() for x in kv),
                len(stamp), *stamp, *(canonical_json(env) for env in envs)]
        if self.wait_replicas > 0:
            return replication.run_acknowledged(self.scripts.append, self.r, keys, args, self.wait_replicas,
                                                self.wait_timeout_ms, game_id, self.wait_floor)
        return self.scripts.append(keys=keys, args=args)
