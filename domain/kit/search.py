"""One search bot for every game: information-set Monte Carlo tree search.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte
Carlo Tree Search", IEEE TCIAIG 4(2), 2012): one tree over the bot's
information set; every iteration deals one *determinization* -- a full state
consistent with what the seat may know -- and walks the tree with the moves
legal in it, choosing by UCB1 with availability counts (a child's exploration
term counts the iterations in which it was legal, not its parent's visits). The
walk plays the game's own ``decide``/``evolve``; game-driven actors (automata,
monsters) and the rules' own draws are chance, resolved inside the
determinization. Past the tree a *rollout* plays the game's own heuristic bot
up to ``SearchSpec.depth`` steps, then ``evaluate`` scores the position (a full
playout where the game is short enough to reach its end).

What the bot may read, structurally: ``SearchSpec.observe(state, seat)`` is the
only call given the true state, and returns the seat's *observation* -- the state
with every hidden field blanked and the hidden items pooled, sorted (so their
real order cannot leak), beside the slots they may fill (``Observation``).
``deal`` refills the slots from shuffled pools. The search sees the observation,
and the seat's ``legal_commands`` (what the API serves the seat as its
legal actions); each game's sampler module (``domain/<game>/sampler.py``) writes
``observe`` and its tests show the move does not change when the hidden
information is re-dealt.

Deterministic: the budget is a number of iterations (``LEVELS``), never a time;
every draw comes from the bot's DRBG stream (``bot:v<version>:s<seat>``), forked
per iteration, so a replay -- or a killed worker's re-run -- chooses the same
move. With a clock, the budget is capped by the seat's remaining time at the
last recorded batch (``within``): that time follows from the events' stamps,
so it too is the same on every re-run.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import orjson

from domain.core import BotPolicy, Command, Drbg, Game, Illegal, State, canonical_json, fold, kept_bytes, seat_id
from domain.kit.state import copy_state

LEVELS = ("easy", "normal", "hard")
"""The thinking levels, weakest first; a game's ``SearchSpec.playouts`` gives each its budget."""
NAME = "search"
EXPLORATION = 0.7  # UCB1's c for rewards in [0, 1]
CLOCK_SHARE = 20  # a move may use at most 1/CLOCK_SHARE of the seat's remaining time


def bot_name(level: str) -> str:
    """The bot id a seat names: ``search-hard``."""
    return f"{NAME}-{level}"


def parse_bot(bot: Any, level: Any = None) -> Any:
    """A seat's ``bot`` (+ optional ``level``) as one bot id: ``{"bot": "search", "level": "hard"}``
    is ``search-hard``; ``search`` alone is ``search-normal``. Other names pass unchanged (the
    caller checks them against the game's bots); a level on any other bot, or an unknown level,
    raises Illegal(bad_bot_level)."""
    if level is None:
        return bot_name("normal") if bot == NAME else bot
    if bot != NAME:
        raise Illegal("bad_bot_level", None, f"only the {NAME!r} bot takes a level; {bot!r} has none")
    if level not in LEVELS:
        raise Illegal("bad_bot_level", None, f"level {level!r} is not one of {list(LEVELS)}")
    return bot_name(level)


# -- what the seat may know -----------------------------------------------------

Slot = tuple[tuple, int, int | None]
"""Where pooled items go: ``(path, start, count)`` -- ``count`` items at ``[start:start + count]``
of the list at ``path``, or one item at ``path`` itself when ``count`` is None."""


@dataclass
class Observation:
    """A seat's knowledge, in the shape of a state.

    ``state``: the true state with every hidden item blanked to None (lengths kept).
    ``pools``: per pool of hidden items, the items sorted (their multiset is public:
    the components minus what the seat sees) and the slots they fill. ``fix``
    (optional) restores what follows from a deal (who saw which dealt item).
    """

    state: State
    pools: list[tuple[list, list[Slot]]] = field(default_factory=list)
    fix: Callable[[State], None] | None = None

    def pool(self, items: list, slots: list[Slot]) -> None:
        """Pool ``items`` for ``slots`` and blank the slots in ``state``."""
        need = sum(_size(n) for _, _, n in slots)
        if need != len(items):
            raise ValueError(f"a pool of {len(items)} items for slots of {need}")
        self.pools.append((sorted(items, key=canonical_json), slots))
        for path, start, n in slots:
            _put(self.state, path, start, n, [None] * _size(n))

    def deal(self, rng: Drbg) -> State:
        """A full state consistent with the observation: each pool shuffled into its slots."""
        s = copy_state(self.state)
        for items, slots in self.pools:
            mixed = rng.shuffled(items)
            at = 0
            for path, start, n in slots:
                _put(s, path, start, n, mixed[at:at + _size(n)])
                at += _size(n)
        if self.fix is not None:
            self.fix(s)
        return s


def _size(n: int | None) -> int:
    return 1 if n is None else n


def _put(s: Any, path: tuple, start: int, n: int | None, items: list) -> None:
    for k in path[:-1]:
        s = s[k]
    if n is None:
        s[path[-1]] = items[0]
    else:
        s[path[-1]][start:start + n] = items


# -- the game's part ----------------------------------------------------------

Values = Mapping[int, float]


@dataclass(frozen=True)
class SearchSpec:
    """What a game gives the search (its ``sampler`` module builds one).

    ``observe(state, seat) -> Observation``; ``rollout``: the heuristic policy that
    plays every seat past the tree; ``evaluate(state, seats) -> {seat: value in [0, 1]}``
    where a rollout stops before the end; ``depth``: rollout steps (seats' commands
    and actors' steps) before ``evaluate``; ``playouts``: iterations per level;
    ``playout_ms``: a planning figure of one iteration's cost on this machine
    (from the benchmark; it only converts a clock's remaining time to iterations).
    ``horizon`` (optional): where an evaluation reads true only at a stage's end (a
    round's Mine has not paid yet mid-round), ``horizon(state)`` names the stage and the
    rollout stops as soon as it changes (still at most ``depth`` steps).
    ``private`` (optional): ``private(state, seat) -> bytes`` names what a seat knows that
    changes how it plays (a secret role) in one deal. A node's children are then kept apart
    per mover's ``private``: a seat's moves in the deals where it holds one secret are chosen
    by the rewards of those deals alone, not by statistics fused with the deals where it holds
    another (single-observer ISMCTS's strategy fusion of the opponents); the searching seat's
    own moves are never split (it knows its own secret).
    ``ordered``: progressive widening adds a node's children in the heuristic's order (its
    choice among the moves not yet tried), not the heuristic's first and then the rest at random.
    ``listing`` (optional): ``listing(state) -> bytes | None`` spells out everything the rules'
    legal listing reads (None: not known here). States that spell the same share one listing
    within a move: the deals differ in hidden orders that no listing reads, so most nodes below
    the root meet the same list in every deal, and listing it again is most of a node's cost.
    ``paired`` (optional, a count k): the root's candidates are the heuristic's first k choices
    (in its order, as ``ordered`` adds them), and every candidate is searched on the *same* deals
    with the same random streams -- one tree per candidate, the iteration budget split evenly --
    the move with the best mean value wins (the heuristic's earlier choice on a tie). The
    classic determinized search (Ginsberg's GIB; Long, Sturtevant, Buro and Furtak, "Understanding
    the Success of Perfect Information Monte Carlo Sampling in Game Tree Search", AAAI 2010)
    compares moves over one set of deals: common random numbers, so the difference between two
    candidates is not buried under the difference between the deals each one happened to meet.
    ``tree_cap`` (optional, with ``paired``): the most iterations one candidate's tree takes. A
    larger budget searches further trees of that size on further deals and pools the candidate's
    values over them (root parallelisation: Chaslot, Winands and van den Herik, "Parallel
    Monte-Carlo Tree Search", CG 2008), so it lowers the noise of the comparison without growing
    deeper trees, whose in-tree play at few visits is worse than the heuristic's rollouts.
    """

    observe: Callable[[State, int], Observation]
    rollout: BotPolicy
    evaluate: Callable[[State, list[int]], Values]
    depth: int
    playouts: Mapping[str, int]
    playout_ms: float
    horizon: Callable[[State], Any] | None = None
    private: Callable[[State, int], bytes] | None = None
    ordered: bool = False
    listing: Callable[[State], bytes | None] | None = None
    paired: int = 0
    tree_cap: int = 0


# -- the tree -----------------------------------------------------------------

class _Node:
    __slots__ = ("mover", "command", "visits", "avail", "total", "children")

    def __init__(self, mover: int | None, command: Command | None):
        self.mover, self.command = mover, command
        self.visits = self.avail = 0
        self.total = 0.0
        self.children: dict[bytes, _Node] = {}

    def mean(self) -> float:
        return self.total / self.visits


def _key(command: Command) -> bytes:
    """A command's identity in the tree: its JSON with sorted keys (one spelling per command,
    a fifth of ``canonical_json``'s cost; the tree is never stored, so no float rule is needed),
    right-sized (``kept_bytes``: a move keeps some 200,000 keys)."""
    return kept_bytes(orjson.dumps(command, option=orjson.OPT_SORT_KEYS))


def _keyed(commands: list[Command]) -> dict[bytes, Command]:
    """``{_key(c): c}`` over a position's legal list (inlined, ``kept_bytes`` too: the search keys millions)."""
    dumps, sort = orjson.dumps, orjson.OPT_SORT_KEYS
    return {bytes(memoryview(dumps(c, option=sort))): c for c in commands}


def _select(children: list[_Node]) -> _Node:
    """UCB1 with availability counts over the children's mean values *normalised to [0, 1]
    among the siblings* (as MuZero does): a heuristic evaluation's margins are small and
    its scale differs by game, so raw means would leave the choice to the exploration term."""
    means = [c.total / c.visits for c in children]
    lo, hi = min(means), max(means)
    span = hi - lo or 1.0
    best, best_v = children[0], -1.0
    for c, m in zip(children, means):
        v = (m - lo) / span + EXPLORATION * math.sqrt(math.log(c.avail) / c.visits)
        if v > best_v:
            best, best_v = c, v
    return best


class _Listed:
    """The game, with one position's legal commands already listed: the heuristic asked for
    the first child of a node lists them again otherwise (Mountain King: milliseconds).

    ``memo``: a dict shared by every heuristic call on states of one spelling
    (``SearchSpec.listing``) for one mover within a move, else None. The deals that share a
    spelling differ only in what no listing reads, so what a heuristic works out from the rest
    (Mountain King's pre-scores of the commands) can be kept there and read back, and so can
    what it would draw afresh from the hidden orders it reshuffles anyway, as one sample of that
    draw (Mountain King's simulated value of a command). It lives as long as the move's
    listings, so the listed commands it may name stay alive."""

    def __init__(self, game: Game, state: State, seat: int, legal: list[Command], memo: dict | None = None):
        self._game, self._state, self._seat, self._legal = game, state, seat, legal
        self.memo = memo

    def legal_commands(self, state: State, seat: int) -> list[Command]:
        if state is self._state and seat == self._seat:
            return list(self._legal)
        return self._game.legal_commands(state, seat)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


class SearchBot:
    """The search bot at one level: a ``BotPolicy`` (``policy(game, state, seat, rng)``)."""

    def __init__(self, spec: SearchSpec, level: str, playouts: int | None = None):
        self.spec, self.level = spec, level
        self.playouts = spec.playouts[level] if playouts is None else playouts
        self.__doc__ = f"Information-set MCTS, {self.playouts} playouts per move ({level})."

    def within(self, time_left_ms: int | None) -> "SearchBot":
        """This bot with its budget capped by a clock's remaining time (None: no clock)."""
        if time_left_ms is None:
            return self
        cap = max(1, int(time_left_ms / CLOCK_SHARE / self.spec.playout_ms))
        return SearchBot(self.spec, self.level, min(self.playouts, cap))

    def __call__(self, game: Game, state: State, seat: int, rng: Drbg) -> Command:
        legal = game.legal_commands(state, seat)
        if len(legal) == 1:
            return legal[0]
        return choose(game, self.spec.observe(state, seat), seat, legal, self.playouts, self.spec, rng)


def choose(game: Game, obs: Observation, seat: int, legal: list[Command], playouts: int, spec: SearchSpec,
           rng: Drbg) -> Command:
    """The most visited of ``legal`` after ``playouts`` iterations from ``obs`` (no true state here)."""
    if spec.paired:
        return _paired(game, obs, seat, legal, playouts, spec, rng)
    root = _Node(None, None)
    seats = list(range(game.players(obs.state)))
    keys = [_key(c) for c in legal]
    allowed = dict(zip(keys, legal))
    shared = _Shared()
    for i in range(playouts):
        _iterate(game, obs, seats, allowed, root, spec, rng.fork(f"i{i}"), shared)
    ranked = sorted(keys, key=lambda k: _rank(root.children.get(k)), reverse=True)
    return allowed[ranked[0]]


def _paired(game: Game, obs: Observation, seat: int, legal: list[Command], playouts: int, spec: SearchSpec,
            rng: Drbg) -> Command:
    """``SearchSpec.paired``: the heuristic's first k choices, each searched in its own tree on
    the same deals (iteration i of every tree draws from ``rng.fork("i<i>")``); the best mean wins,
    pooled over the trees of ``SearchSpec.tree_cap`` iterations a budget past that cap searches."""
    seats = list(range(game.players(obs.state)))
    allowed = _keyed(legal)
    left = dict(allowed)
    s = obs.deal(rng.fork("order"))  # the heuristic reads the seat's own view: any deal will do
    order: list[bytes] = []
    while left and len(order) < spec.paired:
        k = _advised(game, s, seat, left, spec, rng.fork(f"o{len(order)}"))
        if k is None:
            keys = list(left)
            k = keys[rng.fork(f"r{len(order)}").randbelow(len(keys))]
        order.append(k)
        del left[k]
    shared = _Shared()
    total, visits = dict.fromkeys(order, 0.0), dict.fromkeys(order, 0)
    iterations = max(1, playouts // len(order))
    cap = spec.tree_cap or iterations
    only = {k: {k: allowed[k]} for k in order}
    for start in range(0, iterations, cap):  # one tree per candidate and ``cap`` iterations
        roots = {k: _Node(None, None) for k in order}
        for i in range(start, min(start + cap, iterations)):
            for k in order:
                _iterate(game, obs, seats, only[k], roots[k], spec, rng.fork(f"i{i}"), shared)
        for k in order:
            child = roots[k].children.get(k)
            if child is not None:
                total[k] += child.total
                visits[k] += child.visits

    def mean(k: bytes) -> float:
        return total[k] / visits[k] if visits[k] else -math.inf
    return allowed[max(order, key=mean)]


def _rank(node: _Node | None) -> tuple[int, float]:
    return (0, 0.0) if node is None else (node.visits, node.mean() if node.visits else 0.0)


def _iterate(game: Game, obs: Observation, seats: list[int], allowed: dict[bytes, Command], root: _Node,
             spec: SearchSpec, rng: Drbg, shared: _Shared) -> None:
    s = obs.deal(rng)
    node, path, expanding = root, [], True
    while expanding:
        turn = game.turn(s)
        if turn.terminal:
            break
        if turn.actor is not None:
            s = fold(game, game.decide_actor(s, turn.actor, rng), s)
            continue
        mover = min(turn.seats)
        spelled = None if node is root else _spelling(spec, s)
        options = allowed if node is root else _options(game, s, mover, spelled, shared)
        children = node.children
        tag = spec.private(s, mover) if spec.private is not None and node is not root else b""
        if tag or (spelled is None and node is not root):
            present = [children[tag + k] for k in options if tag + k in children]
        else:  # a long list kept for the move: its few children, looked up in the list's order
            present = shared.present(options, children)
        for c in present:
            c.avail += 1
        if len(present) < min(len(options), 1 + int(math.sqrt(node.visits))):
            if node is root:  # spelled only where a widening asks for the memo: the root is met every iteration
                spelled = _spelling(spec, s)
            k = _widen(game, s, mover, options, node, tag, spec, rng, shared.memo(mover, spelled))
            child = children[tag + k] = _Node(mover, options[k])
            child.avail = 1
            expanding = False
        else:
            child = _select(present)
            k = _key(child.command)
        node.visits += node is root
        try:
            s = fold(game, _decide(game)(s, mover, options[k], rng), s)
        except Illegal:
            # Legal under the seat's real knowledge but not under this deal (a guess the
            # rules refuse): the deal is impossible, so the iteration teaches nothing.
            child.avail -= 1
            if not child.visits and not child.avail:
                del node.children[tag + k]
            return
        path.append(child)
        node = child
    values = _rollout(game, s, seats, spec, rng)
    for n in path:
        n.visits += 1
        n.total += values[n.mover]


class _Shared:
    """What one move's deals share, per mover and spelling of a state (``SearchSpec.listing``):
    the legal list, keyed, and the heuristic's memo (``_Listed.memo``)."""

    def __init__(self) -> None:
        self.lists: dict[tuple[int, bytes], dict[bytes, Command]] = {}
        self.memos: dict[tuple[int, bytes], dict] = {}
        self.places: dict[int, tuple[dict[bytes, Command], dict[bytes, int]]] = {}

    def memo(self, mover: int, spelled: bytes | None) -> dict | None:
        return None if spelled is None else self.memos.setdefault((mover, spelled), {})

    def present(self, options: dict[bytes, Command], children: dict[bytes, _Node]) -> list[_Node]:
        """``[children[k] for k in options if k in children]`` without walking ``options`` (a
        thousand trades at a node of a dozen children): the children sorted by their place in it.
        Only for a listing that lives through the move (the root's, or one of ``lists``): the
        places are kept by the list's identity, and the list with them so the identity stays its own."""
        got = self.places.get(id(options))
        if got is None:
            got = self.places[id(options)] = (options, {k: i for i, k in enumerate(options)})
        place = got[1]
        return [children[k] for k in sorted((k for k in children if k in place), key=place.__getitem__)]


def _spelling(spec: SearchSpec, s: State) -> bytes | None:
    """``SearchSpec.listing`` of ``s``: None where the game gives none, or none for this state."""
    return spec.listing(s) if spec.listing is not None else None


def _options(game: Game, s: State, mover: int, spelled: bytes | None, shared: _Shared) -> dict[bytes, Command]:
    """The mover's legal commands, keyed; listed once per spelling of the state where the game
    gives one (``SearchSpec.listing``). The commands are only read, so a listing can be shared."""
    if spelled is None:
        return _keyed(game.legal_commands(s, mover))
    options = shared.lists.get((mover, spelled))
    if options is None:
        options = shared.lists[mover, spelled] = _keyed(game.legal_commands(s, mover))
    return options


def _widen(game: Game, s: State, mover: int, options: dict[bytes, Command], node: _Node, tag: bytes,
           spec: SearchSpec, rng: Drbg, memo: dict | None) -> bytes:
    """The next child to add (progressive widening: a node has at most 1 + sqrt(visits)
    children of the mover's ``tag``): the heuristic's own choice first, so a small budget
    plays no worse than the heuristic, then the others at random -- or, where the game's
    search is ``ordered``, the heuristic's choice among the moves not yet tried."""
    fresh = {k: c for k, c in options.items() if tag + k not in node.children}
    if spec.ordered:
        k = _advised(game, s, mover, fresh, spec, rng, memo)
    elif not any(k.startswith(tag) for k in node.children):
        k = _advised(game, s, mover, options, spec, rng, memo)
    else:
        k = None
    if k is not None:
        return k
    keys = list(fresh)
    return keys[rng.randbelow(len(keys))]


def _advised(game: Game, s: State, mover: int, options: dict[bytes, Command], spec: SearchSpec,
             rng: Drbg, memo: dict | None = None) -> bytes | None:
    """The heuristic's choice among ``options`` (None when it names none of them)."""
    try:
        k = _key(spec.rollout(_Listed(game, s, mover, list(options.values()), memo), s, mover, rng))
    except Illegal:
        return None
    return k if k in options else None


def _rollout(game: Game, s: State, seats: list[int], spec: SearchSpec, rng: Drbg) -> Values:
    stage = spec.horizon(s) if spec.horizon else None
    for _ in range(spec.depth):
        if stage is not None and spec.horizon(s) != stage:
            break
        turn = game.turn(s)
        if turn.terminal:
            break
        try:
            if turn.actor is not None:
                events = game.decide_actor(s, turn.actor, rng)
            else:
                mover = min(turn.seats)
                events = _decide(game)(s, mover, spec.rollout(game, s, mover, rng), rng)
        except Illegal:
            break  # the heuristic met a position its deal makes odd: judge it as it stands
        s = fold(game, events, s)
    if game.is_terminal(s):
        return outcome(game, s, seats)
    return spec.evaluate(s, seats)


def _decide(game: Game):
    """The rules' own ``decide``: inside the search every command comes from the rules'
    legal list or the game's own heuristic, so the kit's schema check is skipped (a
    tenth of the time); a game not built on the kit keeps its ``decide``."""
    return getattr(game, "rules_decide", game.decide)


def outcome(game: Game, s: State, seats: list[int]) -> Values:
    """A finished game's reward per seat: its share of the win (0.8) and its place (0.2)."""
    board = game.scores(s)
    lines = board.standings
    first = [x.participant for x in lines if x.place == 1]
    worst = max((x.place or 1) for x in lines)
    out = {}
    for p in seats:
        pid = seat_id(p)
        place = next((x.place for x in lines if x.participant == pid), None) or worst
        win = 1 / len(first) if pid in first else 0.0
        out[p] = 0.8 * win + 0.2 * ((worst - place) / (worst - 1) if worst > 1 else win)
    return out


def squash(x: float) -> float:
    """A heuristic margin mapped into (0, 1): 0.5 at an even position."""
    return 1 / (1 + math.exp(-x))


def bots(spec: SearchSpec) -> dict[str, SearchBot]:
    """The search bot's entries for a game's ``bots``: ``search-easy``, ``search-normal``, ``search-hard``."""
    return {bot_name(level): SearchBot(spec, level) for level in LEVELS}


def levels(game_bots: Mapping[str, BotPolicy]) -> dict[str, dict]:
    """The catalog's description of each search level a game offers: bot id -> {bot, level, playouts}."""
    return {name: {"bot": NAME, "level": b.level, "playouts": b.playouts}
            for name, b in game_bots.items() if isinstance(b, SearchBot)}


def with_clock(policy: BotPolicy, time_left_ms: int | None) -> BotPolicy:
    """``policy`` with its thinking capped by the seat's remaining clock, if it thinks at all."""
    return policy.within(time_left_ms) if isinstance(policy, SearchBot) else policy


__all__ = ["LEVELS", "NAME", "Observation", "SearchBot", "SearchSpec", "bot_name", "bots", "choose", "levels",
           "outcome", "parse_bot", "squash", "with_clock"]
