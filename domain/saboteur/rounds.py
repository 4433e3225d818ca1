"""The flow between turns: dealing a round, turning goals up, ending a round, gold.

Everything here emits through the kit's ``Batch``, which folds each event into a
private copy of the state at once, so later steps of one ``decide`` see the
effects of earlier ones exactly as ``evolve`` will.
"""
from __future__ import annotations

from collections import Counter

from domain.core import Drbg
from domain.kit import Batch
from domain.saboteur.content import (
    CARDS, GOAL_CELLS, GOAL_SHAPES, HAND_SIZE, MAX_MINER_GOLD_CARDS, ROLE_DECK, ROUNDS,
    SABOTEUR_PAY, TREASURE,
)
from domain.saboteur.maze import frontier, goal_rotation
from domain.saboteur.state import SaboteurState


def start_round(b: Batch, rng: Drbg, rnd: int, first: int) -> None:
    """SAB-SETUP-2..6 and SAB-NEXT-2..4: layout, roles, deck, hands, first turn.
    Every round reshuffles the goals (SAB-NEXT-2, hidden: SAB-GRID-4), the same role
    deck (SAB-ROLE-4, SAB-NEXT-3) and all path and action cards as one pile
    (SAB-COMP-4, SAB-NEXT-4)."""
    n = b.state["players"]
    b.emit("RoundStarted", round=rnd, first_seat=first)
    b.emit("GoalsShuffled", goals=dict(zip(sorted(GOAL_CELLS), rng.shuffled(GOAL_SHAPES))))
    saboteurs, miners = ROLE_DECK[n]
    roles = rng.shuffled(["saboteur"] * saboteurs + ["miner"] * miners)
    for seat in range(n):
        b.emit("RoleDealt", seat=seat, role=roles[seat])
    b.emit("RoleSetAside", role=roles[n])
    deck = rng.shuffled(sorted(CARDS))
    b.emit("DeckShuffled", cards=deck)
    size = HAND_SIZE[n]
    for i in range(n):
        seat = (first + i) % n
        b.emit("HandDealt", seat=seat, cards=deck[i * size:(i + 1) * size])
    b.emit("TurnStarted", seat=first)


def reveal_reached_goals(b: Batch, seat: int) -> bool:
    """Turn up every face-down goal joined to the start (SAB-GOAL-1, SAB-AMB-12);
    True when the treasure was among them. A revealed stone may itself reach
    another goal, so repeat until nothing new is reached."""
    while True:
        s = b.state
        ends = frontier(s["maze"])
        reached = [g for g in sorted(s["goals"]) if not s["goals"][g]["revealed"]
                   and (s["goals"][g]["x"], s["goals"][g]["y"]) in ends]
        if not reached:
            return False
        for g in reached:
            goal = b.state["goals"][g]
            x, y, shape = goal["x"], goal["y"], goal["shape"]
            rotated = goal_rotation(b.state["maze"], shape, x, y, ends[(x, y)])
            b.emit("GoalRevealed", goal=g, x=x, y=y, shape=shape, rotated=rotated, by=seat)
        if any(b.state["goals"][g]["shape"] == TREASURE for g in reached):
            return True


def next_turn(b: Batch, rng: Drbg, seat: int) -> None:
    """Hand the turn on clockwise (SAB-TURN-1), or end the round when the cards
    are out (SAB-END-2, SAB-AMB-14). Empty hands pass by themselves (SAB-PASS-4)
    unless the option ``auto_pass_empty_hand`` is off."""
    s = b.state
    if not s["deck"] and not any(s["hands"]):
        end_round(b, rng, "cards_out", None)
        return
    nxt = seat
    while True:
        nxt = (nxt + 1) % s["players"]
        if s["hands"][nxt] or not s["options"]["auto_pass_empty_hand"]:
            b.emit("TurnStarted", seat=nxt)
            return
        b.emit("TurnPassed", seat=nxt, auto=True)


def miner_ccw(roles: list, seat: int, include_self: bool) -> int:
    """The nearest miner counter-clockwise from ``seat``, round the table as often as
    needed (SAB-GOLD-4, SAB-GOLD-5; a saboteur finder: SAB-GOLD-6, SAB-AMB-17)."""
    n = len(roles)
    for i in range(0 if include_self else 1, n + 1):
        if roles[(seat - i) % n] == "miner":
            return (seat - i) % n
    raise ValueError("no miner in play")


def end_round(b: Batch, rng: Drbg, reason: str, finder: int | None) -> None:
    """SAB-END-1..4 then the gold of SAB-GOLD."""
    s = b.state
    winner = "miners" if reason == "treasure_found" else "saboteurs"  # SAB-END-4, SAB-GOLD-1, SAB-GOLD-7
    b.emit("RoundEnded", round=s["round"], reason=reason, winner=winner, finder=finder,
           last_player=s["last_player"])
    b.emit("RolesRevealed", roles=list(s["roles"]), leftover=s["leftover"])
    s = b.state
    if winner == "miners":
        miners = [i for i, r in enumerate(s["roles"]) if r == "miner"]
        wanted = (min(s["players"], MAX_MINER_GOLD_CARDS)
                  if s["options"]["gold_cards_for_miners"] == "players" else len(miners))
        count = min(wanted, len(s["gold_deck"]))  # SAB-AMB-20
        if count:
            values = sorted(rng.shuffled(s["gold_deck"])[:count], reverse=True)
            b.emit("GoldBundleDrawn", holder=miner_ccw(s["roles"], finder, True), values=values)
    else:
        saboteurs = [i for i, r in enumerate(s["roles"]) if r == "saboteur"]
        if saboteurs and s["gold_deck"]:  # SAB-GOLD-9, SAB-ROLE-5: no saboteur, no gold
            order = [(s["last_player"] + 1 + i) % s["players"] for i in range(s["players"])]
            b.emit("GoldPayoutDue", payees=[p for p in order if p in saboteurs],
                   nuggets=SABOTEUR_PAY[len(saboteurs)])
    advance_gold(b, rng)


def payout_options(deck: list[int], amount: int) -> list[list[int]]:
    """The sets a saboteur may take (SAB-AMB-18): exact sums, else the largest
    total below, else the single lowest card. Default first: fewest cards,
    highest values first."""
    counts = Counter(deck)
    values = sorted(counts, reverse=True)
    found: list[list[int]] = []

    def walk(i: int, left: int, chosen: list[int]) -> None:
        if i == len(values):
            if chosen:
                found.append(chosen)
            return
        v = values[i]
        for k in range(min(counts[v], left // v), -1, -1):
            walk(i + 1, left - k * v, chosen + [v] * k)

    walk(0, amount, [])
    if found:
        best = max(map(sum, found))
        found = [c for c in found if sum(c) == best]
    elif deck:
        found = [[min(deck)]]
    else:
        found = [[]]
    return sorted(found, key=lambda c: (len(c), [-v for v in c]))


def gold_seat(s: SaboteurState) -> int | None:
    """Who must choose gold now: the bundle's holder, then the next saboteur."""
    if s["phase"] != "gold":
        return None
    if s["bundle"]:
        return s["holder"]
    if s["payees"]:
        return s["payees"][0]
    return None


def gold_options(s: SaboteurState) -> list[list[int]]:
    """What the choosing seat may take; the first is the default (SAB-AMB-18, SAB-AMB-25)."""
    if s["bundle"]:
        return [[v] for v in sorted(set(s["bundle"]), reverse=True)]
    return payout_options(s["gold_deck"], s["pay"])


def take_gold(b: Batch, seat: int, values: list[int]) -> None:
    s = b.state
    if s["bundle"]:
        b.emit("GoldKept", seat=seat, value=values[0])  # SAB-GOLD-3/4
        s = b.state
        if s["bundle"]:
            nxt = miner_ccw(s["roles"], seat, False)
            if nxt != seat:
                b.emit("GoldBundlePassed", **{"from": seat, "to": nxt, "values": list(s["bundle"])})
    else:
        b.emit("GoldPaid", seat=seat, values=values)


def advance_gold(b: Batch, rng: Drbg) -> None:
    """Settle every choice nobody needs to make (one option, or ``gold_choice:
    auto``), then start the next round (SAB-NEXT) or reveal the final gold (SAB-WIN)."""
    while (seat := gold_seat(b.state)) is not None:
        options = gold_options(b.state)
        if len(options) > 1 and b.state["options"]["gold_choice"] == "players":
            return
        take_gold(b, seat, options[0])
    s = b.state
    if s["round"] < ROUNDS:
        start_round(b, rng, s["round"] + 1, (s["last_player"] + 1) % s["players"])  # SAB-NEXT-6
    else:
        totals = [sum(sum(r) for r in g) for g in s["gold"]]  # SAB-WIN-2
        b.emit("GoldRevealed", gold=[[list(r) for r in g] for g in s["gold"]], totals=totals)
