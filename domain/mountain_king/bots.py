"""Bot policies: ``policy(game, state, seat, rng) -> command``.

``random`` is uniform over ``legal_commands``. ``greedy`` looks one command
ahead: it applies each candidate (``decide`` then fold) to a copy of the game
and keeps the one whose resulting state has the best honor *estimate* for the
seat's store, ties broken with the bot's rng.

Only what the seat may know is used. The state is first *determinised*: every
hidden order -- the three troll decks, the spell deck, every starter deck, and
the opponents' starter hands (pooled with their decks) -- is reshuffled with the
bot's rng, so a simulated refill or spell reveal draws a card the seat could
not predict instead of peeking at the real next one. Their contents are public
by elimination (the catalogue minus every face-up card), so only the order is
a guess; a card known to sit at a deck's bottom (a retired troll) is forgotten,
an accepted approximation. The pedestal bag is drawn by the rng passed to
``decide`` over its public counts. The estimate itself reads only view-public
fields (storages, rosters, honor, pedestal tokens, board, horde, coronation).

The estimate (``value``) is the store's current final-scoring breakdown (all
six categories, ``scoring.breakdowns``) plus future potential scaled by how
many own turns are probably left: resources by type (minerals convex toward
the next tunnel size), troll symbols and recruits (production and the coronation
race), open frontier cells of the network with the buried statues and
resources next to it, held pedestals, reachable workshops; minus a fraction of
the best opponent's estimate, so that ending the game (a coronation trigger)
or blocking is judged by who it favours.

Pruning keeps a decision fast: trades are pre-scored on the resource term alone
(top ``TOP_TRADES``), digs on tunnel honor plus covered statues and resources
minus the minerals spent (top ``TOP_DIGS``), recruits on symbols and cascade
size (top ``TOP_RECRUITS``), at most ``PER_SPELL`` parameter sets per spell
(rng-sampled), and at most ``MAX_CANDIDATES`` in all. Draft choices are scored
directly (a starter's symbols, doubled in the two middle slots that cascades
activate more often, plus its starting row), since their resources arrive only
when every seat has drafted.
"""
from __future__ import annotations

import pickle

from domain.core import Illegal

from . import terrain
from .catalog import level, starting_row, top_row
from .content import MINERALS
from .digging import HONOR
from .economy import resource_of
from .roster import FULL, cascade
from .scoring import breakdowns
from .state import key, members, store_of, unkey

TOP_TRADES, TOP_DIGS, TOP_RECRUITS, PER_SPELL, MAX_CANDIDATES = 3, 8, 10, 3, 40
WORTH = {"stone": 0.6, "iron": 0.7, "heartstone": 0.9, "coin": 0.6, "cart": 0.4, "hammer": 0.5, "rune": 0.5}
"""Honor-equivalent of one token while the game still has turns to use it."""
RIVAL = 0.3  # weight of the best opponent's estimate
HORIZON = 4.0  # own turns left at which potential counts in full


def random_policy(game, state, seat: int, rng):
    """Uniform over every legal command."""
    return rng.choice(game.legal_commands(state, seat))


def greedy_policy(game, state, seat: int, rng):
    """Best one-ply honor estimate over a pruned candidate list (module docstring)."""
    cmds = game.legal_commands(state, seat)
    if len(cmds) == 1:
        return cmds[0]
    if cmds[0]["type"] == "draft":
        return _best(rng, [(_draft_score(c), c) for c in cmds])
    world = determinise(state, seat, rng)
    sim = rng.fork("greedy-sim")
    scored = []
    for cmd in candidates(world, seat, cmds, rng):
        try:
            events = game.decide(world, seat, cmd, sim)
        except Illegal:
            continue  # legal only under the real hidden order: not judged on a guess
        after = pickle.loads(pickle.dumps(world, -1))
        for ev in events:
            after = game.evolve(after, ev)
        scored.append((value(after, seat), cmd))
    return _best(rng, scored) if scored else rng.choice(cmds)


def _best(rng, scored: list) -> dict:
    top = max(v for v, _ in scored)
    return rng.choice([c for v, c in scored if v >= top - 1e-9])


# --- hidden information ------------------------------------------------------

def determinise(state, seat: int, rng) -> dict:
    """A copy with every order the seat cannot know reshuffled (module docstring)."""
    s = pickle.loads(pickle.dumps(state, -1))
    if s.get("horde"):
        for lv, deck in s["horde"]["decks"].items():
            s["horde"]["decks"][lv] = rng.shuffled(deck)
    if s.get("spells"):
        s["spells"]["deck"] = rng.shuffled(s["spells"]["deck"])
    for p, dr in enumerate(s.get("draft") or []):
        if p == seat:
            dr["deck"] = rng.shuffled(dr["deck"])
        else:
            pool = rng.shuffled(dr["hand"] + dr["deck"])
            dr["hand"], dr["deck"] = pool[:len(dr["hand"])], pool[len(dr["hand"]):]
    return s


# --- candidates ----------------------------------------------------------------

def candidates(s, seat: int, cmds: list[dict], rng) -> list[dict]:
    """The commands worth simulating: cheap pre-scores per command type."""
    by_type: dict[str, list[dict]] = {}
    for c in cmds:
        by_type.setdefault(c["type"], []).append(c)
    out: list[dict] = []
    if "trade" in by_type:
        have = holdings(s, seat)
        f = potential(s)
        base = resource_term(have, f)
        out += _top(by_type.pop("trade"), TOP_TRADES, lambda c: resource_term(_traded(have, c), f) - base)
    if "dig" in by_type:
        out += _top(by_type.pop("dig"), TOP_DIGS, lambda c: _dig_score(s, c))
    if "recruit" in by_type:
        out += _top(by_type.pop("recruit"), TOP_RECRUITS, lambda c: _recruit_score(s, seat, c))
    if "cast" in by_type:
        per: dict[str, list[dict]] = {}
        for c in by_type.pop("cast"):
            per.setdefault(c["spell"], []).append(c)
        for spell in sorted(per):
            out += rng.shuffled(per[spell])[:PER_SPELL]
    ends = [c for kind in ("end_step", "end_turn") for c in by_type.pop(kind, [])]
    for kind in sorted(by_type):
        out += by_type[kind]
    if len(out) > MAX_CANDIDATES - len(ends):
        out = rng.shuffled(out)[:MAX_CANDIDATES - len(ends)]
    return out + ends


def _top(cmds: list[dict], k: int, score) -> list[dict]:
    """The ``k`` best by ``score``; the sort is stable, so ties keep the legal order."""
    return sorted(cmds, key=lambda c: -score(c))[:k]


def _traded(have: dict, cmd: dict) -> dict:
    out = dict(have)
    for r, n in cmd["give"].items():
        out[r] = out.get(r, 0) - n
    out[cmd["get"]] = out.get(cmd["get"], 0) + 1
    return out


def _dig_score(s, cmd: dict) -> float:
    b = terrain.side(s)
    size = len(cmd["cells"])
    score = HONOR[size][MINERALS.index(cmd["mineral"])] - size * WORTH[cmd["mineral"]]
    for cell in cmd["cells"]:
        c = tuple(cell)
        score += sum(WORTH[resource_of(r)] for r in b.buried.get(c, ()))
        if key(c) in s["statues"]:
            score += 2 * b.level(c)
        if c in b.rubble:
            score -= WORTH["hammer"]
    return score


def _recruit_score(s, seat: int, cmd: dict) -> float:
    card = s["horde"]["slots"][cmd["slot"]]["card"]
    roster = s["rosters"][seat]
    fills = len(top_row(card)) + sum(
        sum(not h for h in roster[p]["held"]) for p in cascade(*cmd["position"]) if p in roster)
    return fills + (2 if cmd.get("pedestal") else 0) - 0.1 * level(card)


def _draft_score(cmd: dict) -> float:
    card = cmd["card"]
    weight = 2 if cmd["slot"] in (2, 3) else 1
    return weight * sum(WORTH[resource_of(x)] for x in top_row(card)) + sum(
        WORTH[resource_of(x)] for x in starting_row(card))


# --- the estimate ---------------------------------------------------------------

def potential(s) -> float:
    """0..1: how much of the future potential still counts (own turns left / HORIZON)."""
    if s.get("phase") == "over":
        return 0.0
    n = s["n"]
    if s.get("turns_left") is not None:
        left = s["turns_left"] / n
    else:
        fullest = max(len(r) for r in s["rosters"])
        left = 2.0 * (FULL - fullest) + 2 + (2 if n > 2 else 0)
    return min(1.0, left / HORIZON)


def holdings(s, seat: int) -> dict[str, int]:
    """Storage plus the tokens on the seat's own trolls (clan carts counted as carts)."""
    out = dict(s["stores"][store_of(s, seat)])
    for troll in s["rosters"][seat].values():
        for held, sym in zip(troll["held"], top_row(troll["card"])):
            if held:
                out[resource_of(sym)] = out.get(resource_of(sym), 0) + 1
    return out


def resource_term(have: dict, f: float) -> float:
    """Tokens at their worth, plus the honor of the best tunnel the minerals pay for."""
    if f <= 0:
        return 0.0
    flat = sum(WORTH[r] * max(0, n) for r, n in have.items())
    dig = max(HONOR[min(have.get(m, 0), 5)][i] if have.get(m, 0) >= 2 else 0 for i, m in enumerate(MINERALS))
    return f * (flat + 0.5 * dig)


def value(s, seat: int) -> float:
    """The seat's estimate minus ``RIVAL`` times the best opponent's."""
    per = breakdowns(s)
    f = potential(s)
    layout = terrain.lay(s)
    mine = store_of(s, seat)
    est = {st: sum(per[st].values()) + _future(s, st, f, layout) for st in per}
    rivals = [v for st, v in est.items() if st != mine]
    return est[mine] - RIVAL * max(rivals, default=0.0)


def _future(s, st: int, f: float, layout) -> float:
    if f <= 0:
        return 0.0
    seats = members(s, st)
    b = terrain.side(s)
    have = dict(s["stores"][st])
    symbols = recruits = 0
    for p in seats:
        for troll in s["rosters"][p].values():
            for held, sym in zip(troll["held"], top_row(troll["card"])):
                symbols += 1
                if held:
                    have[resource_of(sym)] = have.get(resource_of(sym), 0) + 1
        recruits += max(0, len(s["rosters"][p]) - 4)
    out = resource_term(have, f)
    out += f * (0.3 * symbols + 1.0 * recruits)
    if s["coronation"]["left"]:
        out += f * 0.5 * recruits  # the race for the coronation tokens
    own = set().union(*(layout.own_cells(p) for p in seats))
    if own:
        blocked = layout.opponent_cells(seats[0], seats[1:])
        near = {n for c in own for n in b.neighbours(c) if b.coverable(n) and n not in layout.piece_at}
        frontier = {c for c in near if not any(x in blocked for x in b.neighbours(c))}
        out += f * 0.2 * min(len(frontier), 20)
        for c in frontier:
            if key(c) in s["statues"]:
                out += f * 0.5 * b.level(c)
            out += f * 0.3 * len(b.buried.get(c, ()))
        statues_mine = sum(1 for k in s["statues"] if unkey(k) in own)
        out += f * 0.4 * min(have.get("cart", 0), 3 * statues_mine)
        ws = sum(1 for sp in s["workshops"] if any(n in own for n in b.neighbours(unkey(sp))))
        out += f * 0.5 * ws
    clans_open = {k.split(":")[1] for k in s["ped_track"]}
    out += f * 2.0 * sum(n for c, n in s["peds"][st].items() if c in clans_open)
    return out


BOTS = {"random": random_policy, "greedy": greedy_policy}
