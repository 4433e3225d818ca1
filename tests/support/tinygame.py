"""A deliberately tiny game with a secret per seat, for testing the platform
(store, service, API, workers) apart from any real game's complexity.

Each seat holds a secret digit. In turn, a seat guesses another seat's digit
(a hit scores 1) or passes; after ``turns`` turns the game ends. Rule ids are
``TINY-n``.
"""
from __future__ import annotations

from domain.core import GameType, Scoreboard, Seat, Turn, event, require
from domain.kit import BaseGame, Handlers, Secrecy, Secret, command, command_schema, random_bot, rule


handlers = Handlers()


@handlers.on("TableSet")
def _table_set(state, d):
    state["seats"], state["turns"] = d["seats"], d["turns"]
    state["score"] = {str(i): 0 for i in range(d["seats"])}


@handlers.on("SecretDealt")
def _secret_dealt(state, d):
    state["secrets"][str(d["seat"])] = d["digit"]


@handlers.on("Guessed", "Passed")
def _played(state, d):
    if d.get("hit"):
        state["score"][str(d["seat"])] += 1
    state["played"] += 1


class TinyGame(BaseGame):
    id = "tiny"
    title = "Tiny guessing game"
    rules_version = "tiny-1"
    rule_prefix = "TINY"
    game_type = GameType(2, 4, chance=True, information="imperfect")
    options_schema = {"type": "object", "additionalProperties": False, "properties": {
        "turns": rule({"type": "integer", "minimum": 1, "maximum": 50, "default": 6}, "bad_option", "TINY-1")}}
    command_schema = command_schema("Tiny command", [
        command("pass", "Pass the turn (TINY-2)."),
        command("guess", "Guess another seat's digit (TINY-2).",
                {"target": rule({"type": "integer", "minimum": 0, "maximum": 3}, "bad_target", "TINY-2"),
                 "digit": rule({"type": "integer", "minimum": 0, "maximum": 9}, "bad_digit", "TINY-2")}),
    ])
    bots = {"random": random_bot}
    evolve = staticmethod(handlers.evolver())
    secrecy = Secrecy(Secret("SecretDealt", ("digit",), seen_by=("seat",)))

    def setup(self, options, seats: list[Seat], rng):
        evs = [event("TableSet", seats=len(seats), turns=options["turns"])]
        evs += [event("SecretDealt", seat=s.index, digit=rng.randbelow(10)) for s in seats]
        return evs

    def initial_state(self):
        return {"seats": 0, "turns": 0, "played": 0, "secrets": {}, "score": {}}

    def _turn(self, state):
        return state["played"] % state["seats"]

    def rules_turn(self, state):
        return Turn.over() if state["played"] >= state["turns"] else Turn.to_seats({self._turn(state)})

    def rules_decide(self, state, seat, command, rng):
        require(not self.is_terminal(state), "game_over", "TINY-3", "the game is over")
        require(seat == self._turn(state), "not_your_turn", "TINY-2", "it is not your turn")
        if command["type"] == "pass":
            return [event("Passed", seat=seat)]
        target, digit = command["target"], command["digit"]
        require(target < state["seats"] and target != seat, "bad_target", "TINY-2", "guess another seat's digit")
        return [event("Guessed", seat=seat, target=target, digit=digit,
                      hit=state["secrets"][str(target)] == digit)]

    def rules_legal(self, state, seat):
        if self.is_terminal(state) or seat != self._turn(state):
            return []
        return [{"type": "pass"}] + [{"type": "guess", "target": t, "digit": d}
                                     for t in range(state["seats"]) if t != seat for d in range(10)]

    def rules_label(self, state, seat, command, public):
        return "Pass" if command["type"] == "pass" else f"Guess {command['digit']} for seat {command['target']}"

    def players(self, state):
        return state["seats"]

    def content(self):
        return {"digits": list(range(10))}

    def view(self, state, seat):
        return {"turn": self._turn(state), "played": state["played"], "score": state["score"],
                "my_digit": state["secrets"].get(str(seat)) if seat is not None else None}

    def rules_scores(self, state):
        return Scoreboard.rank(self.is_terminal(state), {int(s): {"hits": v} for s, v in state["score"].items()})


GAME = TinyGame()
