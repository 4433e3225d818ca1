"""A deliberately tiny game with a secret per seat, for testing the platform
(store, service, API, workers) apart from any real game's complexity.

Each seat holds a secret digit. In turn, a seat guesses another seat's digit
(a hit scores 1) or passes; after ``turns`` turns the game ends. Rule ids are
``TINY-n``.
"""
from __future__ import annotations

import copy

from domain.core import Drbg, Scoreboard, Seat, event, require


def _random_bot(game, state, seat, rng: Drbg):
    return rng.choice(game.legal_commands(state, seat))


class TinyGame:
    id = "tiny"
    title = "Tiny guessing game"
    min_players, max_players = 2, 4
    rules_version = "tiny-1"
    options_schema = {"type": "object", "properties": {"turns": {"type": "integer", "minimum": 1, "maximum": 50}},
                      "additionalProperties": False}
    command_schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "oneOf": [
            {"type": "object", "description": "Pass the turn (TINY-2).", "properties": {"type": {"const": "pass"}},
             "required": ["type"], "additionalProperties": False},
            {"type": "object", "description": "Guess another seat's digit (TINY-2).",
             "properties": {"type": {"const": "guess"}, "target": {"type": "integer", "minimum": 0, "maximum": 3},
                            "digit": {"type": "integer", "minimum": 0, "maximum": 9}},
             "required": ["type", "target", "digit"], "additionalProperties": False},
        ],
    }
    bots = {"random": _random_bot}

    def validate_options(self, options, seats):
        unknown = set(options) - {"turns"}
        require(not unknown, "unknown_option", None, f"unknown options {sorted(unknown)}")
        turns = options.get("turns", 6)
        require(isinstance(turns, int) and 1 <= turns <= 50, "bad_option", "TINY-1", "turns is 1-50")
        return {"turns": turns}

    def start(self, options, seats: list[Seat], rng: Drbg):
        evs = [event("TableSet", seats=len(seats), turns=options["turns"])]
        evs += [event("SecretDealt", seat=s.index, digit=rng.randbelow(10)) for s in seats]
        return evs

    def initial_state(self):
        return {"seats": 0, "turns": 0, "played": 0, "secrets": {}, "score": {}}

    def evolve(self, state, ev):
        d = ev["data"]
        if ev["type"] == "TableSet":
            state["seats"], state["turns"] = d["seats"], d["turns"]
            state["score"] = {str(i): 0 for i in range(d["seats"])}
        elif ev["type"] == "SecretDealt":
            state["secrets"][str(d["seat"])] = d["digit"]
        elif ev["type"] in ("Guessed", "Passed"):
            if d.get("hit"):
                state["score"][str(d["seat"])] += 1
            state["played"] += 1
        return state

    def _turn(self, state):
        return state["played"] % state["seats"]

    def decide(self, state, seat, command, rng):
        require(not self.is_terminal(state), "game_over", "TINY-3", "the game is over")
        require(seat == self._turn(state), "not_your_turn", "TINY-2", "it is not your turn")
        if command["type"] == "pass":
            return [event("Passed", seat=seat)]
        require(command["type"] == "guess", "unknown_command", None, "commands are guess and pass")
        target, digit = command.get("target"), command.get("digit")
        require(isinstance(target, int) and 0 <= target < state["seats"] and target != seat,
                "bad_target", "TINY-2", "guess another seat's digit")
        require(isinstance(digit, int) and 0 <= digit <= 9, "bad_digit", "TINY-2", "digits are 0-9")
        return [event("Guessed", seat=seat, target=target, digit=digit,
                      hit=state["secrets"][str(target)] == digit)]

    def legal_commands(self, state, seat):
        if self.is_terminal(state) or seat != self._turn(state):
            return []
        return [{"type": "pass"}] + [{"type": "guess", "target": t, "digit": d}
                                     for t in range(state["seats"]) if t != seat for d in range(10)]

    def active_seats(self, state):
        return set() if self.is_terminal(state) else {self._turn(state)}

    def is_terminal(self, state):
        return state["played"] >= state["turns"]

    def content(self):
        return {"digits": list(range(10))}

    def view(self, state, seat):
        return {"turn": self._turn(state), "played": state["played"], "score": state["score"],
                "my_digit": state["secrets"].get(str(seat)) if seat is not None else None}

    def redact(self, ev, seat):
        if ev["type"] == "SecretDealt" and ev["data"]["seat"] != seat:
            return {"type": "SecretDealt", "data": {"seat": ev["data"]["seat"]}}
        return ev

    def scores(self, state):
        return Scoreboard.rank(self.is_terminal(state), {int(s): {"hits": v} for s, v in state["score"].items()})

    def dump_state(self, state):
        return copy.deepcopy(state)

    def load_state(self, data):
        return copy.deepcopy(data)


GAME = TinyGame()
