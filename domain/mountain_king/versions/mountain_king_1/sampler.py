"""What a Mountain King seat may know, for the search bot (``domain.kit.search``).

Hidden (MK-INFO-1, MK-AMB-28): the order of the three troll decks and of the spell
deck, and during the starter draft the seat's own deck order and every other
player's hand and deck. ``observe`` pools each (contents are public by elimination:
the catalogue minus every face-up card), as ``bots.determinise`` does for ``greedy``
-- with the same accepted approximation: a card known to lie at a deck's bottom (a
retired troll, a spell put back) is forgotten. The pedestal bag is drawn by the rules'
DRBG over its public counts: chance, played in each deal.

A Mountain King command costs milliseconds to list and judge, so the tree's leaves
are not played out: ``evaluate`` judges each seat with ``greedy``'s honor estimate
(``bots.Judge``'s, every seat at once by ``bots.estimates``: the scored categories plus the
future potential, less a share of the best rival's). A position offers hundreds of commands
(every dig of every tile), so the tree widens in ``greedy``'s order (``ordered``): the children a node gains are
``greedy``'s choice among the commands not yet tried, not its first choice and then
commands drawn at random. Below the root, ``listing`` lets the deals share a node's legal
list: in play the listing reads the decks' sizes only (a refill draws in the rules' dispatch,
not in the listing), so a state spelled with every deck as its size lists the same commands.
"""
from __future__ import annotations

import orjson

from domain.core import kept_bytes
from domain.kit import Observation, SearchSpec, copy_state, squash

from .bots import estimates, greedy_policy


def observe(state: dict, seat: int) -> Observation:
    s = state
    obs = Observation(copy_state(s))
    if s.get("horde"):
        for lv, deck in sorted(s["horde"]["decks"].items()):
            obs.pool(list(deck), [(("horde", "decks", lv), 0, len(deck))])
    if s.get("spells"):
        obs.pool(list(s["spells"]["deck"]), [(("spells", "deck"), 0, len(s["spells"]["deck"]))])
    for p, dr in enumerate(s.get("draft") or []):
        slots = [(("draft", p, "deck"), 0, len(dr["deck"]))]
        items = list(dr["deck"])
        if p != seat:
            slots.append((("draft", p, "hand"), 0, len(dr["hand"])))
            items += dr["hand"]
        obs.pool(items, slots)
    return obs


def listing(state: dict) -> bytes | None:
    """The state as the legal listing reads it in play: each hidden deck (MK-INFO-1) by its size
    alone. During the starter draft a seat's hand is its own secret, so nothing is shared."""
    if state["phase"] != "play":
        return None
    s = dict(state)
    if s.get("horde"):
        s["horde"] = {**s["horde"], "decks": {lv: len(d) for lv, d in s["horde"]["decks"].items()}}
    if s.get("spells"):
        s["spells"] = {**s["spells"], "deck": len(s["spells"]["deck"])}
    return kept_bytes(orjson.dumps(s, option=orjson.OPT_NON_STR_KEYS))  # as copy_state reads any key; a move keeps them


def evaluate(state: dict, seats: list[int]) -> dict[int, float]:
    return {p: squash(v / 10) for p, v in estimates(state, seats).items()}


SEARCH = SearchSpec(observe=observe, rollout=greedy_policy, evaluate=evaluate, depth=0,
                    playouts={"easy": 12, "normal": 150, "hard": 600}, playout_ms=15.0, ordered=True,
                    listing=listing)
