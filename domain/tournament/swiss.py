"""Swiss pairing (TRN-SW-*): score groups, no repeated pairing while avoidable,
seat-order balance, byes to the lowest group.

Two seats follow how bbpPairings (the FIDE-endorsed engine lichess used for
its Swiss events) computes the Dutch system: as a maximum-weight matching
over every pair of players, whose weight ranks the pairing criteria
lexicographically. We keep the criteria that matter without chess colours'
finer points (FIDE C.04.3 has more): no rematch, then the score-group
difference, then seat-order compatibility, then Dutch top-half-against-
bottom-half inside a group. networkx's blossom algorithm finds that matching
exactly, so "no repeated pairing while avoidable" holds by construction.
"""
from __future__ import annotations

import networkx as nx

from domain.core import Drbg
from domain.tournament.config import Config
from domain.tournament.history import History
from domain.tournament.seating import choose_byes, seat_order
from domain.tournament.tables import partition, search


def pair(config: Config, order: list[str], h: History, rng: Drbg) -> dict:
    """Tables and byes of a Swiss round; ``order`` is the active entrants by standings."""
    byes = choose_byes(len(order) % config.table_size, order, h, rng)
    field = [e for e in order if e not in byes]
    groups = _score_groups(field, h)
    if config.table_size == 2:
        tables = _match(field, groups, h)
    else:
        cost = lambda a, b: _spread_cost(a, b, h, groups, len(field))  # noqa: E731
        # Pairing version 1 filled the tables once; version 2 searches from many starts.
        tables = partition(field, config.table_size, cost) if config.pairing < 2 else \
            search(field, config.table_size, cost, rng.fork("tables"), h.met)
    return {"tables": [{"seats": seat_order(t, h, rng)} for t in tables], "byes": byes}


def _score_groups(field: list[str], h: History) -> dict[str, int]:
    """Entrant -> index of its score group, 0 for the highest score."""
    scores = sorted({h.points[e] for e in field}, reverse=True)
    return {e: scores.index(h.points[e]) for e in field}


def _spread_cost(a: str, b: str, h: History, groups: dict[str, int], n: int) -> int:
    """A rematch outweighs any spread of score groups (TRN-SW-2)."""
    return h.met(a, b) * (n * n + 1) + (groups[a] - groups[b]) ** 2


def _match(field: list[str], groups: dict[str, int], h: History) -> list[list[str]]:
    """Maximum-weight perfect matching with lexicographic penalties (TRN-SW-1)."""
    n = len(field)
    pos_in_group: dict[str, tuple[int, int]] = {}
    for g in set(groups.values()):
        members = [e for e in field if groups[e] == g]
        for i, e in enumerate(members):
            pos_in_group[e] = (i, len(members))

    def dutch(a: str, b: str) -> int:
        """How far a same-group pair is from the Dutch 1-v-(half+1) ideal."""
        if groups[a] != groups[b]:
            return 0
        (i, size), (j, _) = pos_in_group[a], pos_in_group[b]
        return abs(abs(i - j) - size // 2)

    def seats_clash(a: str, b: str) -> int:
        """Both want the same seat (TRN-SEAT-1): both sat first too often, or both last."""
        sa, sb = h.seat_sum[a], h.seat_sum[b]
        return int(sa * sb > 0)

    # Each level's worst total over a whole matching is below one step of the level above.
    dutch_max = n + 1
    clash_step = dutch_max * n + 1
    group_step = (clash_step * 1 + dutch_max) * n + 1
    repeat_step = (group_step * (n * n) + clash_step + dutch_max) * n + 1
    graph = nx.Graph()
    graph.add_nodes_from(field)
    penalties = {}
    for i, a in enumerate(field):
        for b in field[i + 1:]:
            penalties[(a, b)] = (h.met(a, b) * repeat_step + (groups[a] - groups[b]) ** 2 * group_step
                                 + seats_clash(a, b) * clash_step + dutch(a, b))
    top = max(penalties.values(), default=0) + 1
    for (a, b), penalty in penalties.items():
        graph.add_edge(a, b, weight=top - penalty)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    rank = {e: i for i, e in enumerate(field)}
    pairs = [sorted(p, key=rank.__getitem__) for p in matching]
    return sorted(pairs, key=lambda p: rank[p[0]])
