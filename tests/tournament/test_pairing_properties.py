"""Property tests of every format: everyone placed once a round, no avoidable
rematch, fair byes, determinism (TRN-* in domain/tournament/README.md)."""
from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.tournament import pair_round
from tests.tournament.support import config, field, run

FORMATS = st.sampled_from(["round-robin", "swiss", "knockout"])


def _perfect_without_rematch(players: list[str], met) -> bool:
    """Brute force: can ``players`` be split into pairs that never met?"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(not met(first, o) and _perfect_without_rematch([p for p in rest if p != o], met) for o in rest)


@settings(max_examples=40, deadline=None)
@given(fmt=FORMATS, k=st.sampled_from([2, 3, 4]), n=st.integers(4, 13), results=st.integers(0, 10_000),
       seed=st.binary(min_size=1, max_size=8))
def test_TRN_BYE_1_every_active_entrant_placed_once_a_round(fmt, k, n, results, seed):
    cfg = config(fmt, k)
    if fmt == "knockout" and (k > 2 and n % k):
        return  # fields the knockout refuses at creation (TRN-KO-3) are tested apart
    rounds = run(cfg, field(n), seed, results)
    for r in rounds:
        placed = [e for t in r["tables"] for e in t["seats"]] + r["byes"]
        assert len(placed) == len(set(placed))
        if fmt != "knockout":
            assert sorted(placed) == sorted(f"e{i}" for i in range(n))
        assert all(len(t["seats"]) == k for t in r["tables"]) or fmt == "knockout"


@settings(max_examples=40, deadline=None)
@given(n=st.integers(4, 10), results=st.integers(0, 10_000), seed=st.binary(min_size=1, max_size=8),
       rounds=st.integers(2, 7))
def test_TRN_SW_1_no_repeated_pairing_while_avoidable(n, results, seed, rounds):
    cfg = config("swiss", 2, rounds=rounds)
    played = run(cfg, field(n), seed, results)
    seen: Counter = Counter()
    for r in played:
        seated = [e for t in r["tables"] for e in t["seats"]]
        avoidable = _perfect_without_rematch(seated, lambda a, b: seen[frozenset((a, b))] > 0)
        pairs = [frozenset(t["seats"]) for t in r["tables"]]
        if avoidable:
            assert not any(seen[p] for p in pairs), f"round {r['round']} repeats a pairing it could avoid"
        seen.update(pairs)


@settings(max_examples=40, deadline=None)
@given(fmt=st.sampled_from(["swiss", "round-robin"]), k=st.sampled_from([2, 3, 4]), n=st.integers(4, 13),
       results=st.integers(0, 10_000), seed=st.binary(min_size=1, max_size=8))
def test_TRN_BYE_1_no_second_bye_while_someone_has_none(fmt, k, n, results, seed):
    byes: Counter = Counter()
    for r in run(config(fmt, k), field(n), seed, results):
        others = [f"e{i}" for i in range(n) if f"e{i}" not in r["byes"]]
        assert max((byes[e] for e in r["byes"]), default=0) <= min(byes[e] for e in others) \
            or (fmt == "round-robin" and k == 2)  # the circle gives each one bye, in its own order
        byes.update(r["byes"])
    assert max(byes.values(), default=0) - min(byes[f"e{i}"] for i in range(n)) <= 1


@settings(max_examples=30, deadline=None)
@given(n=st.integers(5, 11), results=st.integers(0, 10_000))
def test_TRN_BYE_1_swiss_bye_goes_to_the_lowest_score_group(n, results):
    from domain.tournament.history import read
    cfg = config("swiss", 2)
    entrants = field(n)
    played = run(cfg, entrants, b"x", results)
    for i, r in enumerate(played):
        h = read(cfg, entrants, played[:i])
        for e in r["byes"]:
            eligible = [x for x in h.points if h.byes[x] == h.byes[e]]
            assert h.points[e] == min(h.points[x] for x in eligible)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 12), seed=st.binary(min_size=1, max_size=8))
def test_TRN_RR_1_two_seat_round_robin_meets_everyone_exactly_once(n, seed):
    rounds = run(config("round-robin", 2), field(n), seed)
    pairs = Counter(frozenset(t["seats"]) for r in rounds for t in r["tables"])
    assert set(pairs) == {frozenset(p) for p in itertools.combinations([f"e{i}" for i in range(n)], 2)}
    assert set(pairs.values()) == {1}
    byes = Counter(e for r in rounds for e in r["byes"])
    assert byes == (Counter({f"e{i}": 1 for i in range(n)}) if n % 2 else Counter())
    first = Counter(t["seats"][0] for r in rounds for t in r["tables"])
    games = Counter(e for r in rounds for t in r["tables"] for e in t["seats"])
    assert all(abs(2 * first[e] - games[e]) <= 1 for e in games), "seat order balanced (TRN-SEAT-1)"


@settings(max_examples=10, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8))
def test_TRN_RR_2_sixteen_at_four_seat_tables_in_five_rounds(seed):
    """Five rounds could seat every pair exactly once (an affine plane of order 4); the
    greedy-and-swap search does not always find it, but leaves few pairs unmet."""
    rounds = run(config("round-robin", 4), field(16), seed)
    assert len(rounds) == 5
    pairs = Counter(frozenset(p) for r in rounds for t in r["tables"] for p in itertools.combinations(t["seats"], 2))
    assert max(pairs.values()) <= 2 and len(pairs) >= 100


@settings(max_examples=10, deadline=None)
@given(n=st.integers(6, 14), k=st.sampled_from([3, 4]), seed=st.binary(min_size=1, max_size=8))
def test_TRN_RR_2_meetings_spread_evenly(n, k, seed):
    """Within the planned rounds no pair meets more than twice, and the pairs left unmet
    are those the seats could not reach plus at most a quarter (perfect spreads do not
    always exist: six at 3-seat tables always repeat a pair in round 2)."""
    rounds = run(config("round-robin", k), field(n), seed)
    pairs = Counter(frozenset(p) for r in rounds for t in r["tables"] for p in itertools.combinations(t["seats"], 2))
    assert max(pairs.values()) <= 2
    everyone = list(itertools.combinations([f"e{i}" for i in range(n)], 2))
    slots = sum(len(r["tables"]) for r in rounds) * k * (k - 1) // 2
    unmet = sum(1 for p in everyone if frozenset(p) not in pairs)
    assert unmet <= max(0, len(everyone) - slots) + len(everyone) // 4


@settings(max_examples=30, deadline=None)
@given(fmt=FORMATS, n=st.integers(4, 12), results=st.integers(0, 1000), seed=st.binary(min_size=1, max_size=8))
def test_TRN_SEED_1_same_inputs_same_round(fmt, n, results, seed):
    cfg = config(fmt, 2)
    rounds = run(cfg, field(n), seed, results)
    for i, r in enumerate(rounds):
        again = pair_round(cfg, field(n), [dict(x) for x in rounds[:i]], seed)
        assert again == {"round": r["round"], "tables": [{"seats": t["seats"]} for t in r["tables"]],
                         "byes": r["byes"]}


@settings(max_examples=30, deadline=None)
@given(fmt=st.sampled_from(["swiss", "round-robin"]), k=st.sampled_from([2, 4]), n=st.integers(6, 12),
       results=st.integers(0, 1000), data=st.data())
def test_TRN_WD_1_withdrawn_entrants_are_never_paired_again(fmt, k, n, results, data):
    gone = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=2, unique=True))
    when = data.draw(st.integers(2, 3))
    entrants = field(n)
    rounds = run(config(fmt, k), entrants, b"w", results, withdraw={when: [f"e{i}" for i in gone]})
    for r in rounds[when - 1:]:
        placed = {e for t in r["tables"] for e in t["seats"]} | set(r["byes"])
        assert not placed & {f"e{i}" for i in gone}
