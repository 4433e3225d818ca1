"""Bot policies: ``policy(game, state, seat, rng) -> command``.

``random`` is the kit's ``random_bot``, uniform over ``legal_commands``. ``greedy`` looks one command
ahead: it applies each candidate to a copy of the game (``commands.dispatch``
with ``evolve`` as the emitter -- exactly what ``GAME.decide`` does, then the
fold, on one private copy instead of two) and keeps the one whose resulting
state has the best honor *estimate* for the seat's store; ties are broken with
the bot's rng.

Only what the seat may know is used. The state is first *determinised*: every
hidden order -- the three troll decks, the spell deck, every starter deck, and
the opponents' starter hands (pooled with their decks) -- is sorted and
reshuffled with the bot's rng, so a simulated refill or spell reveal draws a
card the seat could not predict instead of peeking at the real next one, and
the choice cannot depend on the real order. The contents are public by
elimination (the catalogue minus every face-up card), so only the order is a
guess; a card known to sit at a deck's bottom (a retired troll) is forgotten,
an accepted approximation. The pedestal bag is drawn by the rng over its public
counts. The estimate reads only view-public fields (storages, rosters, honor,
pedestal tokens, board, horde, coronation).

The estimate (``Judge.value``) is the store's final-scoring breakdown as it
stands (the six categories of ``scoring.breakdowns``, from the same scoring
functions) plus future potential scaled by the own turns probably left
(``potential``): resources by type (minerals also by the best tunnel they pay
for), troll symbols and recruits (production and the coronation race), the
network's open frontier with the buried statues and resources on it, carts
for statues already in the network, held pedestals, reachable workshops. It
subtracts ``RIVAL`` times the best opponent's estimate, so bringing the end
nearer (a coronation trigger shrinks everyone's potential) is judged by whom
it favours.

Pruning keeps a decision fast: trades are pre-scored on the resource term alone
(top ``TOP_TRADES``), digs on tunnel honor plus covered statues and resources
minus the minerals spent (top ``TOP_DIGS``), recruits on the symbols the
cascade fills (top ``TOP_RECRUITS``), statue moves on level gained, pedestal
doubling and altars (top ``TOP_MOVES``), at most ``PER_SPELL`` rng-sampled
parameter sets per spell, and at most ``MAX_CANDIDATES`` in all (rng-sampled,
ending the step or turn always kept). Draft choices are scored directly (a
starter's symbols, doubled in the two middle slots that cascades activate more
often, plus its starting row): their resources arrive only when every seat has
drafted, so one ply shows nothing.
"""
from __future__ import annotations

import heapq
from functools import lru_cache
from itertools import groupby
from operator import itemgetter

from domain.core import Illegal
from domain.kit import copier, random_bot

from . import commands, terrain
from .board import Board, board_key
from .catalog import level, starting_row, top_row
from .content import MINERALS
from .digging import HONOR
from .economy import resource_of, top_resources
from .evolve import evolve
from .leftovers import best_sets
from .roster import FULL, cascade
from .scoring import CORONATION, board_points, leftovers
from .state import key, members, store_of, unkey

TOP_TRADES, TOP_DIGS, TOP_RECRUITS, TOP_MOVES, PER_SPELL, MAX_CANDIDATES = 3, 8, 8, 6, 2, 28
WORTH = {"stone": 0.6, "iron": 0.7, "heartstone": 0.9, "coin": 0.6, "cart": 0.4, "hammer": 0.5, "rune": 0.5}
"""Honor-equivalent of one token while the game still has turns to use it."""
RIVAL = 0.3  # weight of the best opponent's estimate
HORIZON = 4.0  # own turns left at which potential counts in full


def greedy_policy(game, state, seat: int, rng):
    """Best one-ply honor estimate over a pruned candidate list (module docstring)."""
    cmds = game.legal_commands(state, seat)
    if len(cmds) == 1:
        return cmds[0]
    if cmds[0]["type"] == "draft":
        return _best(rng, [(_draft_score(c), c) for c in cmds])
    world = determinise(state, seat, rng)
    memo = getattr(game, "memo", None)
    judged = memo.setdefault("values", {}) if memo is not None else {}
    sim = rng.fork("greedy-sim")
    scored = []
    judge = fresh = None
    for cmd in candidates(world, seat, cmds, rng, memo):
        if id(cmd) not in judged:
            if judge is None:
                judge, fresh = Judge(world, seat), copier(world)
            judged[id(cmd)] = _simulated(judge, fresh(), seat, cmd, sim)
        if judged[id(cmd)] is not None:
            scored.append((judged[id(cmd)], cmd))
    return _best(rng, scored) if scored else rng.choice(cmds)


def _simulated(judge: "Judge", after: dict, seat: int, cmd: dict, sim) -> float | None:
    """``judge``'s value of ``cmd`` applied to ``after`` (a private copy): ``GAME.decide``'s own
    dispatch + fold, on one copy instead of two. None where the rules refuse it: legal only under
    the real hidden order, so not judged on a guess.

    In the search (``memo``: one per mover and spelling of the public state) a command is
    simulated once and its value read back at every later widening of that spelling: the deals
    differ only in hidden orders, which ``determinise`` reshuffles anyway, so a value kept is one
    sample of the same draw a new simulation would make."""
    try:
        commands.dispatch(after, seat, cmd, sim, lambda ev: evolve(after, ev))
    except Illegal:
        return None
    return judge.value(after)


def _best(rng, scored: list) -> dict:
    top = max(v for v, _ in scored)
    return rng.choice([c for v, c in scored if v >= top - 1e-9])


# --- hidden information ------------------------------------------------------

def determinise(state, seat: int, rng) -> dict:
    """A copy with every order the seat cannot know reshuffled (module docstring).

    Each hidden pile is sorted before the shuffle, so the copy -- and the bot's
    choice -- does not depend on the real hidden order at all. Only the piles are
    new: the rest is shared with ``state`` (the bot reads it and simulates on copies).
    """
    s = dict(state)
    if s.get("horde"):
        decks = s["horde"]["decks"]
        s["horde"] = {**s["horde"], "decks": {lv: rng.shuffled(sorted(deck)) for lv, deck in decks.items()}}
    if s.get("spells"):
        s["spells"] = {**s["spells"], "deck": rng.shuffled(sorted(s["spells"]["deck"]))}
    if s.get("draft"):
        s["draft"] = [_redealt(dr, p == seat, rng) for p, dr in enumerate(s["draft"])]
    return s


def _redealt(dr: dict, own: bool, rng) -> dict:
    """One seat's starter draft with its hidden cards reshuffled: the seat's own deck, or another
    seat's hand and deck pooled."""
    if own:
        return {**dr, "deck": rng.shuffled(sorted(dr["deck"]))}
    pool = rng.shuffled(sorted(dr["hand"] + dr["deck"]))
    return {**dr, "hand": pool[:len(dr["hand"])], "deck": pool[len(dr["hand"]):]}


# --- candidates ----------------------------------------------------------------

def candidates(s, seat: int, cmds: list[dict], rng, memo: dict | None = None) -> list[dict]:
    """The commands worth simulating: cheap pre-scores per command type.

    ``memo`` (the search's, ``kit.search._Listed.memo``): pre-scores read only what every state
    of the listing shares, so a command scored once is read back there."""
    by_type: dict[str, list[dict]] = {}
    for kind, run in groupby(cmds, key=itemgetter("type")):  # the legal list comes in runs of a type
        by_type.setdefault(kind, []).extend(run)
    out: list[dict] = []
    if "trade" in by_type:
        trades = by_type.pop("trade")
        out += _top(trades, TOP_TRADES, _scores(memo, trades, lambda cs: _trade_scores(holdings(s, seat), cs)))
    if "dig" in by_type:
        digs = by_type.pop("dig")
        cells = _board_tables(terrain.side(s))[1]
        out += _top(digs, TOP_DIGS, _scores(memo, digs, lambda cs: [_dig_score(s, cells, c) for c in cs]))
    if "recruit" in by_type:
        recruits = by_type.pop("recruit")
        scored = _scores(memo, recruits, lambda cs: [_recruit_score(s, seat, c) for c in cs])
        out += _top(recruits, TOP_RECRUITS, scored)
    if "move_statue" in by_type:
        moves = by_type.pop("move_statue")
        out += _top(moves, TOP_MOVES, _scores(memo, moves, lambda cs: [_move_score(s, c) for c in cs]))
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


def _scores(memo: dict | None, cmds: list[dict], score) -> list[float]:
    """``score(cmds)``, each command's pre-score, or the one ``memo`` kept for that very command
    (keyed by identity: the memo holds every command it scored, so an id stays its own). A
    command's score does not depend on the others listed with it."""
    if memo is None:
        return score(cmds)
    kept = memo.setdefault("scores", {})
    new = [c for c in cmds if id(c) not in kept]
    if new:
        kept.update(zip(map(id, new), score(new)))
        memo.setdefault("held", []).append(new)
    return list(map(kept.__getitem__, map(id, cmds)))


def _top(cmds: list[dict], k: int, scores: list[float]) -> list[dict]:
    """The ``k`` best by their ``scores``, best first; ties keep the legal order (``nsmallest`` is
    ``sorted(...)[:k]``, stable, without sorting the hundreds it leaves out)."""
    lower = [-x for x in scores]
    return [cmds[i] for i in heapq.nsmallest(k, range(len(cmds)), key=lower.__getitem__)]


def _trade_scores(have: dict, trades: list[dict]) -> list[float]:
    """Each trade's ``resource_term`` after it minus before, on the touched types only.

    A position lists some 200 ways to give and 7 to get, the trades of one give next to each
    other and sharing its dict: what depends on the give alone (its worth, the minerals it
    leaves) is worked out once per run of that give, and the tunnel honor of what a trade
    leaves is memoised on the minerals left (``_honor_after``)."""
    before = _dig_honor(have)
    out = []
    last = None
    for cmd in trades:
        give, get = cmd["give"], cmd["get"]
        if give is not last:
            last, honor = give, {}
            worth = sum(WORTH[r] * n for r, n in give.items())
            touched = any(r in MINERALS for r in give)
            left = tuple(have.get(m, 0) - give.get(m, 0) for m in MINERALS)
        flat = WORTH[get] - worth
        if get not in MINERALS and not touched:
            out.append(flat)
            continue
        h = honor.get(get)
        if h is None:
            h = honor[get] = _honor_after(left, get)
        out.append(flat + 0.5 * (h - before))
    return out


@lru_cache(maxsize=4096)
def _honor_after(left: tuple[int, ...], get: str) -> int:
    """``_dig_honor`` of the minerals ``left`` (in ``MINERALS`` order) plus the one ``get``."""
    return _dig_honor(dict(zip(MINERALS, (n + (m == get) for n, m in zip(left, MINERALS)))))


def _dig_honor(have: dict) -> int:
    """Honor of the best single tunnel the held minerals pay for."""
    return max(HONOR[min(have.get(m, 0), 5)][i] if have.get(m, 0) >= 2 else 0 for i, m in enumerate(MINERALS))


def _dig_score(s, cells: dict, cmd: dict) -> float:
    """Tunnel honor less the minerals spent, plus per cell what lies buried, twice the level of a
    covered statue, less a hammer for rubble (the terms added cell by cell, in that order)."""
    statues = s["statues"]
    size = len(cmd["cells"])
    score = HONOR[size][MINERALS.index(cmd["mineral"])] - size * WORTH[cmd["mineral"]]
    for cell in cmd["cells"]:
        worth, at, statue, rubble = cells[tuple(cell)]
        score += worth
        if at in statues:
            score += statue
        if rubble:
            score -= WORTH["hammer"]
    return score


def _dig_cells(b: Board) -> dict:
    """Coverable cell -> (its buried resources' worth, its statue key, twice its level, rubble?):
    what ``_dig_score`` reads per cell, worked out once per board (digs list thousands)."""
    return {c: (sum(WORTH[resource_of(r)] for r in b.buried.get(c, ())), key(c), 2 * b.level(c), c in b.rubble)
            for c in b.open_spaces}


def _recruit_score(s, seat: int, cmd: dict) -> float:
    card = s["horde"]["slots"][cmd["slot"]]["card"]
    roster = s["rosters"][seat]
    fills = len(top_row(card)) + sum(
        sum(not h for h in roster[p]["held"]) for p in cascade(*cmd["position"]) if p in roster)
    return fills + (2 if cmd.get("pedestal") else 0) - 0.1 * level(card)


def _move_score(s, cmd: dict) -> float:
    """Level gained, doubled onto a same-clan pedestal; an empty hall altar counts 5."""
    b = terrain.side(s)
    clan = s["statues"][key(cmd["from"])]
    score = float(b.level(cmd["to"]) - b.level(cmd["from"]))
    for piece in s["pieces"].values():
        if piece.get("anchor") == cmd["to"] and piece.get("pedestal") == clan:
            score += b.level(cmd["to"])
        if piece["kind"] == "hall" and piece.get("altar") == cmd["to"]:
            score += 5
    return score


def _draft_score(cmd: dict) -> float:
    card = cmd["card"]
    weight = 2 if cmd["slot"] in (2, 3) else 1
    return weight * sum(WORTH[resource_of(x)] for x in top_row(card)) + sum(
        WORTH[resource_of(x)] for x in starting_row(card))


# --- the estimate ---------------------------------------------------------------

def _near_table(b: Board) -> dict:
    """Coverable cell -> its on-board neighbours: the frontier loop's hot lookup."""
    return {c: tuple(b.neighbours(c)) for c in b.open_spaces}


def _board_tables(b: Board) -> tuple[dict, dict]:
    """``(_near_table(b), _dig_cells(b))``, worked out once per board: the game's two sides, or
    a board a test position gives."""
    return _tables_of(board_key(b))


@lru_cache(maxsize=8)
def _tables_of(key: tuple) -> tuple[dict, dict]:
    b = key[1].value  # board_key pins the board: a cached key keeps its id its own
    return _near_table(b), _dig_cells(b)


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
        for held, r in zip(troll["held"], top_resources(troll["card"])):
            if held:
                out[r] = out.get(r, 0) + 1
    return out


def resource_term(have: dict, f: float) -> float:
    """Tokens at their worth, plus half the honor of the best tunnel the minerals pay for."""
    if f <= 0:
        return 0.0
    return f * (sum(WORTH[r] * max(0, n) for r, n in have.items()) + 0.5 * _dig_honor(have))


class Judge:
    """One decision's estimate: what does not depend on the candidate is computed once.

    Per candidate: the scoring categories (``scoring.board_points`` only when the
    board or statues changed; ``best_sets`` is memoised on the holdings) and the
    seat's own potential. The rivals' potential is taken from the state before the
    command, per unit of ``potential`` (every term is linear in it), so a command
    that brings the end nearer shrinks it; what a dig takes from a rival's
    frontier is not seen.
    """

    def __init__(self, s, seat: int):
        self.base, self.seat, self.mine = s, seat, store_of(s, seat)
        self.points = board_points(s)
        self.board_part = {st: self._board(s, st) for st in range(len(s["stores"]))}
        self.rival_unit = {st: self._future(s, st, 1.0, self.board_part[st])
                           for st in range(len(s["stores"])) if st != self.mine}
        self.rival_sets = {st: best_sets(leftovers(s, st)) for st in self.rival_unit}

    def value(self, s) -> float:
        """The seat's estimate minus ``RIVAL`` times the best opponent's (the leaf's:
        ``estimates``)."""
        same = s["pieces"] == self.base["pieces"] and s["statues"] == self.base["statues"] and \
            s["workshops"] == self.base["workshops"]
        points = self.points if same else board_points(s)
        board = self.board_part[self.mine] if same else self._board(s, self.mine)
        f = potential(s)
        mine = self._scored(s, self.mine, points) + self._future(s, self.mine, f, board)
        rivals = [self._scored(s, st, points, self._kept_sets(s, st)) + f * unit
                  for st, unit in self.rival_unit.items()]
        return mine - RIVAL * max(rivals, default=0.0)

    def _kept_sets(self, s, st: int) -> int | None:
        """A rival's leftover sets as before the command, when its storage and trolls are as they
        were (most commands leave every rival's alone), else None."""
        base = self.base
        if s["stores"][st] != base["stores"][st]:
            return None
        if any(s["rosters"][p] != base["rosters"][p] for p in members(s, st)):
            return None
        return self.rival_sets[st]

    @staticmethod
    def _scored(s, st: int, points, sets: int | None = None) -> int:
        """The six final-scoring categories of ``scoring.breakdowns``, summed (``sets``: the
        leftover sets, where known). The sets are ``best_sets``, as if the supply never ran out:
        final scoring's trades take only what it holds (MK-AMB-33), which an estimate ignores."""
        halls, statues = points
        if sets is None:
            sets = best_sets(leftovers(s, st))
        mates = set(members(s, st))
        crowns = sum(CORONATION[tok] for tok, p in s["coronation"]["taken"].items() if p in mates)
        return s["honor"][st] + crowns + sum(s["ped_tokens"][st]) + sets + halls[st] + statues[st]

    @staticmethod
    def _board(s, st: int) -> tuple[float, int]:
        """The network's prospects at full potential: open frontier, what lies on it, workshops
        (once per occupancy, board side, store, statue spaces and workshops)."""
        seats = members(s, st)
        layout = terrain.lay(s)
        key = ("prospects", *board_key(terrain.side(s)), tuple(seats), tuple(sorted(s["statues"])), tuple(sorted(s["workshops"])))
        return layout.derived(key, lambda: Judge._prospects(s, layout, seats))

    @staticmethod
    def _prospects(s, layout, seats: list[int]) -> tuple[float, int]:
        own = set().union(*(layout.own_cells(p) for p in seats))
        if not own:
            return 0.0, 0
        b = terrain.side(s)
        near = _board_tables(b)[0]
        blocked = layout.opponent_cells(seats[0], seats[1:])
        taken = layout.piece_at
        frontier = {n for c in own for n in near.get(c, ())
                    if n in near and n not in taken and not any(x in blocked for x in near[n])}
        out = 0.2 * min(len(frontier), 20)
        for c in frontier:
            if key(c) in s["statues"]:
                out += 0.5 * b.level(c)
            out += 0.3 * len(b.buried.get(c, ()))
        out += 0.5 * sum(1 for sp in s["workshops"] if any(n in own for n in b.neighbours(unkey(sp))))
        return out, sum(1 for k in s["statues"] if unkey(k) in own)

    @staticmethod
    def _future(s, st: int, f: float, board: tuple[float, int]) -> float:
        if f <= 0:
            return 0.0
        have = dict(s["stores"][st])
        symbols = recruits = 0
        for p in members(s, st):
            for troll in s["rosters"][p].values():
                for held, r in zip(troll["held"], top_resources(troll["card"])):
                    symbols += 1
                    if held:
                        have[r] = have.get(r, 0) + 1
            recruits += max(0, len(s["rosters"][p]) - 4)
        prospects, statues_mine = board
        out = resource_term(have, 1.0) + 0.3 * symbols + 1.0 * recruits + prospects
        if s["coronation"]["left"]:
            out += 0.5 * recruits  # the race for the coronation tokens
        out += 0.4 * min(have.get("cart", 0), 3 * statues_mine)
        clans_open = _open_clans(tuple(s["ped_track"]))
        out += 2.0 * sum(n for c, n in s["peds"][st].items() if c in clans_open)
        return f * out


@lru_cache(maxsize=256)
def _open_clans(track: tuple[str, ...]) -> frozenset[str]:
    """The clans of the pedestal track's ``level:clan`` spaces still open."""
    return frozenset(k.split(":")[1] for k in track)


def estimates(s, seats: list[int]) -> dict[int, float]:
    """``Judge(s, p).value(s)`` of every seat p, each store's terms worked out once (the search's
    leaf judges every seat). The same sums in the same order: a rival's future there is ``f``
    times its future at full potential, and ``_future`` is ``f`` times the same sum."""
    points, f = board_points(s), potential(s)
    terms = {st: Judge._scored(s, st, points) + Judge._future(s, st, f, Judge._board(s, st))
             for st in range(len(s["stores"]))}
    out = {}
    for p in seats:
        mine = store_of(s, p)
        out[p] = terms[mine] - RIVAL * max((x for st, x in terms.items() if st != mine), default=0.0)
    return out


BOTS = {"random": random_bot, "greedy": greedy_policy}
