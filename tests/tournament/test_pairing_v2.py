"""Pairing version 2 (TRN-KO-4, TRN-SW-2): what changed for new tournaments, and that a
tournament created under version 1 is still paired exactly as it was (its bundle verifies)."""
from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from domain.tournament import Config, is_complete, pair_round, standings
from tests.tournament.support import config, field, run


def v1(cfg: Config) -> Config:
    """The same settings as a tournament created before pairing version 2 recorded them."""
    return Config.from_dict({k: v for k, v in cfg.to_dict().items() if k != "pairing"})


def won_by(table: dict, winner: str) -> None:
    loser = next(e for e in table["seats"] if e != winner)
    table["result"] = {"places": {winner: 1, loser: 2}, "scores": {winner: 1, loser: 0}}


def audit_case(cfg: Config) -> tuple[list[dict], list[dict]]:
    """Knockout, 4 entrants, round 1 paired; e0 withdraws; then e0 beats e3 and e1 beats e2."""
    entrants = field(4)
    first = pair_round(cfg, entrants, [], b"ko")
    entrants[0]["withdrawn"] = True
    for table in first["tables"]:
        won_by(table, "e0" if "e0" in table["seats"] else "e1")
    return entrants, [first]


def test_TRN_KO_4_a_withdrawn_entrant_never_advances_and_the_final_is_played():
    cfg = config("knockout", 2)
    assert cfg.pairing >= 2
    entrants, rounds = audit_case(cfg)
    assert not is_complete(cfg, entrants, rounds)
    final = pair_round(cfg, entrants, rounds, b"ko")
    assert [sorted(t["seats"]) for t in final["tables"]] == [["e1", "e3"]]  # e3 advances by walkover
    won_by(final["tables"][0], "e3")
    rounds.append(final)
    assert is_complete(cfg, entrants, rounds)
    board = standings(cfg, entrants, rounds)
    assert board[0]["entrant"] == "e3" and board[0]["place"] == 1
    assert [line["place"] for line in board if line["withdrawn"]] != [1]
    assert sum(1 for line in board if line["place"] == 1) == 1


def test_a_version_1_knockout_is_paired_and_ranked_as_it_was():
    cfg = v1(config("knockout", 2))
    assert cfg.pairing == 1 and "pairing" not in cfg.to_dict()
    entrants, rounds = audit_case(cfg)
    assert is_complete(cfg, entrants, rounds)  # as shipped: e0 and e1 "share" the title
    board = standings(cfg, entrants, rounds)
    assert {(line["place"], line["entrant"]) for line in board if line["place"] == 1} == {(1, "e0"), (1, "e1")}


def repeats(rounds: list[dict]) -> int:
    """Pairs that met again: every meeting after a pair's first."""
    met = Counter(frozenset(p) for r in rounds for t in r["tables"] for p in combinations(t["seats"], 2))
    return sum(n - 1 for n in met.values())


SWISS_CASES = [(12, 3, b"s2"), (12, 3, b"s1"), (16, 4, b"s1"), (17, 4, b"s3"), (20, 5, b"s4")]


def met_before(rounds: list[dict], paired: dict) -> int:
    """Repeat meetings a round's tables would add to ``rounds``."""
    return repeats([*rounds, paired]) - repeats(rounds)


@pytest.mark.parametrize("n,k,seed", SWISS_CASES)
def test_TRN_SW_2_no_round_meets_more_often_than_the_one_fill_would(n, k, seed):
    """Round after round of a version 2 Swiss, the search's tables repeat no more meetings than
    version 1's fill would have from the same standings (it is one of the starts); summed over
    whole events, fewer (benchmarks/tournament.md)."""
    cfg = config("swiss", k, rounds=5)
    rounds = run(cfg, field(n), seed, results=7)
    entrants = field(n)
    for i, played in enumerate(rounds):
        old = pair_round(v1(cfg), entrants, rounds[:i], seed)
        assert met_before(rounds[:i], played) <= met_before(rounds[:i], old), i + 1


def triples(items: list[str]):
    """Every partition of ``items`` into tables of three (15,400 for twelve)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for b, c in combinations(rest, 2):
        left = [x for x in rest if x not in (b, c)]
        for tail in triples(left):
            yield [[first, b, c], *tail]


# Each case has a round where version 1's one fill repeated pairs that a partition avoids.
@pytest.mark.parametrize("seed,results", [(b"s0", 4), (b"s1", 2), (b"s2", 2), (b"s4", 0), (b"s6", 2)])
def test_TRN_SW_2_every_round_repeats_no_more_than_the_exact_optimum(seed, results):
    """Swiss, 3 seats, 12 entrants (the audit's case; version 1 repeated pairs in round 4 that
    a partition could avoid): each round meets again only as often as the best of all 15,400
    partitions must, found by enumerating them."""
    cfg = config("swiss", 3, rounds=5)
    rounds = run(cfg, field(12), seed, results=results)
    ids = [e["id"] for e in field(12)]
    for i in range(1, len(rounds)):
        met = {frozenset(p) for r in rounds[:i] for t in r["tables"] for p in combinations(t["seats"], 2)}
        best = min(sum(frozenset(p) in met for t in part for p in combinations(t, 2)) for part in triples(ids))
        assert met_before(rounds[:i], rounds[i]) == best, i + 1


def test_version_1_swiss_tables_are_what_they_were():
    """A tournament created before version 2 keeps its one-fill tables, round after round."""
    cfg = v1(config("swiss", 3, rounds=4))
    assert run(cfg, field(12), b"s2", results=7) == run(cfg, field(12), b"s2", results=7)
    assert Config.from_dict(cfg.to_dict()) == cfg
