"""A tiny dice game where "the house" is a game-driven actor, for testing
the protocol's actor steps and the ``no_player_wins`` outcome end to end, and
for showing that a new game is its package plus one registry line. Its rules,
with their ids, are RULES.md beside this module (served at /rules/house).
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
    rule_prefix = "HD"
    game_type = GameType(1, 4, chance=True, information="perfect", actors=(HOUSE,))
    players_rule = "HD-SEAT-1"
    over_rule = "HD-END-1"
    options_schema = {"type": "object", "additionalProperties": False, "properties": {
        "rounds": {"type": "integer", "minimum": 1, "maximum": 10, "default": 2,
                   "description": "Rounds to play (HD-SEAT-1)."}}}
    command_schema = command_schema("House dice command", [
        command("roll", "Roll one die and add it (HD-TURN-1)."),
        command("stand", "Add 3 (HD-TURN-1)."),
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
        require(seat in self.turn(state).seats, "not_your_turn", "HD-TURN-1", "it is not your turn")
        b = Batch(state, self.evolve)
        if cmd["type"] == "roll":
            b.emit("Rolled", seat=seat, points=1 + rng.randbelow(6))
        else:
            b.emit("Stood", seat=seat, points=3)
        return b.events

    def decide_actor(self, state, actor, rng):
        require(self.turn(state).actor == actor == HOUSE, "not_the_house_turn", "HD-HOUSE-1", "the house is not to move")
        return [event("HouseRolled", dice=[1 + rng.randbelow(6), 1 + rng.randbelow(6)])]

    def rules_legal(self, state, seat):
        return [{"type": "roll"}, {"type": "stand"}] if seat in self.turn(state).seats else []

    def rules_label(self, state, seat, cmd, public):
        return "Roll the die" if cmd["type"] == "roll" else "Stand on 3"

    def rules_actor_label(self, state, actor, events):
        return f"Roll {' and '.join(str(d) for d in events[0]['data']['dice'])}"

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
