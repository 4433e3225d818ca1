"""The rules audit's Mountain King finding: a refusal cites the rule of the condition that failed.

Refusals write nothing, so this needs no rules version."""
from __future__ import annotations

import pytest

from domain.core import Drbg, Illegal
from domain.mountain_king import terrain
from tests.conformance.test_conformance import played, states


def a_position_with_a_dig():
    g = played("mountain-king", 2)
    for _version, state, step in states(g):
        digs = [c for c in g.game.legal_commands(state, step.seat) if c["type"] == "dig"] if step.seat is not None \
            else []
        if digs:
            return g.game, state, step.seat, digs[0]
    raise AssertionError("no dig in the conformance game")


@pytest.mark.parametrize("edge", ["top", "bottom", "left", "right"])
def test_MK_DIG_7_a_tunnel_past_any_edge_cites_the_footprint_rule(edge):
    """«Every space of the tile must lie on the board» (MK-DIG-7, the footprint): a
    well-shaped tunnel slid past the top, bottom, left or right edge is refused citing it
    on every edge -- not MK-DIG-6 (orientation) where the schema's range check met it first."""
    game, state, seat, dig = a_position_with_a_dig()
    side = terrain.side(state)
    dr, dc = {"top": (-side.rows, 0), "bottom": (side.rows, 0), "left": (0, -side.cols),
              "right": (0, side.cols)}[edge]
    moved = {**dig, "cells": [[r + dr, c + dc] for r, c in dig["cells"]],
             "anchor": None if dig["anchor"] is None else [dig["anchor"][0] + dr, dig["anchor"][1] + dc]}
    with pytest.raises(Illegal) as refused:
        game.decide(state, seat, moved, Drbg(b"t", "v"))
    assert (refused.value.code, refused.value.rule) == ("off_board", "MK-DIG-7")
