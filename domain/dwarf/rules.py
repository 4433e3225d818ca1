"""DWARF (domain/dwarf/RULES.md) as a Delve game. ``GAME`` is the registered object.

Participants: seats 0..n-1 clockwise; a one-seat game adds the solo automaton
(``actor:automaton``, DW-SOLO-1), a game-driven participant: ``turn`` names it when it
places and ``decide_actor`` plays it. Places are ``mine`` (0, or 1 with two copies
for 4-5 players, DW-COMB) and ``location`` ``"rc"`` (DW-GRID-1).

Commands (also ``commands_schema.COMMAND_SCHEMA``):

- ``{"type": "place", "mine": 0, "location": "23"}`` a worker on an available location;
- ``{"type": "special", "pile": 0, "pay": false}`` a Special Action instead of the first
  placement: both workers (``pay`` false) or one worker and 4 Medals (DW-SPEC-2);
- ``{"type": "pass"}`` leave the second worker or an extra worker unplaced;
- ``{"type": "order", "locations": [{"mine": 0, "location": "12"}, ...]}`` the order of
  your own actions in a Mine or Forge step, asked only when it changes what they
  produce (DW-AMB-14, ``ordering``).

Mining, resolution and the end of a round run by themselves after the last placement;
resolution stops for an order and goes on after it.

Events: GameSetUp, MineLaid, MountainShuffled (order secret), PilesDealt (secret but the
top cards' special sides), RoundStarted, CardMined, SelectionStarted, WorkerPlaced,
SpecialActionTaken, Gained, CardPlacedInMine, WorkerActedEarly, ExtrasGranted,
PlacementSkipped, HelpStarted, ExtraDeclined, ResolutionStarted, StepStarted,
OrderRequested, ActionsOrdered, MarkerPassed,
ActionsBanned, ActionResolved, ActionFailed, ThreatApplied, EndTriggered, RoundEnded,
GameEnded.
"""
from __future__ import annotations

from domain.core import (
    Command,
    Drbg,
    Event,
    GameType,
    Scoreboard,
    Seat,
    Turn,
    actor_id,
    require,
    seat_id,
)
from domain.dwarf import bots as _bots
from domain.dwarf.sampler import SEARCH
from domain.dwarf import content, labels, mining, options, rounds, scoring, secrecy, selection
from domain.dwarf.commands_schema import COMMAND_SCHEMA
from domain.dwarf.evolve import batch, evolve
from domain.dwarf.secrecy import SECRECY
from domain.kit import BaseGame, search

AUTOMATON = "automaton"


class Dwarf(BaseGame):
    id = "dwarf"
    content_tables = content.TABLES
    title = "DWARF"
    # 3: an unpaid action passes no marker (DW-FP-2/3); no seat for the automaton (DW-SOLO-4).
    # 4: Andvettr's second worker looks for Receive Help, not Defend (DW-AND-2, DW-AMB-28), and
    # only his Forge actions are doubled (DW-AND-5, DW-AMB-31): the rulebook's lost icons.
    # 5: with empty_mountain_end = finish_round every other Mountain is still mined (DW-COMB-3);
    # a Forge carried out early, before undefended Orc Raiders, passes the marker (DW-AMB-2/5).
    # 6: a worker a Special Action's Mine side covers a second time in a round does not act again
    # (DW-SPEC-6 «Este no se ejecuta de nuevo en esta ronda»); unreachable with the shipped cards.
    rules_version = "dwarf-6"
    rule_prefix = "DW"
    renderer = "dwarf"
    options_schema = options.OPTIONS_SCHEMA
    command_schema = COMMAND_SCHEMA
    bots = {**_bots.BOTS, **search.bots(SEARCH)}  # search-*: the kit's ISMCTS over ``sampler``
    game_type = GameType(1, 5, chance=True, information="imperfect", actors=(AUTOMATON,))
    players_rule = "DW-COMP-3"
    over_rule = "DW-END-4"
    evolve = staticmethod(evolve)
    secrecy = SECRECY

    def players(self, state: dict) -> int:
        return state["seats"]

    def check_options(self, opts: dict, seats: int) -> dict:
        return options.check(opts, seats)

    def setup(self, opts: dict, seats: list[Seat], rng: Drbg) -> list[Event]:
        """DW-SETUP: one copy for 1-3 players, two for 4-5 (DW-COMP-3, DW-COMB-1)."""
        n = len(seats)
        players = [seat_id(i) for i in range(n)]
        auto = None
        if opts["solo_level"]:
            auto = n
            players.append(actor_id(AUTOMATON))
        first = auto if auto is not None else (rng.randbelow(n) if opts["first_player"] is None
                                               else opts["first_player"])
        b = batch({})
        b.emit("GameSetUp", options=opts, seats=n, players=players, automaton=auto, level=opts["solo_level"],
               first=first, areas=2 if n >= 4 else 1)
        for area in range(len(b.state["areas"])):
            mining.lay_out(b, rng, area, opts["alternative_mountain"])
        rounds.start_round(b)
        rounds.advance(b)
        return b.events

    def rules_decide(self, state: dict, seat: int, command: Command, rng: Drbg) -> list[Event]:
        require(state["phase"] != "over", "game_over", "DW-END-4", "the game is over")
        require(0 <= seat < state["seats"], "not_a_seat", "DW-SOLO-4",
                "the automaton is played by the game, not through a seat")
        b = batch(state)
        selection.decide(b, seat, command)
        rounds.advance(b)
        return b.events

    def decide_actor(self, state: dict, actor: str, rng: Drbg) -> list[Event]:
        """The solo automaton's placement when ``turn`` names it (DW-SOLO-4)."""
        require(actor == AUTOMATON and self.turn(state).actor == AUTOMATON, "not_your_turn", "DW-SOLO-4",
                "the automaton does not place now")
        b = batch(state)
        selection.automaton_step(b)
        rounds.advance(b)
        return b.events

    def rules_legal(self, state: dict, seat: int) -> list[Command]:
        return selection.legal(state, seat)

    def rules_label(self, state: dict, seat: int, command: Command, public: bool) -> str:
        return labels.label(state, command)

    def rules_actor_label(self, state: dict, actor: str, events: list[Event]) -> str | None:
        return labels.automaton(state, events)

    def rules_turn(self, state: dict) -> Turn:
        h = selection.head(state)
        if state["phase"] == "over" or h is None:
            return Turn.over()
        if h["player"] == state["automaton"]:
            return Turn.to_actor(AUTOMATON)
        return Turn.to_seats({h["player"]})

    def rules_scores(self, state: dict) -> Scoreboard:
        return scoring.scoreboard(state)

    def content(self) -> dict:
        return content.components()

    def view(self, state: dict, seat: int | None) -> dict:
        return secrecy.view(state, seat)


GAME = Dwarf()
