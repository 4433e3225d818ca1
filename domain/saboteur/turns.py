"""Turn commands: one checker per command type, and the candidates legal_commands tries.

``check`` is the single source of legality: ``decide`` calls it, and
``legal_commands`` keeps exactly the candidates it accepts. An action card
passes only where its effect can happen (SAB-ACT-3, SAB-AMB-9); legality
never depends on a seat's role (SAB-PATH-8, SAB-ROCK-4 are play advice).
"""
from __future__ import annotations

from typing import Any, Iterator

from domain.core import Command, Illegal, require
from domain.saboteur.content import CARDS, GOAL_CELLS, Card
from domain.saboteur.maze import candidate_cells, connected_edges, key, placement_problem, socket, xy
from domain.saboteur.state import SaboteurState


def occupied_goals(s: SaboteurState) -> list[str]:
    """Cells of face-down goals: taken (SAB-PATH-3) but not part of the maze (SAB-AMB-2)."""
    return [key(g["x"], g["y"]) for g in s["goals"].values() if not g["revealed"]]


def _card(s: SaboteurState, seat: int, cmd: Command, kinds: tuple[str, ...]) -> Card:
    card_id = cmd["card"]  # a card id of the command's kind (the schema, SAB-TURN-2)
    require(card_id in s["hands"][seat], "card_not_in_hand", "SAB-TURN-2", "you do not hold that card")
    card = CARDS[card_id]
    require(card.kind in kinds, "wrong_card", "SAB-TURN-2", f"{card_id} is a {card.kind} card")
    return card


def _target(s: SaboteurState, cmd: Command) -> int:
    target = cmd["target"]
    require(target < s["players"], "bad_target", "SAB-ACT-1", "'target' must be a seat")
    return target


class Position:
    """What every check of one position shares: face-down goal cells, the
    connected edges when SAB-AMB-3's option needs them, and placement verdicts."""

    def __init__(self, s: SaboteurState):
        self.occupied = occupied_goals(s)
        self.connected = connected_edges(s["maze"]) if s["options"]["require_connection_to_start"] else None
        self.verdicts: dict[tuple, tuple[str, str, str] | None] = {}
        self.sockets: dict[tuple[int, int], tuple[str, str]] = {}

    def placement(self, s: SaboteurState, shape: str, x: int, y: int, rotated: bool):
        at = (shape, x, y, rotated)
        if at not in self.verdicts:
            if (x, y) not in self.sockets:
                self.sockets[(x, y)] = socket(s["maze"], x, y)
            self.verdicts[at] = placement_problem(
                s["maze"], self.occupied, shape, x, y, rotated, self.connected, self.sockets[(x, y)])
        return self.verdicts[at]


def _play_path(s: SaboteurState, seat: int, cmd: Command, position: Position) -> Card:
    card = _card(s, seat, cmd, ("path",))
    rotated = cmd.get("rotated", False)  # SAB-AMB-6: upright or 180 degrees only, so a flag, never an angle
    # SAB-AMB-4: tools are checked when the path card is played.
    require(not s["broken"][seat], "tools_broken", "SAB-TOOL-4", "you may not play path cards with a broken tool")
    x, y = cmd["x"], cmd["y"]
    problem = position.placement(s, card.shape, x, y, rotated)
    if problem:
        raise Illegal(*problem)
    return card


def _break_tool(s: SaboteurState, seat: int, cmd: Command, _: Any) -> Card:
    card = _card(s, seat, cmd, ("break",))
    target = _target(s, cmd)
    tool = card.tools[0]
    require(cmd.get("tool", tool) == tool, "tool_not_on_card", "SAB-TOOL-1", f"{card.id} breaks a {tool}")
    require(tool not in s["broken"][target], "tool_already_broken", "SAB-TOOL-3",
            f"that player already has a broken {tool}")
    return card


def _repair(s: SaboteurState, seat: int, cmd: Command, _: Any) -> Card:
    card = _card(s, seat, cmd, ("repair",))
    target = _target(s, cmd)
    tool = cmd.get("tool", card.tools[0] if len(card.tools) == 1 else None)
    require(tool is not None, "tool_required", "SAB-AMB-8", "name the 'tool' a two-tool repair mends")
    require(tool in card.tools, "tool_not_on_card", "SAB-REP-3", f"{card.id} cannot repair a {tool}")
    require(tool in s["broken"][target], "nothing_to_repair", "SAB-REP-4", f"that player has no broken {tool}")
    return card


def _rockfall(s: SaboteurState, seat: int, cmd: Command, _: Any) -> Card:
    card = _card(s, seat, cmd, ("rockfall",))
    cell = s["maze"].get(key(cmd["x"], cmd["y"]))
    require(cell is not None, "no_path_card", "SAB-ROCK-1", "there is no face-up card there")
    require(cell["card"] in CARDS, "cannot_remove", "SAB-AMB-11",
            "the start card and goal cards can never be removed")
    return card


def _map(s: SaboteurState, seat: int, cmd: Command, _: Any) -> Card:
    card = _card(s, seat, cmd, ("map",))
    goal = cmd["goal"]
    require(not s["goals"][goal]["revealed"], "goal_face_up", "SAB-AMB-10", "that goal is already face up")
    return card


def _pass(s: SaboteurState, seat: int, cmd: Command, _: Any) -> Card | None:
    if "card" in cmd:
        return _card(s, seat, cmd, ("path", "break", "repair", "rockfall", "map"))
    require(not s["hands"][seat], "must_discard", "SAB-PASS-1", "passing means discarding one card")
    return None


_CHECKS = {
    "play_path": _play_path, "break_tool": _break_tool, "repair": _repair,
    "rockfall": _rockfall, "map": _map, "pass": _pass,
}


def check(s: SaboteurState, seat: int, cmd: Command, position: Position | None = None) -> Card | None:
    """The card ``cmd`` plays (None for an empty-handed pass); raises Illegal."""
    require(s["phase"] == "play", "not_playing", "SAB-TURN-1", "no turn is being played now")
    require(seat == s["turn"], "not_your_turn", "SAB-TURN-1", "it is not your turn")
    return _CHECKS[cmd["type"]](s, seat, cmd, position or Position(s))


def candidates(s: SaboteurState, seat: int, position: Position) -> Iterator[Command]:
    """A superset of the legal turn commands, in a stable order. Placements
    the maze rules out are skipped early (the verdict is cached for ``check``)."""
    hand = s["hands"][seat]
    if not hand:
        yield {"type": "pass"}
        return
    cells = None
    for card_id in hand:
        card = CARDS[card_id]
        if card.kind == "path" and not s["broken"][seat]:
            cells = cells if cells is not None else candidate_cells(s["maze"], position.occupied)
            for x, y in cells:
                for rotated in (False, True):
                    if position.placement(s, card.shape, x, y, rotated) is None:
                        yield {"type": "play_path", "card": card_id, "x": x, "y": y, "rotated": rotated}
        elif card.kind == "break":
            for target in range(s["players"]):
                yield {"type": "break_tool", "card": card_id, "target": target}
        elif card.kind == "repair":
            for target in range(s["players"]):
                for tool in card.tools:
                    yield {"type": "repair", "card": card_id, "target": target, "tool": tool}
        elif card.kind == "rockfall":
            for k in sorted(s["maze"]):
                x, y = xy(k)
                yield {"type": "rockfall", "card": card_id, "x": x, "y": y}
        elif card.kind == "map":
            for goal in sorted(GOAL_CELLS):
                yield {"type": "map", "card": card_id, "goal": goal}
        yield {"type": "pass", "card": card_id}


def legal(s: SaboteurState, seat: int) -> list[Command]:
    if s["phase"] != "play" or seat != s["turn"]:
        return []
    position = Position(s)
    out = []
    for cmd in candidates(s, seat, position):
        try:
            check(s, seat, cmd, position)
        except Illegal:
            continue
        out.append(cmd)
    return out

