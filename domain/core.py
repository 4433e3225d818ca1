"""The contract every game implements, and the few pure tools they share.

A game is a *decider*: ``decide(state, seat, command, rng) -> events`` and
``evolve(state, event) -> state``. Nothing here does I/O, reads a clock or
touches a global RNG, so the same seed and commands replay byte for byte.

Events are plain JSON dicts ``{"type": "TunnelDug", "data": {...}}``; the
event store wraps them in envelopes (seq, hash chain, seat, command id).
Commands are plain JSON dicts with a ``type``.
"""
from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence, TypeVar

Event = dict[str, Any]
Command = dict[str, Any]
State = Any
T = TypeVar("T")


def event(type_: str, **data: Any) -> Event:
    """Build an event dict: ``event("CardDrawn", seat=2, card="P17")``."""
    return {"type": type_, "data": data}


def canonical_json(value: Any) -> str:
    """The one JSON spelling used for hashing and byte-for-byte comparison."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Illegal(Exception):
    """A command the rules forbid.

    ``code`` is a stable snake_case identifier clients can switch on; ``rule``
    is the rule ID in ``shared/rules/`` that forbids the command (``SAB-PATH-3``).
    The message must never reveal hidden information.
    """

    def __init__(self, code: str, rule: str | None, message: str):
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.message = message

    def __repr__(self) -> str:
        return f"Illegal({self.code!r}, {self.rule!r}, {self.message!r})"


@dataclass(frozen=True)
class Seat:
    """A place at the table. ``bot`` names a bot policy, or None for a human."""

    index: int
    name: str
    bot: str | None = None

    def to_dict(self) -> dict:
        return {"seat": self.index, "name": self.name, "bot": self.bot}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Seat":
        return cls(index=int(data["seat"]), name=str(data["name"]), bot=data.get("bot"))


class Drbg:
    """Deterministic random bit generator: HMAC-SHA256(seed, stream:counter).

    The platform hands ``decide`` a fresh generator whose ``stream`` names the
    game version the command is decided at (``"v17"``), so the counter lives
    in the event log itself and a replay draws the very same numbers.
    """

    def __init__(self, seed: bytes, stream: str):
        self._key = seed
        self._stream = stream.encode()
        self._counter = 0

    def _next64(self) -> int:
        msg = self._stream + b":" + str(self._counter).encode()
        self._counter += 1
        return int.from_bytes(hmac.new(self._key, msg, hashlib.sha256).digest()[:8], "big")

    def randbelow(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self._next64()
            if x < limit:
                return x % n

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.randbelow(len(seq))]

    def shuffled(self, items: Iterable[T]) -> list[T]:
        """A Fisher-Yates shuffled copy."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def fork(self, name: str) -> "Drbg":
        """An independent generator for a named purpose (a bot's choices, say)."""
        return Drbg(hmac.new(self._key, self._stream + b"/" + name.encode(), hashlib.sha256).digest(), name)


@dataclass(frozen=True)
class SeatScore:
    seat: int
    total: int
    breakdown: dict[str, int]
    place: int  # 1 = winner; seats that share a place share the win

    def to_dict(self) -> dict:
        return {"seat": self.seat, "total": self.total, "breakdown": dict(self.breakdown), "place": self.place}


@dataclass(frozen=True)
class Scoreboard:
    """Per-seat breakdown by category plus a ranking with shared places."""

    final: bool
    seats: list[SeatScore] = field(default_factory=list)

    @property
    def ranking(self) -> list[int]:
        return [s.seat for s in sorted(self.seats, key=lambda s: (s.place, s.seat))]

    @property
    def winners(self) -> list[int]:
        return [s.seat for s in self.seats if s.place == 1]

    def to_dict(self) -> dict:
        return {
            "final": self.final,
            "ranking": self.ranking,
            "winners": self.winners,
            "seats": [s.to_dict() for s in sorted(self.seats, key=lambda s: s.seat)],
        }

    @classmethod
    def rank(
        cls,
        final: bool,
        breakdowns: Mapping[int, Mapping[str, int]],
        tiebreak: Mapping[int, Any] | None = None,
    ) -> "Scoreboard":
        """Place seats by total (high first), then by ``tiebreak`` (high first).

        Seats equal on both share a place (standard competition ranking:
        1, 1, 3). A game whose tie-breaker prefers *low* values passes negated
        numbers.
        """
        tiebreak = tiebreak or {}
        keyed = {
            seat: (sum(b.values()), tiebreak.get(seat, 0)) for seat, b in breakdowns.items()
        }
        order = sorted(keyed, key=lambda s: keyed[s], reverse=True)
        seats: list[SeatScore] = []
        for pos, seat in enumerate(order):
            if pos and keyed[seat] == keyed[order[pos - 1]]:
                place = seats[-1].place
            else:
                place = pos + 1
            seats.append(SeatScore(seat, keyed[seat][0], dict(breakdowns[seat]), place))
        return cls(final=final, seats=seats)


BotPolicy = Callable[[Any, State, int, Drbg], Command]
"""``policy(game, state, seat, rng) -> command``. Pure; uses only what ``seat``
may know (its ``view`` and ``legal_commands``) unless documented otherwise."""


class Game(Protocol):
    """What the platform needs of a game. See DESIGN.md, "The Game protocol"."""

    id: str
    title: str
    min_players: int
    max_players: int
    rules_version: str
    options_schema: dict  # JSON Schema of the options object, shown in /v1/catalog
    command_schema: dict  # JSON Schema (oneOf, one branch per command type) of the commands, in /v1/catalog/{game}
    bots: Mapping[str, BotPolicy]

    def validate_options(self, options: dict, seats: int) -> dict:
        """Normalised options (defaults filled in); raises Illegal."""

    def start(self, options: dict, seats: list[Seat], rng: Drbg) -> list[Event]:
        """The events that set the table up (deal, shuffle, place)."""

    def initial_state(self) -> State:
        """The empty state that ``start``'s events are folded onto."""

    def evolve(self, state: State, event: Event) -> State:
        """Apply one event. Total and deterministic; may mutate ``state``."""

    def decide(self, state: State, seat: int, command: Command, rng: Drbg) -> list[Event]:
        """Events a legal command causes; raises Illegal. Never mutates ``state``."""

    def legal_commands(self, state: State, seat: int) -> list[Command]:
        """Every command ``seat`` may issue now."""

    def active_seats(self, state: State) -> set[int]:
        """Seats expected to act now."""

    def is_terminal(self, state: State) -> bool: ...

    def content(self) -> dict:
        """The static, public components (cards, maps, tiles) that views name by id."""

    def view(self, state: State, seat: int | None) -> dict:
        """What ``seat`` may see (None = spectator). Must not leak secrets."""

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """What ``seat`` may see of ``event`` (None = hide it entirely)."""

    def scores(self, state: State) -> Scoreboard: ...

    def dump_state(self, state: State) -> dict:
        """JSON-ready form of the state (for snapshots)."""

    def load_state(self, data: dict) -> State:
        """Inverse of ``dump_state``."""


def fold(game: Game, events: Iterable[Event], state: State | None = None) -> State:
    """Evolve ``state`` (or the initial state) through ``events``."""
    if state is None:
        state = game.initial_state()
    for ev in events:
        state = game.evolve(state, ev)
    return state


def require(condition: bool, code: str, rule: str | None, message: str) -> None:
    """Raise ``Illegal`` unless ``condition`` holds: keeps rule checks one line each."""
    if not condition:
        raise Illegal(code, rule, message)
