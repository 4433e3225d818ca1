"""In the Hall of the Mountain King as a Delve game (domain/mountain_king/RULES.md).

``GAME`` is the registered object. Seats are clockwise; the start player is the
``start_player`` option, seat 0 by default. In the 2v2 variant the 1st+4th and
2nd+3rd players in turn order are teams (MK-TEAM-5).

Commands (positions are ``[r, c]`` board spaces or ``[r, i]`` roster positions)
-------------------------------------------------------------------------------
Setup:

- ``{"type": "place_door", "point": "A"}`` -- a start point id of the board side, in turn order
  (MK-PSETUP-3; two players share a label, teammates take a marked pair, MK-AMB-27b).
- ``{"type": "draft", "card": "magenta-3", "slot": 2}`` -- place one of the two
  starters you hold on an empty slot 1..4 and keep the other (MK-PSETUP-4). All
  seats draft at once.

A turn, in step order (MK-TURN-1); a command of a later step moves the turn
forward to it, never back (MK-TURN-3, refused with ``out_of_phase``):

- ``{"type": "trade", "give": {"iron": 2, "coin": 2}, "get": "cart"}`` -- any time
  in your turn (MK-TRADE-1).
- ``{"type": "cast", "spell": "troll_lure", "slot": "B2", "res": "coin"}`` -- step 1,
  one per turn; the parameters depend on the spell (content/spells.yaml):
  ``slot``+``res`` (troll_lure, gilded_promise), ``troll: [r, i]`` (rallying_drum,
  quartermasters_whistle), ``give``+``get`` resource names (transmutation),
  ``from``+``to`` (statue_song), ``clan`` (sculptors_call), ``slot`` (pickpocket,
  dismissal), none for the rest.
- ``{"type": "use_workshop", "space": [r, c], "give": {"heartstone": 1}, "get": {"hammer": 1}}``
  or, at a Quartermaster's Post, ``{"type": "use_workshop", "space": [r, c], "move": [r, i, k]}``
  (token ``k`` of your troll at ``[r, i]``). Step 1; the first use activates the
  workshop, each command is one use (MK-WS-4/5).
- ``{"type": "recruit", "slot": "T3", "position": [2, 1], "pedestal": "ice"}`` -- step 2;
  ``pedestal`` only for a top-row troll, optional (MK-REC-9, MK-AMB-9).
- ``{"type": "dig", "tile": "L4", "cells": [[r, c], ...], "anchor": [r, c] | null, "mineral": "iron"}``
  -- step 2; ``cells`` in any order, ``anchor`` the tile's anchor space in this
  orientation (MK-DIG).
- ``{"type": "place_pedestal", "clan": "fire"}`` and
  ``{"type": "establish_workshop", "space": [r, c], "kind": "tool_forge"}`` -- right
  after your dig (MK-DIG-12).
- ``{"type": "build_hall", "hall": "the-rift", "cells": [[r, c], ...], "altar": [r, c]}`` -- step 3.
- ``{"type": "move_statue", "from": [r, c], "to": [r, c], "cart": "clan" | "wild"}`` -- step 4, one
  cart per move (MK-MOVE-6).
- ``{"type": "end_step"}`` ends the current step (after step 4: the turn);
  ``{"type": "end_turn"}`` ends the turn. Both skip step 2 only when you can
  neither recruit nor dig (MK-ACT-4).

Payment (MK-RES-2): every paying command may carry ``"sources": ["storage", [1, 2], ...]``,
the order in which your storage and roster trolls are drawn on; the default is
your roster bottom row first, left to right, then storage. ``legal_commands``
lists each action once, with the default sources.

The command shapes are also a JSON Schema, ``commands_schema.COMMAND_SCHEMA``, enforced
before the rules see a command (``domain.kit``): the rules may assume the declared types.

Events: TableSet, HordeDealt (deck order secret), PedestalsDrawn, WorkshopsRevealed,
SpellbookRevealed (deck order secret), StatuesPlaced, StarterDecksShuffled (secret),
PhaseBegan, DoorPlaced, StartersDrawn (cards: owner only), StarterPlaced,
StartingResourcesTaken, DraftFinished, TurnStarted, StepBegan, Traded, SpellCast,
SpellDisintegrated, ResourcesGained, ResourcesExchanged, BribesPlaced, BribesCollected,
TokensStored, TurnFlagSet, PedestalTaken, WorkshopActivated, WorkshopUsed,
TrollRecruited, HordeRefilled, TrollRetired, TrollsActivated, CoronationTaken,
EndTriggered, TunnelDug, PedestalPlaced, WorkshopEstablished, GreatHallBuilt,
StatueMoved, TurnEnded, GameEnded (final breakdowns).

Options (``OPTIONS_SCHEMA``; every default is the spec's reading or "Proposed"
resolution): ``board`` ("winter" | "autumn"; default by player count, MK-BOARD-1),
``teams`` (2v2, exactly 4 seats, Winter side; MK-TEAM-1), ``clan_carts_generic_payment``
(MK-AMB-3), ``unlimited_supply`` (MK-AMB-4), ``hall_mirroring`` (MK-AMB-18),
``workshops`` (chosen tiles, MK-SETUP-6.1), ``replace_duplicate_workshops`` (MK-SETUP-6.2),
``colours`` (one per seat) and ``start_player`` (MK-PSETUP-1).
"""
from __future__ import annotations

from domain.core import Drbg, Event, GameType, Scoreboard, Seat, Turn, require
from domain.kit import BaseGame, Batch, rule, search

from . import commands, content, drawing, labels, public, secrecy, setup
from .bots import BOTS
from .sampler import SEARCH
from .commands_schema import COMMAND_SCHEMA
from .evolve import evolve
from .scoring import CATEGORIES, breakdowns, tiebreak
from .positions import POSITIONS, VERBS
from .secrecy import SECRECY
from .state import store_of
from .workshops import TYPES

OPTIONS_SCHEMA: dict = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "board": rule({
            "enum": ["winter", "autumn", None], "default": None,
            "description": "Board side; null = Winter for 4-5 players and teams, Autumn for 2-3 (MK-BOARD-1).",
        }, "bad_option", "MK-BOARD-1"),
        "teams": {
            "type": "boolean", "default": False,
            "description": "2 versus 2 team variant; exactly 4 seats, Winter side (MK-TEAM-1).",
        },
        "clan_carts_generic_payment": {
            "type": "boolean", "default": False,
            "description": "Clan carts may pay any cost except at the Cartwright's House (MK-AMB-3).",
        },
        "unlimited_supply": {
            "type": "boolean", "default": False,
            "description": "Treat the resource counts as a guide: the supply never runs out (MK-AMB-4).",
        },
        "hall_mirroring": {
            "type": "boolean", "default": False,
            "description": "Great halls may be flipped as well as rotated (MK-AMB-18).",
        },
        "workshops": rule({
            "type": ["array", "null"], "items": {"enum": list(TYPES)}, "default": None,
            "description": "The 2 x players + 1 workshop tiles chosen before the game; null = random (MK-SETUP-6.1).",
        }, "bad_option", "MK-SETUP-6.1"),
        "start_player": rule({
            "type": "integer", "minimum": 0, "maximum": 4, "default": 0,
            "description": "Seat of the start player, who holds the crown (MK-PSETUP-1).",
        }, "bad_option", "MK-PSETUP-1"),
        "colours": rule({
            "type": ["array", "null"], "items": {"enum": list(content.colours())}, "uniqueItems": True,
            "default": None,
            "description": "Each seat's colour, distinct; null = the pack's colours in order (MK-PSETUP-1).",
        }, "bad_option", "MK-PSETUP-1"),
        "replace_duplicate_workshops": {
            "type": "boolean", "default": False,
            "description": "Random reveal replaces duplicates of revealed tiles (MK-SETUP-6.2).",
        },
    },
}


class MountainKing(BaseGame):
    id = "mountain-king"
    title = "In the Hall of the Mountain King"
    rules_version = "mountain-king-1"
    rule_prefix = "MK"
    renderer = "mountain-king"
    positions = POSITIONS
    position_verbs = VERBS
    content_tables = content.TABLES
    unlisted_fields = ("sources",)  # the paying order (MK-RES-2): the default is listed
    game_type = GameType(2, 5, chance=True, information="imperfect", teams=True, simultaneous=True)
    players_rule = "MK-GEN-1"
    over_rule = "MK-END-6"
    options_schema = OPTIONS_SCHEMA
    command_schema = COMMAND_SCHEMA
    bots = {**BOTS, **search.bots(SEARCH)}  # search-*: the kit's ISMCTS over ``sampler``
    evolve = staticmethod(evolve)
    secrecy = SECRECY
    draw = staticmethod(drawing.board)

    def check_options(self, out: dict, seats: int) -> dict:
        teams = out["teams"]
        require(not teams or seats == 4, "bad_option", "MK-TEAM-1", "the team variant needs exactly 4 seats")
        chosen = out["workshops"]
        if chosen is not None:
            require(len(chosen) == 2 * seats + 1 and all(chosen.count(k) <= 2 for k in chosen), "bad_option",
                    "MK-SETUP-6.1", f"choose {2 * seats + 1} workshop tiles, at most 2 of a type")
        require(out["start_player"] < seats, "bad_option", "MK-PSETUP-1", "start_player is a seat index")
        colours = out["colours"]
        if colours is not None:
            require(len(colours) == seats, "bad_option", "MK-PSETUP-1",
                    f"one distinct colour per seat among {', '.join(content.colours())}")
        board = out["board"]
        if board is None:
            board = "winter" if seats >= 4 else "autumn"
        require(seats == 2 or board == ("winter" if seats >= 4 else "autumn"), "bad_option", "MK-BOARD-1",
                "Winter is for 4-5 players, Autumn for 3; either side with 2")
        out["board"] = board
        if teams:
            require(board == "winter", "bad_option", "MK-TEAM-1", "the team variant is played on Winter")
        return out

    def setup(self, options: dict, seats: list[Seat], rng: Drbg) -> list[Event]:
        return setup.start(options, len(seats), rng)

    def rules_decide(self, state: dict, seat: int, command: dict, rng: Drbg) -> list[Event]:
        require(isinstance(seat, int) and 0 <= seat < state.get("n", 0), "bad_seat", None, "no such seat")
        b = Batch(state, evolve)
        commands.dispatch(b.state, seat, command, rng, b.add)
        return b.events

    def rules_legal(self, state: dict, seat: int) -> list[dict]:
        if not state.get("phase") or not 0 <= seat < state["n"]:
            return []
        return commands.legal(state, seat)

    def rules_label(self, state: dict, seat: int, command: dict, public: bool) -> str:
        return labels.label(state, command, public)

    def rules_turn(self, state: dict) -> Turn:
        phase = state.get("phase")
        if phase == "draft":
            return Turn.to_seats(p for p in range(state["n"]) if setup.drafting(state, p))
        if phase in ("doors", "play"):
            return Turn.to_seats({state["current"]})
        return Turn.over()

    def players(self, state: dict) -> int:
        return state["n"]

    def teams(self, state: dict) -> list[list[int]] | None:
        """The 2v2 variant's two teams, 1st+4th and 2nd+3rd in turn order (MK-TEAM-5)."""
        return [list(team) for team in state["teams"]] if state.get("teams") else None

    def content(self) -> dict:
        return public.components()

    def view(self, state: dict, seat: int | None) -> dict:
        return secrecy.view(state, seat)

    def rules_scores(self, state: dict) -> Scoreboard:
        """Live totals during play; the GameEnded breakdown once over (section 23)."""
        if state.get("phase") not in ("play", "over"):
            zero = dict.fromkeys(CATEGORIES, 0)
            return Scoreboard.rank(False, {p: zero for p in range(state.get("n", 0))})
        per_store = breakdowns(state)
        per_seat = {p: per_store[store_of(state, p)] for p in range(state["n"])}
        return Scoreboard.rank(state["phase"] == "over", per_seat, tiebreak(state))


GAME = MountainKing()
