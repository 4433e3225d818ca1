"""A tiny dice game where "the house" is a game-driven actor, for testing
the protocol's actor steps and the ``no_player_wins`` outcome end to end.

HOUSE-1: 1-4 seats play ``rounds`` rounds (option, 1-10, default 2).
HOUSE-2: in a round each seat in turn either rolls one die (adds 1-6 to its
total) or stands (adds 3).
HOUSE-3: after the last seat the house moves (a game-driven step, decided by
the rules with the DRBG): it rolls two dice and adds their sum plus 6, so the
house gains at least 8 a round and always ends ahead.
HOUSE-4: after the last round the game ends; the house is ranked like a
player, so it places first and no player wins.
"""
from __future__ import annotations

from domain.core import GameType, Scoreboard, Turn, actor_id, event, require
from domain.kit import BaseGame, Batch, Handlers, command, command_schema, random_bot

HOUSE = "house"


handlers = Handlers()


@handlers.on("TableSet")
def _table_set(s: dict, d: dict) -> None:
    s.update(players=d["players"], rounds=d["rounds"], round=1, current=0, totals=[0] * d["players"], house=0)


@handlers.on("Rolled", "Stood")
def _added(s: dict, d: dict) -> None:
    s["totals"][d["seat"]] += d["points"]
    s["current"] = s["current"] + 1 if s["current"] + 1 < s["players"] else None


@handlers.on("HouseRolled")
def _house_rolled(s: dict, d: dict) -> None:
    s["house"] += sum(d["dice"]) + 6
    s["round"] += 1
    s["current"] = 0 if s["round"] <= s["rounds"] else None


class HouseGame(BaseGame):
    id = "house"
    title = "House dice"
    rules_version = "house-1"
    rule_prefix = "HOUSE"
    game_type = GameType(1, 4, chance=True, information="perfect", actors=(HOUSE,))
    players_rule = "HOUSE-1"
    options_schema = {"type": "object", "additionalProperties": False, "properties": {
        "rounds": {"type": "integer", "minimum": 1, "maximum": 10, "default": 2,
                   "description": "Rounds to play (HOUSE-1)."}}}
    command_schema = command_schema("House dice command", [
        command("roll", "Roll one die and add it (HOUSE-2)."),
        command("stand", "Add 3 (HOUSE-2)."),
    ])
    bots = {"random": random_bot}
    evolve = staticmethod(handlers.evolver())

    def setup(self, options, seats, rng):
        return [event("TableSet", players=len(seats), rounds=options["rounds"])]

    def rules_turn(self, state):
        if state["round"] > state["rounds"]:
            return Turn.over()
        return Turn.to_actor(HOUSE) if state["current"] is None else Turn.to_seats({state["current"]})

    def rules_decide(self, state, seat, cmd, rng):
        require(seat in self.turn(state).seats, "not_your_turn", "HOUSE-2", "it is not your turn")
        b = Batch(state, self.evolve)
        if cmd["type"] == "roll":
            b.emit("Rolled", seat=seat, points=1 + rng.randbelow(6))
        else:
            b.emit("Stood", seat=seat, points=3)
        return b.events

    def decide_actor(self, state, actor, rng):
        require(self.turn(state).actor == actor == HOUSE, "not_the_house_turn", "HOUSE-3", "the house is not to move")
        return [event("HouseRolled", dice=[1 + rng.randbelow(6), 1 + rng.randbelow(6)])]

    def rules_legal(self, state, seat):
        return [{"type": "roll"}, {"type": "stand"}] if seat in self.turn(state).seats else []

    def rules_label(self, state, seat, cmd, public):
        return "Roll the die" if cmd["type"] == "roll" else "Stand on 3"

    def rules_scores(self, state):
        lines = {p: {"dice": t} for p, t in enumerate(state["totals"])}
        lines[actor_id(HOUSE)] = {"dice": state["house"]}
        return Scoreboard.rank(self.turn(state).terminal, lines)

    def players(self, state):
        return state["players"]

    def content(self):
        return {}

    def view(self, state, seat):
        return {k: state[k] for k in ("round", "rounds", "current", "totals", "house")}


GAME = HouseGame()
