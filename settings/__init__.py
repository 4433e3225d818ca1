"""Every setting Delve reads from the environment, in one place: its name, default and meaning.

Each layer above the domain asks here (``settings.get("DELVE_PARTITIONS")``)
instead of reading ``os.environ`` itself, so an operator finds every knob in
one list (docs/settings.md is checked against it), a default is written once,
and a bad value fails with the setting's name and what it expects. Values are
read when asked for, not at import, so a process (or a test) that changes its
environment is seen. An empty value counts as unset.

This package sits beside the store in the layers (rank 2): the store, the
application, the server, the workers and the CLI may all import it; the domain
may not (it reads no environment at all).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable

from errors import BadSetting



@dataclass(frozen=True)
class Setting:
    name: str
    default: str | None  # as it would be written in the environment; None: unset means "none"
    parse: Callable[[str], Any]
    group: str  # the heading it is documented under (docs/settings.md)
    doc: str


def _count(text: str) -> int:
    """DELVE_TRUSTED_PROXIES: how many proxies in front of the API are trusted to set X-Forwarded-*."""
    return _whole(text, 0, "a count of proxies, 0 or more")


def _whole(text: str, least: int, expected: str) -> int:
    try:
        count = int(text)
    except ValueError:
        raise ValueError(f"not a whole number; expected {expected}") from None
    if count < least:
        raise ValueError(f"expected {expected}")
    return count


def _positive(text: str) -> int:
    """A whole number from 1."""
    return _whole(text, 1, "a whole number from 1")


def _natural(text: str) -> int:
    """A whole number from 0 (0 usually means "off" or "no limit": the setting's meaning says)."""
    return _whole(text, 0, "a whole number from 0")


def _seconds(text: str) -> float:
    """A duration in seconds, above 0."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0:  # NaN too
        raise ValueError("expected a number of seconds above 0")
    return value


def _seconds_or_off(text: str) -> float:
    """A duration in seconds, 0 for none."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value >= 0:
        raise ValueError("expected a number of seconds from 0 (0: none)")
    return value


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def _log_level(text: str) -> str:
    level = text.strip().upper()
    if level not in LOG_LEVELS:
        raise ValueError(f"expected one of {', '.join(LOG_LEVELS)}")
    return level


def _numbers(text: str) -> tuple[int, ...]:
    found = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    if not found or found[0] < 0:
        raise ValueError("comma-separated numbers from 0")
    return found


def _names(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


STORE, API, QUOTAS, WORKERS, CLI = "store", "api", "quotas", "workers", "cli"
_ALL = (
    # -- the store and the process wiring (application/runtime.py) --
    Setting("REDIS_URL", None, str, STORE,
            "Event-store Redis: redis://host:port/db, or redis+cluster://host:port (rediss+cluster:// with TLS) "
            "for a Redis Cluster, any node as the seed. `delve serve` starts a private one when unset."),
    Setting("RQ_REDIS_URL", None, str, STORE,
            "The job queue's Redis (default: REDIS_URL; required with a Cluster, which rq cannot use)."),
    Setting("DELVE_PREFIX", "delve", str, STORE, "Prefix of every Redis key (tests use their own)."),
    Setting("DELVE_PARTITIONS", "16", _positive, STORE, "Feed partitions; fixed for the life of a deployment."),
    Setting("DELVE_SNAPSHOT_EVERY", "50", _positive, STORE, "A state snapshot every this many events."),
    Setting("DELVE_STATE_CACHE", "256", _natural, STORE, "Game states kept per process, most recent first (0 = off)."),
    Setting("DELVE_REDIS_MAX_CONNECTIONS", None, _positive, STORE,
            "Redis connections per process (default 64; 1024 per node on a Cluster). On one Redis server "
            "requests wait for a free one and open streams hold none; on a Cluster each open event stream "
            "holds one while it waits, so there keep it above DELVE_SSE_MAX_STREAMS."),
    Setting("DELVE_WAIT_REPLICAS", "0", _natural, STORE,
            "Replicas that must acknowledge an append (Redis WAIT) before the API answers 201 (0: do not wait)."),
    Setting("DELVE_WAIT_TIMEOUT_MS", "1000", _positive, STORE,
            "How long an append waits for DELVE_WAIT_REPLICAS; past it: 503 replication_unconfirmed."),
    Setting("DELVE_WAIT_REPLICAS_MIN", None, _natural, STORE,
            "On a master with fewer replicas than DELVE_WAIT_REPLICAS (a shard left without one): "
            "acknowledge its appends with as many as it has, no fewer than this, logged and counted "
            "(unset: refuse them, 503 replication_unconfirmed, until it has its replicas again)."),
    Setting("DELVE_ADMIN_TOKEN", None, str, STORE,
            "The bearer token that reads every view and export and directs tournaments "
            "(`delve serve` makes one in its data dir when unset)."),
    Setting("DELVE_SIGNING_KEY", None, str, STORE,
            "Path of the Ed25519 private key (PEM) that signs seed commitments, game records and tournament "
            "standings; retired public keys sit in retired/ beside it. `delve serve` makes "
            "<data dir>/signing/current.pem on first start when unset; `delve keys rotate` replaces it."),
    Setting("DELVE_SERVER_NAME", "delve", str, STORE,
            "The name records are signed as (\"signed by <key id> of <name>\"): say which server this is, "
            "e.g. its public host name."),
    # -- the HTTP API (server/) --
    Setting("DELVE_RATE_LIMIT", "200", _natural, API,
            "Writes (creates, moves, joins) per second per identity (0 = no limit)."),
    Setting("DELVE_VERIFY_PER_MINUTE", "12", _natural, API, "Uploads to POST /v1/audit/verify per minute per identity."),
    Setting("DELVE_MAX_EXPORT_BYTES", str(8 * 1024 * 1024), _positive, API,
            "Largest export POST /v1/audit/verify accepts (`delve verify FILE` has no cap)."),
    Setting("DELVE_MAX_BODY_BYTES", str(33 * 1024 * 1024), _positive, API, "Largest request body of any route."),
    Setting("DELVE_BODY_TIMEOUT", "10", _seconds_or_off, API,
            "Seconds a request body has to arrive in full (408 past it; 0 = no deadline)."),
    Setting("DELVE_CORS_ORIGINS", "", str, API, "Comma-separated origins browsers may call the API from (* = any)."),
    Setting("DELVE_TRUSTED_PROXIES", "0", _count, API,
            "How many reverse proxies in front of the API to trust for X-Forwarded-For/-Proto/-Host. "
            "0 (the default) ignores those headers: the client address is the socket's peer."),
    Setting("DELVE_SSE_BLOCK_MS", "4000", _positive, API,
            "How long a stream waits for news before a keep-alive (below redis-py's 5 s socket timeout)."),
    Setting("DELVE_SSE_MAX_SECONDS", "300", _seconds, API,
            "Longest life of any stream; the client resumes with Last-Event-ID."),
    Setting("DELVE_SSE_MAX_STREAMS", "256", _positive, API, "Open streams per API process, all clients together."),
    Setting("DELVE_SSE_MAX_PER_GAME", "64", _positive, API, "Open streams of one game or tournament per API process."),
    # -- quotas per identity: the owner of a valid token (player, seat, admin), else the client address --
    Setting("DELVE_SSE_MAX_PER_CLIENT", "8", _natural, QUOTAS,
            "Open streams of every kind (game, tournament, player feed) per token, across all API processes "
            "(0 = no limit; the admin is not limited)."),
    Setting("DELVE_SSE_MAX_PER_ADDRESS", "32", _natural, QUOTAS,
            "Open streams of every kind per client address, whatever the tokens, across all API processes "
            "(0 = no limit)."),
    Setting("DELVE_PLAYERS_PER_HOUR", "30", _natural, QUOTAS, "Players one client address may create per hour (0 = no limit)."),
    Setting("DELVE_GAMES_PER_HOUR", "60", _natural, QUOTAS,
            "Games one identity may create per hour (0 = no limit; the admin is not limited)."),
    Setting("DELVE_TOURNAMENTS_PER_HOUR", "10", _natural, QUOTAS,
            "Tournaments one player may create per hour (0 = no limit; the admin is not limited)."),
    Setting("DELVE_ACTIVE_GAMES_PER_PLAYER", "32", _natural, QUOTAS,
            "Unfinished games (open or active) a player may sit in at once, tournament games aside; "
            "past it, creating or joining a game answers 429 (0 = no limit)."),
    Setting("DELVE_INVITATIONS_PER_PLAYER", "100", _natural, QUOTAS,
            "Pending invitations (to tournaments and reserved seats) one player may hold; past it, inviting "
            "them more answers 422 too_many_invitations until they answer some (0 = no limit)."),
    Setting("DELVE_TOURNAMENT_MAX_ENTRANTS", "128", _positive, QUOTAS, "Entrants one tournament may hold."),
    Setting("DELVE_TOURNAMENT_MAX_GAMES", "2048", _positive, QUOTAS,
            "Games a tournament may plan: creating or starting one whose format would play more is refused "
            "(a round robin of n entrants at table size 2 plans n(n-1)/2)."),
    # -- workers and reactor (workers/) --
    Setting("DELVE_QUEUE", "delve", str, WORKERS, "The rq queue name (tests use their own)."),
    Setting("DELVE_SHARDS", "1", _positive, WORKERS,
            "Shards the games are split into for the reactors and the rq queues: a game's shard is its "
            "partition modulo this (at most DELVE_PARTITIONS); each shard has its own queue, "
            "<DELVE_QUEUE>:<shard> (just DELVE_QUEUE with 1 shard). Fixed for the life of a deployment."),
    Setting("DELVE_SHARD", None, _numbers, WORKERS,
            "The shards this process's reactor or worker serves, comma-separated (e.g. 0 or 1,3; "
            "unset: every shard). Give each shard at least one reactor and one worker."),
    Setting("DELVE_REACTOR_GROUP", "reactors", str, WORKERS, "The feeds' consumer group."),
    Setting("DELVE_REACTOR_MIN_IDLE_MS", "5000", _natural, WORKERS,
            "A dead reactor's feed entries are taken over after this many milliseconds (a reactor "
            "starting up takes over at once what has been pending for a second)."),
    Setting("DELVE_REACTOR_SWEEP_SECONDS", "30", _seconds, WORKERS,
            "How often active games that did not move are checked again."),
    Setting("DELVE_JOB_STALE_SECONDS", "2", _seconds, WORKERS,
            "A running job without a heartbeat (one a second) this long is presumed dead and run again."),
    Setting("DELVE_LOG_LEVEL", "INFO", _log_level, WORKERS, "Log level of `delve serve`, `delve worker` and `delve reactor` and of the processes they start (`delve --log-level` overrides it)."),
    # -- the command line (delve/) --
    Setting("DELVE_DATA_DIR", ".delve-data", str, CLI,
            "`delve serve`'s embedded Redis data, admin token (admin-token) and signing key (signing/current.pem, retired/ beside it); when unset: .delve-data in the working directory."),
)
SETTINGS: dict[str, Setting] = {s.name: s for s in _ALL}
# The environment that lifts every limit per identity (0 = no limit) but the tournaments' sizes: for
# benchmarks and test harnesses, whose every client is one address (DELVE_RATE_LIMIT with them).
UNLIMITED = {s.name: "0" for s in _ALL if s.group == QUOTAS and not s.name.startswith("DELVE_TOURNAMENT_MAX")} \
    | {"DELVE_RATE_LIMIT": "0"}


def get(name: str) -> Any:
    """The parsed value of setting ``name`` now (its default when unset or empty; None when it has none)."""
    setting = SETTINGS[name]
    raw = os.environ.get(name) or setting.default
    if raw is None:
        return None
    try:
        return setting.parse(raw)
    except ValueError as exc:
        raise BadSetting(f"{name}={raw!r} is not valid ({exc}): {setting.doc}") from None


def problems() -> list[str]:
    """What is wrong with the settings the environment holds now: one message per setting whose
    value does not parse (a server checks them all before it starts anything)."""
    found = []
    for name in SETTINGS:
        try:
            get(name)
        except BadSetting as exc:
            found.append(str(exc))
    return found


def raw(name: str) -> str | None:
    """The value as written in the environment (None when unset or empty), for passing on to a child process."""
    SETTINGS[name]  # a name not in the list is a bug here, not a silent None
    return os.environ.get(name) or None
