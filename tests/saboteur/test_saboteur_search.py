"""The search bot's Saboteur sampler: role cards dealt by what the seats' public plays
reveal (SAB-INFO-1, SAB-ROLE-2/3), deterministic deals, and an evaluation that counts
gold still going round (SAB-GOLD-3..5)."""
from __future__ import annotations

from domain.core import Drbg, fold
from domain.saboteur.inference import odds
from domain.saboteur.rules import GAME
from domain.saboteur.sampler import evaluate, observe
from saboteur_support import Table, action_card, card_for

DEALS = 300


def _saboteur_shares(state: dict, seat: int) -> dict:
    """How often each other seat (and the leftover, None) is dealt the saboteur card."""
    obs = observe(state, seat)
    counts = dict.fromkeys([p for p in range(state["players"]) if p != seat] + [None], 0)
    for i in range(DEALS):
        s = obs.deal(Drbg(b"deal", f"{i}"))
        for p in range(state["players"]):
            if p != seat and s["roles"][p] == "saboteur":
                counts[p] += 1
        counts[None] += s["leftover"] == "saboteur"
    return {p: c / DEALS for p, c in counts.items()}


def _three_seats(roles: str = "MMS") -> Table:
    t = Table(3, first_player=0)
    t.set_roles(roles)
    return t


def test_SAB_ROLE_3_with_nothing_played_the_saboteur_card_is_anywhere_unseen_alike():
    """A miner of 3 seats: the one saboteur card is seat 1's, seat 2's or the leftover."""
    shares = _saboteur_shares(_three_seats().state, 0)
    assert all(0.25 < v < 0.42 for v in shares.values()), shares


def test_SAB_CONN_2_a_seat_that_laid_a_dead_end_is_dealt_the_saboteur_card_more_often():
    """Seat 1 laid a dead end (SAB-CONN-2) on the tunnel, seat 2 a through card joined
    to the start (SAB-CONN-1): the deals name seat 1 the saboteur most of the time --
    whatever the true roles, which the sampler never reads."""
    for roles in ("MMS", "MSM", "MMM"):
        t = _three_seats(roles)
        t.place("straight-ew", 1, 0, by=2)
        t.place("dead-ew", 2, 0, by=1)
        shares = _saboteur_shares(t.state, 0)
        assert shares[1] > 0.6 and shares[2] < 0.15, (roles, shares)


def test_SAB_TOOL_2_a_tool_broken_in_front_of_a_miner_raises_its_breakers_odds():
    t = _three_seats("MMS")
    before = odds(t.state, 0)
    card = card_for(t, 2, action_card("break"))
    t.set_turn(2)
    tool = GAME.legal_commands(t.state, 2)
    cmd = next(c for c in tool if c["type"] == "break_tool" and c["card"] == card and c["target"] == 0)
    t.do(2, cmd)
    after = odds(t.state, 0)
    assert after[2] > before[2] and after[1] == before[1]


def test_SAB_ROCK_4_a_rockfall_that_clears_a_dead_end_lowers_its_players_odds():
    t = _three_seats("MMS")
    t.place("straight-ew", 1, 0, by=0)
    t.place("dead-ew", 2, 0, by=2)
    card = card_for(t, 1, action_card("rockfall"))
    t.set_turn(1)
    before = odds(t.state, 0)[1]
    t.do(1, {"type": "rockfall", "card": card, "x": 2, "y": 0})
    assert odds(t.state, 0)[1] < before


def test_SAB_ROLE_1_a_saboteur_of_three_seats_knows_every_other_seat_is_a_miner():
    t = _three_seats("SMM")
    t.place("dead-ew", 1, 0, by=1)
    shares = _saboteur_shares(t.state, 0)
    assert shares == {1: 0.0, 2: 0.0, None: 0.0}


def test_the_same_stream_deals_the_same_roles():
    t = _three_seats()
    t.place("dead-ew", 1, 0, by=1)
    obs = observe(t.state, 0)
    deals = [obs.deal(Drbg(b"same", "s")) for _ in range(2)]
    assert deals[0] == deals[1]


def test_SAB_GOLD_3_a_rollout_stopped_while_the_bundle_goes_round_credits_the_miners():
    """Seat 0 finds the treasure; the bundle waits for its holder's choice (SAB-AMB-25). The
    evaluation counts the cards still to come -- the finder first (SAB-GOLD-3..5) -- so
    finding the treasure is worth as much at the rollout's horizon as past it."""
    t = _three_seats("MMS")
    t.set_goals(A="stone-nw", B="treasure", C="stone-ne")
    for x in range(1, 7):
        t.place_ew(x, 0, by=0)
    t.set_turn(0)
    card = card_for(t, 0, lambda c: c.shape in ("straight-ew", "tee-new", "cross"))
    events = GAME.decide(t.state, 0, {"type": "play_path", "card": card, "x": 7, "y": 0, "rotated": False},
                         Drbg(b"find", "v1"))
    drawn = next(i for i, e in enumerate(events) if e["type"] == "GoldBundleDrawn")
    s = fold(GAME, events[:drawn + 1], t.state)
    assert s["phase"] == "gold" and len(s["bundle"]) == 3 and s["holder"] == 0
    values = evaluate(s, [0, 1, 2])
    assert values[0] > values[1] > values[2] and values[2] < 0.5


def test_SAB_WIN_3_a_miner_level_with_its_fellow_miner_still_values_the_tunnels_progress():
    """Miners 0 and 1 against saboteur 2: a tunnel one card nearer the treasure raises both
    miners' chance to end with the most gold and lowers the saboteur's (SAB-GOLD-1, SAB-GOLD-7),
    though the miners stay level in gold (each judges by its own belief about the roles, so
    their values need not be equal)."""
    values = []
    for reach in (5, 6):
        t = _three_seats("MMS")
        t.set_goals(A="stone-nw", B="treasure", C="stone-ne")
        for x in range(1, reach + 1):
            t.place_ew(x, 0, by=0)
        values.append(evaluate(t.state, [0, 1, 2]))
    far, near = values
    assert near[0] > far[0] and near[1] > far[1] and near[2] < far[2]


def test_SAB_ROLE_3_a_miner_values_a_leaf_by_the_roles_it_may_believe_not_the_dealt_ones():
    """Nothing played tells seats 1 and 2 apart: miner 0 values the position the same whether
    the deal made seat 1, seat 2 or the leftover card the saboteur (SAB-ROLE-2/3, SAB-INFO-1);
    the saboteur, who knows the others are miners (SAB-ROLE-1), values it above a miner."""
    values = []
    for roles in ("MMS", "MSM", "MMM"):
        t = _three_seats(roles)
        t.place_ew(1, 0, by=0)
        values.append(evaluate(t.state, [0, 1, 2])[0])
    assert max(values) - min(values) < 1e-12
    t = _three_seats("SMM")
    t.place_ew(1, 0, by=0)
    assert evaluate(t.state, [0, 1, 2])[0] > values[0]


def test_SAB_MAP_2_a_seat_judges_by_the_goals_it_knows_not_by_the_dealt_treasure():
    """Mid-round a seat that has seen no goal values the tunnel the same wherever the deal put
    the treasure; a seat that saw the treasure with a map values the tunnel by its own goal."""
    values = {}
    for treasure in ("A", "C"):
        t = _three_seats("MMS")
        t.set_goals(**{g: ("treasure" if g == treasure else "stone-nw") for g in "ABC"})
        t.place("straight-ns", 0, -1, by=0)
        t.place("curve-nw", 0, -2, rotated=True, by=0)  # S, E: the tunnel turns east towards A
        for x in range(1, 6):
            t.place_ew(x, -2, by=1)
        t.state["peeks"][1] = {treasure: "treasure"}
        values[treasure] = evaluate(t.state, [0, 1, 2])
    assert values["A"][0] == values["C"][0]
    assert values["A"][1] > values["C"][1]


def test_SAB_TOOL_3_a_tool_broken_in_front_of_a_miner_lowers_the_miners_value_of_the_leaf():
    """Miner 1 with a broken tool may lay no path (SAB-TOOL-3): the fitted chance of the
    tunnel reaching the treasure drops, so the miners' values drop and the saboteur's rises."""
    values = []
    for broken in (False, True):
        t = _three_seats("MMS")
        for x in range(1, 4):
            t.place_ew(x, 0, by=0)
        if broken:
            card = card_for(t, 2, action_card("break"))
            t.set_turn(2)
            cmd = next(c for c in GAME.legal_commands(t.state, 2)
                       if c["type"] == "break_tool" and c["card"] == card and c["target"] == 1)
            t.do(2, cmd)
        values.append(evaluate(t.state, [0, 1, 2]))
    whole, broken = values
    assert broken[0] < whole[0] and broken[1] < whole[1] and broken[2] > whole[2]
