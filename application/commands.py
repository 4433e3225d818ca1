"""Commands: create a game, then decide and append what a seat sends.

Options and commands are validated against the game's JSON Schemas before
the rules see them -- by the game's own ``validate_options`` and ``decide``
(``domain.kit.BaseGame``: 422 with a stable code and the rule), so verify and
the driver enforce them too. Every batch records what caused it, so
``verify`` can re-run it. What the platform decides itself (bot and actor
turns, platform commands, closing a game) is ``application.turns``.
"""
from __future__ import annotations

import json
import secrets
from typing import Any

from domain import registry
from domain.core import Drbg, Illegal, Seat, State, fold
from domain.kit import START_STREAM, command_stream
from errors import Forbidden, NotActive, VersionConflict
from application import clocks, lobby, records, seating, seeding
from application.feed import PlayerFeed
from application.invitations import Invitations
from application.loaded import Loaded
from application.players import Players
from application.redaction import redacted
from application.signing import Signer
from application.status import GameStatus
from application.tokens import hash_token, new_token
from events.repository import Repository
from events.store import RedisEventStore


class Commands:
    def __init__(self, store: RedisEventStore, repo: Repository, signer: Signer | None, players: Players,
                 invitations: Invitations, feed: PlayerFeed):
        self.store, self.repo, self.signer = store, repo, signer
        self.players, self.invitations, self.feed = players, invitations, feed

    def create(self, game_id: str, seats: list[dict], options: dict, tags: dict[str, str] | None = None, *,
               creator: str | None = None, visibility: str = "public", clock: dict | None = None,
               derived_id: str | None = None, rules_version: str | None = None,
               idem: tuple[str, dict] | None = None) -> dict:
        """Create a game: validate, seed, deal, append. Returns the create response.

        ``tags`` are extra meta fields (a tournament game names its tournament
        there, so the job table can tell it apart). Seats may be left open or
        reserved for a player (``application.seating``); such a game waits in status
        ``open`` with nothing dealt until the last seat is taken
        (``application.joining``). ``creator`` (a player id) may cancel it; a
        ``private`` game hands out an invite token for spectators; ``clock`` is
        a time control (``application.clocks``). ``derived_id`` is given only by a caller
        that derives it (a tournament's table), to create it at most once: a
        taken id raises GameExists and writes nothing. ``rules_version`` (default: the
        current one) is given by a tournament, whose tables keep the version it started with.
        ``idem`` = (key, record): an Idempotency-Key's record (with ``derived_id``), completed with
        this very response (seat tokens included, so a retry gets them) and stored by the append
        that creates the game.
        """
        game = registry.get(game_id, rules_version)
        if not game.min_players <= len(seats) <= game.max_players:
            raise Illegal("bad_player_count", None,
                          f"{game.title} takes {game.min_players}-{game.max_players} seats, not {len(seats)}")
        seats = [seating.named_bot(i, s) for i, s in enumerate(seats)]
        for i, s in enumerate(seats):
            if s.get("bot") is not None and s["bot"] not in game.bots:
                raise Illegal("unknown_bot", None,
                              f"seat {i}: no bot {s['bot']!r}; choose one of {sorted(game.bots)}")
        roster = seating.roster(seats, self.players.exists)
        opts = game.validate_options(options, len(seats))
        ctl = clocks.control(clock, game)
        table = [Seat.from_dict(s) for s in roster]
        seed = secrets.token_bytes(32)
        gid = derived_id or "g" + secrets.token_hex(8)
        created = {"type": "GameCreated", "data": {
            "game": game.id, "options": opts, "seats": roster,
            "rules_version": game.rules_version, "seed_commitment": seeding.commitment(seed),
            **({"clock": ctl} if ctl else {})}}
        waiting = seating.waiting(roster)
        start = [] if waiting else game.start(opts, table, Drbg(seed, START_STREAM))
        state = None if waiting else fold(game, start)
        tokens = {s.index: new_token() for s in table if s.bot is None and not roster[s.index].get("open")}
        invite = new_token() if visibility == "private" else None
        meta = {"game": game.id, "status": GameStatus.OPEN if waiting else GameStatus.ACTIVE,
                ("server_seed" if waiting else "seed"): seed.hex(), "seats": json.dumps(roster),
                "rules_version": game.rules_version, "visibility": visibility, "creator": creator or "",
                **({"invite": hash_token(invite)} if invite else {}),
                **({"clock_control": json.dumps(ctl)} if ctl and waiting else {}),
                **({} if waiting else clocks.at_start(ctl, len(table), game.active_seats(state), 1 + len(start))),
                **records.commitment_meta(self.signer, gid, created["data"]),
                **(tags or {}), **{f"token:{i}": hash_token(t) for i, t in tokens.items()}}
        out = {"id": gid, "game": game.id, "version": 1 + len(start), "status": meta["status"],
               "visibility": visibility, "seats": [{**s, "token": tokens.get(s["seat"])} for s in roster]}
        if invite:
            out["invite_token"] = invite
        self.repo.create(gid, game, meta, [created, *start], command_id=f"create:{gid}", state=state,
                         idem=(idem[0], {**idem[1], "created": out}) if idem else None)
        lobby.project(self.store, gid)
        for s in roster:
            if s.get("reserved"):  # taken only if that player accepts (application/invitations.py)
                self.invitations.add(s["reserved"], {"id": gid, "kind": "seat", "game_id": gid, "game": game.id,
                                                     "seat": s["seat"], "by": creator,
                                                     "created_at": clocks.now_iso()})
                self.feed.publish(s["reserved"], "seat_reserved", {"game_id": gid, "game": game.id, "seat": s["seat"]})
        return out

    def load(self, game_id: str, upto: int | None = None, meta: dict[str, str] | None = None) -> Loaded:
        """The game with its meta; now (``upto`` None) in one Redis round trip when this process has it cached."""
        return self.repo.load(game_id, upto, meta)

    def submit(self, game_id: str, seat: int, expected_version: int, command: Any, command_id: str) -> dict:
        """Decide and append one command for ``seat``.

        The version check comes first, so a stale client learns that before
        anything about its command. Nothing is written unless decide accepts.
        """
        return self.submit_loaded(self.load(game_id), game_id, seat, expected_version, command, command_id)

    def submit_loaded(self, g: Loaded, game_id: str, seat: int, expected_version: int, command: Any,
                      command_id: str, idem: tuple[str, dict] | None = None) -> dict:
        """``submit`` for a caller that has loaded the game already (a bot turn, the HTTP route).

        ``idem`` = (key, record): an idempotency record, completed here with
        the batch it answers and stored by the append itself (KeyAlreadyUsed
        if the key already names another batch).
        """
        if expected_version != g.version:
            raise VersionConflict(g.version)
        if g.finished:
            raise NotActive(game_id)
        self.dealt(g)
        self._in_time(g, game_id)
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise Illegal("malformed_command", None, "a command is a JSON object with a string 'type'")
        if seat not in range(len(g.seats)):
            raise Forbidden("not_a_seat", "only a seat of this game may act in it")
        evs = g.game.decide(g.state, seat, command, self.rng(g))
        return self.append(g, game_id, evs, seat, command, command_id, idem)

    @staticmethod
    def dealt(g: Loaded) -> None:
        """Refuse a command for a game still waiting for players (nothing is dealt to act on)."""
        if not g.meta.get("seed"):
            raise Illegal("game_not_started", None, "the game waits for players: it takes commands once every seat "
                          "is taken (see GET /v1/games/{id} for the open seats)")

    def _in_time(self, g: Loaded, game_id: str) -> None:
        """A command stamped after the game's clock fell (Redis's clock, read with the game) comes too
        late: the timeout is applied first, as if on time, and the command is stale (409)."""
        due = clocks.deadline_ms(g.meta) if g.meta.get("clock") else None
        now = self.store.stamp_ms(game_id, g.version) if due is not None else 0
        if due is not None and now >= due:
            clocks.expire(self, game_id, g.version, clocks.iso(now))
            raise VersionConflict(self.store.version(game_id))

    @staticmethod
    def rng(g: Loaded) -> Drbg:
        """The DRBG of whatever is decided at the game's current version (``domain.kit.driver``)."""
        return Drbg(bytes.fromhex(g.meta["seed"]), command_stream(g.version))

    def append(self, g: Loaded, game_id: str, evs: list[dict], seat: int | None, command: dict,
               command_id: str, idem: tuple[str, dict] | None = None) -> dict:
        """Append one decided batch with what caused it; fold, cache and snapshot the new state."""
        if not evs:
            # A version must always name a change; a command that changes nothing is refused.
            raise Illegal("no_effect", None, "this command would change nothing")
        state = fold(g.game, evs, g.state)
        terminal = g.game.is_terminal(state)
        if idem is not None:
            idem = (idem[0], {**idem[1], "from_seq": g.version + 1, "version": g.version + len(evs),
                              "terminal": terminal})
        envs, _ = self.repo.append(g, evs, state=state, seat=seat, command_id=command_id, command=command, idem=idem,
                                   meta=self._clock_after(g, game_id, seat, state, g.version + len(evs)))
        return {"version": envs[-1]["seq"], "events": redacted(g.game, envs, seat, finished=False),
                "terminal": terminal}

    def _clock_after(self, g: Loaded, game_id: str, mover: int | None, state: State, version: int) -> dict[str, str]:
        """The clock record to write with a batch (``application.clocks``); nothing for a game without one."""
        meta = g.meta if int(g.meta.get("version", -1)) == g.version else self.store.meta(game_id)
        active = set() if g.game.is_terminal(state) else g.game.active_seats(state)
        return clocks.after_batch(meta, mover, active, version)

    def replay_action(self, game_id: str, seat: int, record: dict) -> dict:
        """The 201 answer of a committed command, rebuilt from its idempotency record and the log."""
        game = registry.of(self.store.meta(game_id))
        envs = self.store.read(game_id, after=record["from_seq"] - 1, upto=record["version"])
        return {"version": record["version"], "events": redacted(game, envs, seat, finished=False),
                "terminal": record["terminal"]}
