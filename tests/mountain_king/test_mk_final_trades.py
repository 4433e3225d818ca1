"""Final scoring's trades take only what the supply holds (MK-SCORE-4, MK-AMB-4, MK-AMB-33).

The rulebook (ES), PUNTUACIÓN FINAL 3: «Llegados a este punto, puedes realizar tantos
intercambios con la reserva como deseas para conseguir los sets de 3. Se realizan de la forma
habitual: 4 recursos de cualquier combinación por 1 recurso a elegir de la reserva.» (At this
point you may make as many trades with the supply as you wish to complete sets of 3. They are
done the usual way: 4 resources of any mix for 1 resource of your choice from the supply.)

The usual trade cannot take a type the supply does not hold (MK-AMB-4, ``supply_empty``), so
neither can the final ones; the players make them in turn order from the start player, each
with the supply as the earlier ones left it (MK-AMB-33). Rules version ``mountain-king-2``.
"""
from functools import cache
from itertools import combinations_with_replacement

import pytest

from domain.core import Illegal
from domain.mountain_king.economy import SUPPLY
from domain.mountain_king.leftovers import best_sets, plan_sets
from domain.mountain_king.scoring import final_scores, leftover_sets, leftovers

from mk_driver import apply
from tests.support.positions import position

ODDS = "stone=1 iron=1 rune=1 hammer=1"


def _table(seats: int, *storages: str, options: str = "") -> dict:
    """Every roster emptied; each seat's storage as given (nothing if not given)."""
    lines = [f"mountain-king {seats} seed=seed" + (f" options={options}" if options else ""), "opening"]
    lines += [f"empty_trolls {p}" for p in range(seats)]
    lines += [f"storage {p} {storages[p] if p < len(storages) else ''}" for p in range(seats)]
    return position("\n".join(lines))[1]


def _supply_holds(s, res: str, n: int) -> dict:
    """Leave ``n`` of ``res`` in the supply; the rest sit on the horde as bribes (still in the
    game, never back in the supply before the end)."""
    extra = s["supply"][res] - n
    assert extra >= 0
    s["supply"][res] = n
    bribes = s["horde"]["slots"]["B1"]["bribes"]
    bribes[res] = bribes.get(res, 0) + extra
    return s


def test_MK_SCORE_4_MK_AMB_4_final_trades_cannot_take_a_type_the_supply_lacks():
    """The audit's case. «Se realizan de la forma habitual: 4 recursos de cualquier combinación por
    1 recurso a elegir de la reserva» -- from the supply. With no coin in the supply and nobody
    handing one in, seat 0's 2 coins can never become a set of 3: the usual trade for a coin is
    refused during play (MK-AMB-4), and at final scoring it is not made either (MK-AMB-33):
    0 sets, where a supply-blind count scores 1."""
    s = _supply_holds(_table(2, f"coin=2 {ODDS}"), "coin", 0)
    with pytest.raises(Illegal) as refused:
        apply(s, 0, {"type": "trade", "give": {"stone": 1, "iron": 1, "rune": 1, "hammer": 1}, "get": "coin"})
    assert (refused.value.code, refused.value.rule) == ("supply_empty", "MK-AMB-4")
    assert best_sets(leftovers(s, 0)) == 1  # what mountain-king-1 scored
    assert final_scores(s)["0"]["leftover_sets"] == 0


def test_MK_AMB_33_a_coin_handed_in_by_an_earlier_player_completes_a_later_players_set():
    """MK-AMB-33: in turn order from the start player, the tokens a player hands in go back to the
    supply and can serve later players (MK-SCORE-4, MK-AMB-4). The supply holds no coin. Seat 0,
    first, trades coin + iron + rune + hammer for a third stone (1 set); its coin goes back to the
    supply, and seat 1 trades four odd tokens for it: its 2 coins make a set."""
    s = _supply_holds(_table(2, "stone=2 coin=1 iron=1 rune=1 hammer=1", "coin=2 iron=1 heartstone=1 cart=1 hammer=1"),
                      "coin", 0)
    assert s["order"] == [0, 1]
    assert leftover_sets(s) == {0: 1, 1: 1}
    assert {p: b["leftover_sets"] for p, b in final_scores(s).items()} == {"0": 1, "1": 1}


def test_MK_AMB_33_the_start_player_trades_first():
    """MK-AMB-33: the order is the turn order from the start player. The same holdings as above
    with seat 1 starting: seat 1 trades first, while the supply holds no coin, so its 2 coins
    stay 2 (0 sets); seat 0 still makes its stone set."""
    s = _supply_holds(_table(2, "stone=2 coin=1 iron=1 rune=1 hammer=1", "coin=2 iron=1 heartstone=1 cart=1 hammer=1",
                             options='{"start_player": 1}'), "coin", 0)
    assert s["order"] == [1, 0]
    assert leftover_sets(s) == {0: 1, 1: 0}


def test_MK_AMB_33_each_player_takes_only_what_the_supply_holds_at_that_moment():
    """MK-AMB-33 (MK-SCORE-4, MK-AMB-4): one coin in the supply and three seats that each need one.
    The first in turn order takes it; the others hand in no coin, so they find none left."""
    s = _supply_holds(_table(3, *[f"coin=2 {ODDS}"] * 3), "coin", 1)
    assert leftover_sets(s) == {0: 1, 1: 0, 2: 0}


def test_MK_AMB_4_unlimited_supply_final_trades_as_before():
    """Option ``unlimited_supply`` (MK-AMB-4): the supply never runs out, so every seat scores the
    most sets any trades reach (MK-AMB-25), as in mountain-king-1, whoever trades first."""
    s = _table(3, *[f"coin=2 {ODDS}"] * 3, options='{"unlimited_supply": true}')
    apply(s, 0, {"type": "trade", "give": {"stone": 1, "iron": 1, "rune": 1, "hammer": 1}, "get": "coin"})
    assert leftover_sets(s) == {0: 1, 1: 1, 2: 1}
    assert leftover_sets(s) == {st: best_sets(leftovers(s, st)) for st in range(3)}


def test_MK_EX_11_still_three_sets_with_a_full_supply_MK_SCORE_4():
    """MK-EX-11: 3 carts, 3 stone, 2 coins, rune, hammer, 2 iron make 2 sets; trading rune +
    hammer + 2 iron for a coin makes 3. The supply holds coins, so the trade stands (MK-AMB-33)."""
    held = {"cart": 3, "stone": 3, "coin": 2, "rune": 1, "hammer": 1, "iron": 2}
    plan = plan_sets(held, SUPPLY)
    assert plan == (3, {"coin": 1}, {"rune": 1, "hammer": 1, "iron": 2})
    s = _table(2, "cart=3 stone=3 coin=2 rune=1 hammer=1 iron=2")
    assert final_scores(s)["0"]["leftover_sets"] == 3
    assert plan_sets(held, {**SUPPLY, "coin": 0}) == (3, {"iron": 1}, {"coin": 2, "rune": 1, "hammer": 1})
    assert plan_sets(held, {**SUPPLY, "coin": 0, "iron": 0}).sets == 2  # neither third token to be had


def test_MK_AMB_33_fewest_trades_then_the_resource_order():
    """MK-AMB-33's choice among equally good plans: the fewest trades (a third coin already makes
    the set: no trade), then the most sets of the earliest type (stone before iron), handing in
    spare tokens in that order."""
    assert plan_sets({"stone": 2, "iron": 2, "coin": 4}, SUPPLY) == (1, {}, {})
    plan = plan_sets({"stone": 2, "iron": 2, "coin": 1, "cart": 1, "hammer": 1, "rune": 1}, SUPPLY)
    assert plan == (1, {"stone": 1}, {"iron": 2, "coin": 1, "cart": 1})
    plan = plan_sets({"stone": 2, "iron": 2, "coin": 1, "cart": 1, "hammer": 1, "rune": 1}, {**SUPPLY, "stone": 0})
    assert plan == (1, {"iron": 1}, {"stone": 2, "coin": 1, "cart": 1})
    plan = plan_sets({"stone": 2, "iron": 2, "coin": 2, "cart": 2}, SUPPLY)  # iron and coin handed in, cart kept
    assert plan == (1, {"stone": 1}, {"iron": 2, "coin": 2})


def _brute(counts, supply):
    """Every sequence of 4-for-1 trades taking only what the supply holds, handing tokens back to
    it: the most sets, then the fewest trades, as (sets, -trades). Small totals only."""
    @cache
    def best(c, u):
        score = (sum(x // 3 for x in c), 0)
        for give in combinations_with_replacement([i for i, x in enumerate(c) if x], 4):
            left, back = list(c), list(u)
            for i in give:
                left[i] -= 1
                back[i] += 1
            if min(left) < 0:
                continue
            for get in range(len(c)):
                if back[get] > 0:
                    r = best(tuple(x + (i == get) for i, x in enumerate(left)),
                             tuple(x - (i == get) for i, x in enumerate(back)))
                    score = max(score, (r[0], r[1] - 1))
        return score

    return best(tuple(counts), tuple(supply))


@pytest.mark.parametrize("counts, supply", [
    ((2, 2, 2, 2), (0, 0, 0, 0)), ((2, 2, 2, 2), (1, 0, 0, 0)), ((2, 2, 1, 1, 1, 1), (0, 0, 1, 1, 1, 1)),
    ((5, 0, 1, 1), (0, 2, 0, 0)), ((3, 3, 2, 1, 1), (0, 0, 0, 1, 1)), ((2, 5, 5), (1, 0, 0)),
    ((8, 1, 1), (0, 2, 2)), ((2, 2, 1, 0), (0, 1, 0, 2)), ((1, 1, 1, 1, 2), (0, 0, 0, 0, 1)),
    ((4, 4, 1, 2), (0, 0, 3, 0)),
])
def test_MK_AMB_33_capped_plan_equals_exhaustive_trading_MK_AMB_25(counts, supply):
    """MK-AMB-25 keeps its word under MK-AMB-33: the capped DP finds exactly the most sets, and
    the fewest trades, of any sequence of trades the supply allows; its trades are real ones."""
    names = "abcdefg"[:len(counts)]
    plan = plan_sets(dict(zip(names, counts)), dict(zip(names, supply)))
    assert (plan.sets, -plan.trades) == _brute(counts, supply)
    assert sum(plan.handed_in.values()) == 4 * plan.trades
    assert all(plan.gained.get(r, 0) <= u for r, u in zip(names, supply))
    final = [c - plan.handed_in.get(r, 0) + plan.gained.get(r, 0) for r, c in zip(names, counts)]
    assert min(final) >= 0 and sum(x // 3 for x in final) == plan.sets
    assert plan_sets(dict(zip(names, counts))).sets == best_sets(dict(zip(names, counts)))
