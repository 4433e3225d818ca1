"""Bot policies ``policy(game, state, seat, rng) -> command``.

Both look only at ``game.view(state, seat)`` and ``game.legal_commands``: what
the seat itself may know (its role, hand and map peeks; the public table).
"""
from __future__ import annotations

from typing import Any

from domain.core import Command, Drbg
from domain.kit import random_bot
from domain.saboteur.content import CARDS, SHAPES, TREASURE
from domain.saboteur.maze import OPPOSITE, connected_edges, frontier, key, oriented, step

FAR = 99


class _Plan:
    """One heuristic decision: the seat's view, scored against the goals it aims at."""

    def __init__(self, view: dict, seat: int, legal: list[Command], rng: Drbg):
        self.seat, self.legal, self.rng = seat, legal, rng
        you = view["you"]
        self.miner = you["role"] == "miner"
        self.maze = view["maze"]
        self.players = view["players"]
        self.hidden = {g: (i["x"], i["y"]) for g, i in view["goals"].items() if not i["revealed"]}
        peeks = you["peeks"]
        treasure = [g for g in self.hidden if peeks.get(g) == TREASURE]
        unknown = [g for g in self.hidden if g not in peeks]
        if not treasure and len(unknown) == 1:
            treasure = unknown  # every other hidden goal was seen to be a stone
        self.treasure_known = bool(treasure)
        aims = treasure or unknown or list(self.hidden)
        self.targets = [self.hidden[g] for g in aims]
        self.unknown = unknown
        self.conn = connected_edges(self.maze)
        self.ends = frontier(self.maze)
        self.now = self.score(self.ends)
        self.suspects = self._suspects()
        self._after: dict[tuple, tuple[int, int]] = {}

    def _suspects(self) -> set[int]:
        """Seats seen blocking: dead ends they laid, tools they broke (public in the view)."""
        out = {c["by"] for c in self.maze.values() if c["by"] is not None and SHAPES[c["shape"]].dead_end}
        for p in self.players:
            out |= {b["by"] for b in p["broken_tools"].values() if b["by"] != p["seat"]}
        out.discard(self.seat)
        return out

    def score(self, ends: dict) -> tuple[int, int]:
        """(distance of the nearest open tunnel end to an aimed goal, minus how many are that near)."""
        if not self.targets or not ends:
            return (FAR, 0)
        best, count = FAR, 0
        for x, y in ends:  # plain loops: the search's rollouts ask this a million times a game
            d = FAR
            for tx, ty in self.targets:
                e = abs(x - tx) + abs(y - ty)
                if e < d:
                    d = e
            if d < best:
                best, count = d, 1
            elif d == best:
                count += 1
        return (best, -count)

    def after_path(self, cmd: Command) -> tuple[int, int]:
        """``score`` after laying the path ``cmd`` (memoised: each step asks it twice per card)."""
        memo = (CARDS[cmd["card"]].shape, cmd["x"], cmd["y"], cmd["rotated"])
        if memo not in self._after:
            self._after[memo] = self._after_path(cmd)
        return self._after[memo]

    def _after_path(self, cmd: Command) -> tuple[int, int]:
        cell = (cmd["x"], cmd["y"])
        if cell not in self.ends:
            return self.now
        x, y = cell
        ends = dict(self.ends)
        del ends[cell]
        for seg in oriented(CARDS[cmd["card"]].shape, cmd["rotated"])[1]:
            if any((key(*step(x, y, d)), OPPOSITE[d]) in self.conn for d in seg):
                for d in seg:
                    nxt = step(x, y, d)
                    if key(*nxt) not in self.maze:
                        ends[nxt] = ends.get(nxt, frozenset()) | {OPPOSITE[d]}
        return self.score(ends)

    def after_rockfall(self, cmd: Command) -> tuple[int, int]:
        maze = {k: c for k, c in self.maze.items() if k != key(cmd["x"], cmd["y"])}
        return self.score(frontier(maze))

    def of(self, kind: str) -> list[Command]:
        return [c for c in self.legal if c["type"] == kind]

    def pick(self, options: list[Command]) -> Command:
        return options[self.rng.randbelow(len(options))]

    def best(self, options: list[Command], value) -> Command | None:
        """The option with the highest ``value``, ties broken at random; None if none."""
        if not options:
            return None
        scored = [(value(c), c) for c in options]
        top = max(s for s, _ in scored)
        return self.pick([c for s, c in scored if s == top])

    def choose(self) -> Command:
        steps = self._miner_steps() if self.miner else self._saboteur_steps()
        for step_ in steps:
            cmd = step_()
            if cmd is not None:
                return cmd
        return self._discard()

    # -- miner -------------------------------------------------------------
    def _miner_steps(self):
        return [self._build, self._repair_self, self._map, self._repair_friend,
                self._break_suspect, self._clear_dead_end]

    def _build(self) -> Command | None:
        """Extend the tunnel towards the aimed goals; tunnels beat dead ends."""
        paths = [c for c in self.of("play_path") if self.after_path(c) < self.now]
        return self.best(paths, lambda c: (
            tuple(-v for v in self.after_path(c)), not SHAPES[CARDS[c["card"]].shape].dead_end,
            len(SHAPES[CARDS[c["card"]].shape].edges)))

    def _repair_self(self) -> Command | None:
        return self.best([c for c in self.of("repair") if c["target"] == self.seat], lambda c: 0)

    def _map(self) -> Command | None:
        """Look at the unknown goal nearest to the tunnel (SAB-MAP-1)."""
        if self.treasure_known or len(self.unknown) < 2:
            return None
        maps = [c for c in self.of("map") if c["goal"] in self.unknown]
        if not maps:
            return None
        ends = list(self.ends) or [(0, 0)]

        def near(c: Command) -> int:
            gx, gy = self.hidden[c["goal"]]
            return -min(abs(x - gx) + abs(y - gy) for x, y in ends)
        return self.best(maps, near)

    def _repair_friend(self) -> Command | None:
        return self.best([c for c in self.of("repair") if c["target"] not in self.suspects], lambda c: 0)

    def _break_suspect(self) -> Command | None:
        return self.best([c for c in self.of("break_tool") if c["target"] in self.suspects], lambda c: 0)

    def _clear_dead_end(self) -> Command | None:
        falls = [c for c in self.of("rockfall") if self.after_rockfall(c) < self.now]
        return self.best(falls, lambda c: tuple(-v for v in self.after_rockfall(c)))

    # -- saboteur ------------------------------------------------------------
    def _saboteur_steps(self):
        return [self._block, self._collapse, self._map_when_close, self._break_miner,
                self._repair_self, self._repair_suspect]

    def _block(self) -> Command | None:
        """Lay the card that sets the tunnel back most; prefer dead ends."""
        paths = [c for c in self.of("play_path") if self.after_path(c) > self.now]
        return self.best(paths, lambda c: (
            self.after_path(c), SHAPES[CARDS[c["card"]].shape].dead_end))

    def _collapse(self) -> Command | None:
        if self.now[0] > 3:
            return None
        falls = [c for c in self.of("rockfall") if self.after_rockfall(c) > self.now]
        return self.best(falls, self.after_rockfall)

    def _map_when_close(self) -> Command | None:
        return self._map() if self.now[0] <= 4 else None

    def _break_miner(self) -> Command | None:
        busy = {p["seat"]: len(p["broken_tools"]) for p in self.players}
        breaks = [c for c in self.of("break_tool") if c["target"] != self.seat and c["target"] not in self.suspects]
        return self.best(breaks, lambda c: -busy[c["target"]])

    def _repair_suspect(self) -> Command | None:
        return self.best([c for c in self.of("repair") if c["target"] in self.suspects], lambda c: 0)

    # -- passing ------------------------------------------------------------------
    def _discard(self) -> Command:
        """Pass with the card this role needs least (SAB-PASS-1)."""
        passes = self.of("pass")
        if not passes:
            return self.pick(self.legal)

        def keep(c: Command) -> int:
            card = CARDS[c["card"]] if "card" in c else None
            if card is None:
                return 0
            if card.kind == "path":
                shape = SHAPES[card.shape]
                worth = len(shape.edges) * (-1 if shape.dead_end else 1)
                return worth if self.miner else -worth
            return {"map": 3, "repair": 2, "rockfall": 2, "break": 1}[card.kind]
        return self.best(passes, lambda c: -keep(c))


def heuristic_bot(game: Any, state: Any, seat: int, rng: Drbg) -> Command:
    """Miners dig towards goals not known to be stone and repair friends;
    saboteurs block with dead ends, rockfalls and broken tools; both use maps."""
    legal = game.legal_commands(state, seat)
    if len(legal) == 1 or legal[0]["type"] == "take_gold":
        return legal[0]  # gold: the default choice is the richest (SAB-AMB-18)
    return _Plan(game.view(state, seat), seat, legal, rng).choose()


BOTS = {"random": random_bot, "heuristic": heuristic_bot}
