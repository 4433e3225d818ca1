"""Every exception Delve raises past its own module, in one place, grouped by the layer that raises it.

A rule a command breaks is ``domain.core.Illegal`` (the domain is pure and imports nothing of
ours); everything else is here. This package sits between the domain and the store in the layers
(rank 1), so the store, the settings, the application, the server, the workers and the CLI all
import their refusals from one module, and the server maps each once to problem+json
(``server/errors.py``).
"""
from __future__ import annotations

from pathlib import Path

from domain.core import Illegal

# -- the store: outcomes of a write or a read its caller must handle ------------------------------


class VersionConflict(Exception):
    """``expected_version`` was stale; ``current`` is the version now stored."""

    def __init__(self, current: int):
        super().__init__(f"version conflict: current version is {current}")
        self.current = current


class GameNotFound(Exception):
    pass


class GameExists(Exception):
    pass


class KeyAlreadyUsed(Exception):
    """The idempotency key of an append already names a committed batch (``record``)."""

    def __init__(self, record: dict):
        super().__init__("idempotency key already used")
        self.record = record


class CorruptLog(Exception):
    """A game's stored log does not hold together (chain, count or head): it is never compacted."""


class BadArchive(ValueError):
    """The archive does not rebuild the chain it names (corrupted or truncated)."""


class ReplicationUnconfirmed(Exception):
    """The write landed on the master, but fewer than ``wanted`` replicas acknowledged it in time."""

    def __init__(self, game_id: str, version: int, acked: int, wanted: int):
        super().__init__(f"game {game_id}: version {version} was written, but {acked} of {wanted} replicas "
                         "acknowledged it in time; it may be lost if the master fails now")
        self.game_id, self.version, self.acked, self.wanted = game_id, version, acked, wanted

    @property
    def unconfirmed(self) -> str:
        """Why the answer is a 503, for its detail."""
        return f"only {self.acked} of {self.wanted} Redis replicas confirmed it in time, so a failover now could lose it"


# -- settings ------------------------------------------------------------------------------------


class BadSetting(ValueError):
    """An environment variable holds a value its setting cannot read (the message names both)."""


# -- the application: each is one problem+json answer ---------------------------------------------


class Forbidden(Exception):
    """An authenticated caller asked for something its seat may not do (401 ``invalid_token``, else 403)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


class NotActive(Exception):
    """A command for a game that has finished or was aborted (409)."""


class NotHeld(Illegal):
    """A version inside one command's batch: the game never rested there. Names the nearest held ones."""

    def __init__(self, version: int, before: int | None, after: int | None):
        near = " and ".join(str(v) for v in (before, after) if v is not None)
        super().__init__("not_a_held_version", None,
                         f"version {version} falls inside one command's batch of events, where the game never "
                         f"rested; the nearest held versions are {near or 'none'} (or ask for ?move=n)")
        self.extra = {"nearest_held": [v for v in (before, after) if v is not None]}


class NoSuchVersion(LookupError):
    """A replay asked for a version the game has not reached (or never could) (404)."""

    def __init__(self, current: int):
        super().__init__(f"versions run from 1 to {current}")
        self.current = current


class NoSuchMove(LookupError):
    """A move number the game has not reached (404)."""

    def __init__(self, game_id: str, message: str):
        super().__init__(message)
        self.game_id = game_id


class PlayerNotFound(LookupError):
    """No player has this id (404); ``args[0]`` is the id asked for."""


class TournamentNotFound(LookupError):
    """No tournament has this id (404); ``args[0]`` is the id asked for."""


class InvitationNotFound(LookupError):
    """The player holds no invitation with this id (404); ``args[0]`` is the id asked for."""


class Full(Exception):
    """No lease left: ``retry_after`` seconds until the oldest one runs out at the latest (503)."""

    def __init__(self, cap: int, retry_after: int):
        super().__init__(f"{cap} held")
        self.cap, self.retry_after = cap, retry_after


class BadOpening(Exception):
    """An export's lobby (its events up to the deal) does not replay: ``seq`` names where it breaks."""

    def __init__(self, seq: int | None, text: str):
        super().__init__(text)
        self.seq, self.text = seq, text


# -- the server ----------------------------------------------------------------------------------


class ApiError(Exception):
    """An HTTP-level refusal raised by handlers (auth, paging, rate limits)."""

    def __init__(self, status: int, code: str, detail: str, **extra):
        super().__init__(detail)
        self.status, self.code, self.detail, self.extra = status, code, detail, extra


# -- the workers ---------------------------------------------------------------------------------


class NotDue(Exception):
    """Raised by a timer's job that could not do its work yet (its time has not come by the store
    Redis's clock, or its append lost a race): the timer is tried again at ``due_ms`` (100 ms on at
    the earliest), not dropped."""

    def __init__(self, due_ms: int):
        super().__init__(f"not due before {due_ms}")
        self.due_ms = due_ms


class Stalled(Exception):
    """Games that neither finished nor have a bot to move (they wait for a human)."""

    def __init__(self, games: set[str], why: str | None = None):
        super().__init__(why or f"{len(games)} game(s) wait for a move no bot will make: {sorted(games)[:5]}")
        self.games = games


# -- the `delve` command -------------------------------------------------------------------------


class BadRecord(ValueError):
    """The file is not a game export this server's rules can read."""


class NotFinishing(Exception):
    """The tournament stopped advancing: a game failed, or waits for a human."""


class Busy(RuntimeError):
    """Another `delve serve` holds the data dir."""

    def __init__(self, path: Path, pid: str):
        super().__init__(f"another `delve serve` (PID {pid or 'unknown'}) is using the data dir {path.parent}: "
                         f"stop it first, or give this one its own --data-dir (DELVE_DATA_DIR)")
        self.pid = pid
