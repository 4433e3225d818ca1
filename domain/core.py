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
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence, TypeVar

import orjson  # a pure serializer (no I/O): the fast path of canonical_json

Event = dict[str, Any]
Command = dict[str, Any]
State = Any
T = TypeVar("T")


def event(type_: str, **data: Any) -> Event:
    """Build an event dict: ``event("CardDrawn", seat=2, card="P17")``."""
    return {"type": type_, "data": data}


def kept_bytes(data: bytes) -> bytes:
    """``data`` in an allocation of its own size, for bytes that are kept (a cache, a key).

    orjson (3.12 on) hands back its working buffer as the bytes object: 4 KiB for a 60-byte
    search key, 16 KiB for a 5 KB state, and the allocation lives as long as the bytes do
    (Home Assistant trims what it caches the same way). One copy; for short-lived bytes skip it."""
    return bytes(memoryview(data))


def canonical_json(value: Any) -> str:
    """The one JSON spelling used for hashing and byte-for-byte comparison:
    ``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``.

    orjson writes the same bytes several times faster for everything but floats (it spells
    ``1e-05`` as ``0.00001``), integers past 64 bits and non-string keys; those (and any
    output holding a number token with a fraction or exponent) take the standard
    library's path, so the bytes never change (tests/platform/test_canonical_json.py)."""
    out = _fast_canonical(value)
    return out.decode() if out is not None else _standard(value)


def canonical_bytes(value: Any) -> bytes:
    """``canonical_json(value).encode()``, without decoding orjson's bytes only to encode them
    again (what a hash, or a comparison of many values, wants)."""
    out = _fast_canonical(value)
    return out if out is not None else _standard(value).encode()


def _standard(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _fast_canonical(value: Any) -> bytes | None:
    """orjson's bytes where they are the standard library's, else None.

    ``_FLOAT_TOKEN`` is slow on an envelope (its timestamp and hex hashes are candidates at
    each separator), so a cheaper necessary condition is asked first: where it matches,
    ``_MAYBE_FLOAT`` matches in the bytes seen through ``_NUMBER_SHAPE``, at the last digit
    of the token's whole part."""
    try:
        out = orjson.dumps(value, option=_ORJSON)
    except TypeError:
        return None
    if _MAYBE_FLOAT.search(out.translate(_NUMBER_SHAPE)) is None or _FLOAT_TOKEN.search(out) is None:
        return out
    return None


# A whole number token with a fraction or an exponent where JSON puts a value: after ``:``, ``,``
# or ``[`` (or alone) and before ``,``, ``]``, ``}`` (or the end). Text inside a string can match
# too (",1.5,"), which only costs the slower path; a timestamp's ":19.123Z" does not.
_FLOAT_TOKEN = re.compile(rb"(?:^|[:\[,])-?[0-9]+(?:\.[0-9]+(?:[eE][+-]?[0-9]+)?|[eE][+-]?[0-9]+)(?=[,\]}]|$)")
# Each byte as the classes of ``_FLOAT_TOKEN``'s fraction, exponent and end see it: digits as 0, E as
# e, } as ], the bytes . e + - , ] as themselves, any other as x.
_NUMBER_SHAPE = bytes(b"0"[0] if 48 <= b <= 57 else b"e"[0] if b == b"E"[0] else b"]"[0] if b == b"}"[0]
                      else b if b in b".e+-,]" else b"x"[0] for b in range(256))
_MAYBE_FLOAT = re.compile(rb"0(?:\.0+(?:e[+-]?0+)?|e[+-]?0+)(?=[,\]]|$)")
# Types json.dumps refuses (dataclasses, datetimes, subclasses) must not be spelled by orjson either.
_ORJSON = (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
           | orjson.OPT_PASSTHROUGH_SUBCLASS)


class Illegal(Exception):
    """A command the rules forbid.

    ``code`` is a stable snake_case identifier clients can switch on; ``rule``
    is the rule ID (defined in the game's RULES.md) that forbids the command (``SAB-PATH-3``).
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


_BLOCK = 64  # SHA-256's block size, in bytes
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))


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
        # HMAC's two keyed SHA-256 states (RFC 2104), hashed once and copied per draw: the
        # same bytes as ``hmac.digest(seed, msg, "sha256")`` at some 40 % of its cost (a search bot
        # draws hundreds of thousands of numbers per move).
        key = seed if len(seed) <= _BLOCK else hashlib.sha256(seed).digest()
        key = key.ljust(_BLOCK, b"\0")
        self._inner = hashlib.sha256(key.translate(_IPAD))
        self._outer = hashlib.sha256(key.translate(_OPAD))

    def _next64(self) -> int:
        inner = self._inner.copy()
        inner.update(self._stream + b":" + str(self._counter).encode())
        self._counter += 1
        outer = self._outer.copy()
        outer.update(inner.digest())
        return int.from_bytes(outer.digest()[:8], "big")

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


PLATFORM_COMMANDS = frozenset({"timeout", "resign", "abort", "forfeit"})
"""Commands no seat's rules decide: the platform issues them (a clock, an admin,
a player leaving) and records them in the envelope like a seat's command, so
``verify`` re-runs them. ``Game.decide_platform`` says what each means."""


def seat_id(seat: int) -> str:
    """Participant id of a seat: ``seat:2``."""
    return f"seat:{seat}"


def seat_of(participant: str) -> int | None:
    """The seat of a participant id (``seat:2`` -> 2); None for a team or an actor.
    The one parser of participant ids: games never split them by hand."""
    kind, _, rest = participant.partition(":")
    return int(rest) if kind == "seat" else None


def actor_id(actor: str) -> str:
    """Participant id of a game-driven actor: ``actor:automaton``, ``actor:monster-3``."""
    return f"actor:{actor}"


@dataclass(frozen=True)
class Turn:
    """Who acts next, like OpenSpiel's ``current_player()``: a set of seats,
    the game itself (a game-driven actor: an automaton, a monster, chance), or
    nobody (terminal). Seats and an actor never act at once.

    A game-driven step is decided by the rules (``Game.decide_actor``) with the
    DRBG and appended by the platform (a worker), so a replay reproduces it.
    """

    seats: frozenset[int] = frozenset()
    actor: str | None = None

    def __post_init__(self) -> None:
        if self.seats and self.actor is not None:
            raise ValueError("a turn belongs to seats or to a game-driven actor, not both")

    @classmethod
    def to_seats(cls, seats: Iterable[int]) -> "Turn":
        return cls(seats=frozenset(seats))

    @classmethod
    def to_actor(cls, actor: str) -> "Turn":
        return cls(actor=actor)

    @classmethod
    def over(cls) -> "Turn":
        return cls()

    @property
    def terminal(self) -> bool:
        return not self.seats and self.actor is None

    def to_dict(self) -> dict:
        return {"seats": sorted(self.seats), "actor": self.actor, "terminal": self.terminal}


@dataclass(frozen=True)
class GameType:
    """A game's dynamics declared as data (OpenSpiel's ``_GAME_TYPE``).

    ``actors`` names the game-driven participants that may take turns or be
    scored (DWARF's ``automaton``, Indagar's monsters); ``chance`` says the
    rules draw from the DRBG; ``information`` is ``perfect`` or ``imperfect``
    (then ``view``/``redact`` hide something); ``teams`` that seats may score
    as teams; ``simultaneous`` that several seats may be active at once.
    """

    min_players: int
    max_players: int
    chance: bool = True
    information: str = "imperfect"
    actors: tuple[str, ...] = ()
    teams: bool = False
    simultaneous: bool = False

    def to_dict(self) -> dict:
        return {"players": [self.min_players, self.max_players], "chance": self.chance,
                "information": self.information, "actors": list(self.actors), "teams": self.teams,
                "simultaneous": self.simultaneous}


@dataclass(frozen=True)
class SeatScore:
    seat: int
    total: int
    breakdown: dict[str, int]
    place: int  # 1 = winner; seats that share a place share the win

    def to_dict(self) -> dict:
        return {"seat": self.seat, "total": self.total, "breakdown": dict(self.breakdown), "place": self.place}


@dataclass(frozen=True)
class Standing:
    """A participant's line: a seat (``seat:0``), a team (``team:1``) or a
    game-driven actor (``actor:automaton``). ``place`` None = out of the
    ranking (an aborted game, a seat that resigned in a game that ranks the rest)."""

    participant: str
    total: int
    breakdown: dict[str, int]
    place: int | None

    def to_dict(self) -> dict:
        return {"id": self.participant, "total": self.total, "breakdown": dict(self.breakdown),
                "place": self.place}


OUTCOMES = ("pending", "win", "shared", "no_player_wins", "aborted")
"""``win``: one seat or team wins; ``shared``: several share first place;
``no_player_wins``: no seat wins (a game-driven actor won, or nobody did);
``aborted``: no result; ``pending``: not over."""


@dataclass(frozen=True)
class Outcome:
    kind: str
    winners: tuple[str, ...] = ()  # participant ids

    def __post_init__(self) -> None:
        if self.kind not in OUTCOMES:
            raise ValueError(f"unknown outcome {self.kind!r}")

    def to_dict(self) -> dict:
        return {"kind": self.kind, "winners": list(self.winners)}


def _participant_key(pid: str) -> tuple[int, str, int]:
    kind, _, rest = pid.partition(":")
    order = {"seat": 0, "team": 1, "actor": 2}.get(kind, 3)
    return (order, "" if rest.isdigit() else rest, int(rest) if rest.isdigit() else 0)


@dataclass(frozen=True)
class Scoreboard:
    """Standings over participants (seats, teams, game-driven actors) and an outcome.

    ``seats`` keeps the per-seat lines clients have always read; ``others``
    holds team and actor lines. ``to_dict`` keeps the old keys (``ranking`` and
    ``winners`` are seat numbers) and adds ``participants`` and ``outcome``.
    """

    final: bool
    seats: list[SeatScore] = field(default_factory=list)
    others: list[Standing] = field(default_factory=list)
    outcome: Outcome | None = None  # None = derived from the places

    @property
    def ranking(self) -> list[int]:
        return [s.seat for s in sorted(self.seats, key=lambda s: (s.place, s.seat))]

    @property
    def winners(self) -> list[int]:
        return [s.seat for s in self.seats if s.place == 1]

    @property
    def standings(self) -> list[Standing]:
        lines = [Standing(seat_id(s.seat), s.total, s.breakdown, s.place) for s in self.seats]
        lines += self.others
        return sorted(lines, key=lambda s: (s.place is None, s.place or 0, _participant_key(s.participant)))

    def result(self) -> Outcome:
        if self.outcome is not None:
            return self.outcome
        if not self.final:
            return Outcome("pending")
        first = [s.participant for s in self.standings if s.place == 1]
        if not any(p.startswith(("seat:", "team:")) for p in first):
            return Outcome("no_player_wins", tuple(first))
        return Outcome("win" if len(first) == 1 else "shared", tuple(first))

    def to_dict(self) -> dict:
        return {
            "final": self.final,
            "ranking": self.ranking,
            "winners": self.winners,
            "seats": [s.to_dict() for s in sorted(self.seats, key=lambda s: s.seat)],
            "participants": [s.to_dict() for s in self.standings],
            "outcome": self.result().to_dict(),
        }

    @classmethod
    def rank(
        cls,
        final: bool,
        breakdowns: Mapping[int | str, Mapping[str, int]],
        tiebreak: Mapping[int | str, Any] | None = None,
    ) -> "Scoreboard":
        """Place participants by total (high first), then by ``tiebreak`` (high first).

        Keys are seat numbers or participant ids (``actor:automaton``,
        ``team:0``); an actor ranks like a player (DW-SOLO-1). Participants
        equal on both share a place (standard competition ranking: 1, 1, 3).
        A game whose tie-breaker prefers *low* values passes negated numbers.
        """
        tiebreak = tiebreak or {}
        keyed = {who: (sum(b.values()), tiebreak.get(who, 0)) for who, b in breakdowns.items()}
        order = sorted(keyed, key=lambda w: keyed[w], reverse=True)
        places: dict[int | str, int] = {}
        for pos, who in enumerate(order):
            places[who] = places[order[pos - 1]] if pos and keyed[who] == keyed[order[pos - 1]] else pos + 1
        seats = [SeatScore(w, keyed[w][0], dict(breakdowns[w]), places[w]) for w in order if isinstance(w, int)]
        others = [Standing(w, keyed[w][0], dict(breakdowns[w]), places[w]) for w in order if isinstance(w, str)]
        return cls(final=final, seats=seats, others=others)


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
    game_type: GameType

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

    def turn(self, state: State) -> Turn:
        """Who acts next: seats, a game-driven actor, or nobody (terminal)."""

    def decide_actor(self, state: State, actor: str, rng: Drbg) -> list[Event]:
        """The game-driven actor's step when ``turn(state).actor == actor``
        (an automaton's placement, a monster's move, a chance draw). The
        platform appends it with no seat; ``verify`` re-runs it."""

    def decide_platform(self, state: State, seat: int | None, command: Command, rng: Drbg) -> list[Event]:
        """What a platform command (``PLATFORM_COMMANDS``: a seat's ``timeout``,
        ``resign`` or ``forfeit``; ``abort`` with seat None) means under this
        game's rules. ``domain.kit`` gives a default any game may override."""

    def active_seats(self, state: State) -> set[int]:
        """Seats expected to act now (``turn(state).seats``)."""

    def is_terminal(self, state: State) -> bool:
        """``turn(state).terminal``."""

    def content(self) -> dict:
        """The static, public components (cards, maps, tiles) that views name by id."""

    def label(self, state: State, seat: int | None, command: Command, *, public: bool = False) -> str:
        """A short human label of ``command`` by ``seat``: from that seat's viewpoint,
        or, with ``public``, naming only what every seat may see (``domain.kit``)."""

    def actor_label(self, state: State, actor: str, events: list[Event], *, public: bool = False) -> str:
        """A short human label of a game-driven actor's step, from its ``events`` (``domain.kit``)."""

    def what_followed(self, state: State, seat: int | None, command: Command, events: list[Event], *,
                      public: bool = False) -> str | None:
        """What a seat's command's batch did beyond the command, in words, or None (``domain.kit``)."""

    def view(self, state: State, seat: int | None) -> dict:
        """What ``seat`` may see (None = spectator). Must not leak secrets."""

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """What ``seat`` may see of ``event`` (None = hide it entirely)."""

    def scores(self, state: State) -> Scoreboard: ...

    def teams(self, state: State) -> list[list[int]] | None:
        """Seats that play as one side (rated as one team), or None: every seat for itself."""

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
