"""The search bot's strength, speed and each game's balance, over seeded in-process games.

    python -m benchmarks.search_bots run OUT.jsonl [--rounds R] [--configs a,b] [--jobs J] [--first N] [--twins COMMIT]
    python -m benchmarks.search_bots report OUT.jsonl... [--commits c1,c2] [--configs a,b] [--markdown]
    python -m benchmarks.search_bots cpu [--positions N] [--games a,b] [--levels a,b] [--markdown]

Every game is played through the kit's driver (``domain.kit.play``: the server's
DRBG streams), seeded by its configuration and number, so any game repeats exactly.
``run`` plays R rounds; a round plays one game of every configuration, so a run cut
short still has a sample of each. Each finished game is appended to OUT as one JSON
line (progress on stderr) naming the commit of the bot code that played it, and ``run``
resumes after the games that commit already has in OUT; ``report`` reads the games of the
commits it is given (the last game's by default).

Configurations (``CONFIGS``), for every registered game that offers the search bot:
``<game>:duel`` -- ``search-normal`` against the game's best existing bot (``heuristic``,
else ``greedy``, else ``random``) at the smallest table of two or more (Saboteur's is 3),
the search seat rotating; ``<game>:full`` -- one ``search-normal`` among the best bot at
two seats more (at most the game's largest); ``<game>:levels`` -- ``search-hard`` against
``search-normal``; ``<game>:easy`` -- ``search-easy`` as in the duel. Beside them, studies of
one game's modes: ``dwarf:solo:<automaton>`` -- ``search-hard`` alone against each
automaton; ``indagar:solo`` and ``indagar:pair`` -- ``search-normal`` seats against the
monsters, ``indagar:pair:hard`` -- two ``search-hard`` seats against them (an Indagar game
has some 400 decisions: at hard it takes several minutes of CPU). Every search move's CPU time
(``time.process_time``) is recorded per level.

``report``: per configuration, the search bot's win share with a 95 % Wilson interval
(a shared win counts as a fraction); for duels and level matches of 3+ seats (Saboteur) and of
seats that hold factions (Indagar's: they differ in strength) a paired measure --
each game is played again from the same seed with the other seats' bot in the subject's seat
too (the best bot in a duel, ``search-normal`` in a level match: the *twin*, the same first
deal), and the subject "beats" it when its seat ends with more
points than that seat in the twin (equal: half); the players' share against the monsters or an
automaton, CPU seconds per move per level (mean, p95, max), and the balance of the
same games: the win share by seat position, by the round's first player and, in
Indagar, by faction.

``cpu``: CPU per move at every level of every game, each level timed on the *same*
positions: every 5th decision with a choice in seeded games of the game's best bot at its
smallest table (``--positions`` of them per game), each chosen as a worker chooses it
(``kit.bot_choice``: the seat's private copy, the bot's DRBG stream). The games'
own times (``report``) come from different positions per level; these compare levels. The JSON
gives per level a digest of the commands chosen (``choices``): a speed-up that must keep the moves
shows the same digest at both commits.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import statistics
import subprocess
import sys
import time
import tracemalloc
from multiprocessing import Pool

from domain import registry
from domain.core import Seat, canonical_json
from domain.kit import bot_choice, play, search
from domain.kit import run as step

SEARCHED = [gid for gid in registry.available() if search.levels(registry.get(gid).bots)]
BEST = {gid: next((b for b in ("heuristic", "greedy") if b in registry.get(gid).bots), "random") for gid in SEARCHED}
SMALLEST = {gid: max(2, registry.get(gid).min_players) for gid in SEARCHED}
LARGEST = {gid: min(registry.get(gid).max_players, SMALLEST[gid] + 2) for gid in SEARCHED}
FACTIONS = ("arkland", "sect", "forest", "ramal")


def _table(config: str, g: int) -> tuple[str, list[str], dict]:
    """(game id, the bot of each seat, options) of game ``g`` of ``config``."""
    game, kind, *rest = config.split(":")
    if kind in ("duel", "full", "levels", "easy"):
        n = SMALLEST[game] if kind != "full" else LARGEST[game]
        me, other = {"levels": ("search-hard", "search-normal"), "easy": ("search-easy", BEST[game])}.get(
            kind, ("search-normal", BEST[game]))
        bots = [me if i == g % n else other for i in range(n)]
    elif kind == "solo":  # DWARF at hard; Indagar's games are long, so at normal
        bots = ["search-hard" if game == "dwarf" else "search-normal"]
    else:  # indagar:pair, or indagar:pair:<level>
        bots = [search.bot_name(rest[0] if rest else "normal")] * 2
    options: dict = {}
    if game == "dwarf" and kind == "solo":
        options = {"solo_level": rest[0]}
    if game == "indagar":  # the factions turn once per round of the subject's seats: every faction is
        # the subject's as often, each pairing played from both sides (the factions differ in strength)
        options = {"factions": [FACTIONS[(g // len(bots) + i) % 4] for i in range(len(bots))]}
    return game, bots, options


# One game's modes, studied when that game is installed: (game, configuration).
MODES = (("dwarf", "dwarf:solo:andvettr"), ("dwarf", "dwarf:solo:andvettr-fadir"), ("indagar", "indagar:pair"), ("indagar", "indagar:pair:hard"),
         ("indagar", "indagar:solo"), ("dwarf", "dwarf:solo:eldhusfifl"))
CONFIGS = (*(f"{gid}:{kind}" for kind in ("duel", "levels", "full", "easy") for gid in SEARCHED),
           *(config for gid, config in MODES if gid in SEARCHED))


def _first(game_id: str, played) -> int | None:
    """The seat that moves first in round 1 (None: the solo automaton), from the start events."""
    data = {e["type"]: e["data"] for e in played.steps[0].events}
    if game_id == "dwarf":
        first = data["GameSetUp"]["first"]
        return first if first < len(played.seats) else None
    if game_id == "indagar":
        return data["InitiativeTaken"]["seat"]
    if game_id == "saboteur":
        return data["RoundStarted"]["first_seat"]
    if game_id == "mountain-king":
        return played.state["order"][0]
    return None  # a game this benchmark does not know: no first-player balance


def one(job: tuple[str, int, dict | None]) -> dict:
    """Game ``g`` of ``config``, and its twin where the configuration has one (``twin``: the twin's
    totals as an earlier run played them, not played again)."""
    config, g, twin = job
    game_id, bots, options = _table(config, g)
    game = registry.get(game_id)
    times: dict[str, list[float]] = {}

    def timed(bot: str):
        policy = game.bots[bot]

        def decide(gm, state, seat, rng):
            t0 = time.process_time()
            cmd = policy(gm, state, seat, rng)
            times.setdefault(bot, []).append(time.process_time() - t0)
            return cmd
        return decide

    seats = [Seat(i, f"{b}-{i}", b) for i, b in enumerate(bots)]
    seed = f"search-bench:{config}:{g}".encode()
    started = time.perf_counter()
    played = play(game, seats, options, seed,
                  policies={i: timed(b) for i, b in enumerate(bots) if b.startswith("search")})
    board = played.scores()
    first = [x.participant for x in board.standings if x.place == 1] if played.terminal else []
    kind = board.result().kind
    out = {"config": config, "g": g, "game": game_id, "bots": bots, "options": options,
           "terminal": played.terminal, "outcome": kind, "winners": first if kind != "no_player_wins" else [],
           "first": _first(game_id, played), "decisions": len(played.steps) - 1,
           "seconds": round(time.perf_counter() - started, 2),
           "times": {b: [round(t, 4) for t in ts] for b, ts in times.items()},
           "totals": {x.participant: x.total for x in board.standings}}
    if config.split(":")[1] in ("duel", "full", "levels") and (len(bots) >= 3 or "factions" in options):
        # The twin: the same seed with the other seats' bot in the subject's seat too (the same first
        # deal; where seats hold factions, the same factions, so the pair measures the bot, not its faction).
        if twin is None:
            other = bots[(g + 1) % len(bots)]
            played = play(game, [Seat(i, f"{other}-{i}", other) for i in range(len(bots))], options, seed)
            twin = {x.participant: x.total for x in played.scores().standings}
        out["twin_totals"] = twin
    return out


def code_commit() -> str:
    """The commit the bots' code is at (``+dirty`` if the domain has uncommitted changes): results
    of different bot code are never pooled."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "domain"], capture_output=True, text=True, check=True)
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def jobs_left(out: str, commit: str, configs: list[str], numbers: range, twins: str | None = None) -> list:
    """``(config, g, twin totals or None)`` of every game ``commit`` has not yet played in ``out``,
    a round (one game of each configuration) at a time; the twins of commit ``twins`` reused."""
    done, kept = set(), {}
    try:
        with open(out) as f:
            for r in map(json.loads, f):
                if r.get("commit") == commit:
                    done.add((r["config"], r["g"]))
                elif twins and r.get("commit") == twins and "twin_totals" in r:
                    kept[r["config"], r["g"]] = r["twin_totals"]
    except FileNotFoundError:
        pass
    return [(c, g, kept.get((c, g))) for g in numbers for c in configs if (c, g) not in done]


def run(out: str, rounds: int, configs: list[str], jobs: int, first: int = 0, twins: str | None = None) -> None:
    """Play the games of ``configs`` numbered from ``first`` not yet in ``out`` at this commit.
    ``twins``: a commit whose games in ``out`` already played the twins (valid only where the twin's
    bot chooses alike at both commits): their totals are reused, not played again."""
    commit = code_commit()
    todo = jobs_left(out, commit, configs, range(first, first + rounds), twins)
    started = time.monotonic()
    with Pool(jobs) as pool, open(out, "a") as f:
        for i, r in enumerate(pool.imap(one, todo), 1):
            f.write(json.dumps({"commit": commit, **r}) + "\n")
            f.flush()
            print(f"{i}/{len(todo)} games, {time.monotonic() - started:.0f} s: {r['config']} #{r['g']} "
                  f"won by {r['winners']} in {r['seconds']} s", file=sys.stderr, flush=True)


def positions(game_id: str, count: int, every: int = 5) -> list[tuple[dict, int, int]]:
    """``count`` positions of ``game_id`` as ``(state, seat to move, version)``: every ``every``-th
    decision with more than one legal command, in seeded games of its best bot at the smallest table."""
    game = registry.get(game_id)
    _, bots, options = _table(f"{game_id}:duel", 0)
    seats = [Seat(i, f"{BEST[game_id]}-{i}", BEST[game_id]) for i in range(len(bots))]
    out: list[tuple[dict, int, int]] = []
    seen = 0

    def keep(g) -> None:
        nonlocal seen
        turn = game.turn(g.state)
        if turn.terminal or turn.actor is not None or len(out) >= count:
            return
        seat = min(turn.seats)
        if len(game.legal_commands(g.state, seat)) > 1:
            seen += 1
            if seen % every == 0:
                out.append((game.load_state(game.dump_state(g.state)), seat, g.version))

    for g in range(100):  # bounded: a game holds dozens of decisions
        played = play(game, seats, options, f"search-cpu:{game_id}:{g}".encode(), max_steps=0)
        while len(out) < count and not played.terminal:  # no further than the last position kept
            step(played, max_steps=1)
            keep(played)
        if len(out) >= count:
            break
    return out


def cpu(count: int, games: list[str], levels: tuple[str, ...] = search.LEVELS, memory: bool = False) -> dict:
    """CPU seconds per move (mean, p95, max) of each search level on the same ``count`` positions per
    game, and the SHA-256 of the commands chosen there (``choices``: a change meant to keep the moves
    shows the same digest before and after); with ``memory``, also the most memory one move took
    (``peak_mib``)."""
    out: dict = {"commit": code_commit(), "positions": count, "cpu_s_per_move": {}}
    for game_id in games:
        game = registry.get(game_id)
        spots = positions(game_id, count)
        per = out["cpu_s_per_move"][game_id] = {}
        for level in levels:
            bot = search.bot_name(level)
            ts, chosen = [], []
            for i, (state, seat, version) in enumerate(spots):
                t0 = time.process_time()
                chosen.append(bot_choice(game, state, seat, game.bots[bot], f"search-cpu:{i}".encode(), version))
                ts.append(time.process_time() - t0)
            per[bot] = {**cpu_stats(ts), "choices": hashlib.sha256(canonical_json(chosen).encode()).hexdigest()}
            if memory:
                per[bot]["peak_mib"] = peak_mib(game, spots, game.bots[bot])
            print(f"{game_id} {bot}: {per[bot]}", file=sys.stderr, flush=True)
    return out


def peak_mib(game, spots: list[tuple[dict, int, int]], policy) -> float:
    """The most memory one move takes on ``spots``: the peak of what Python allocated during the
    move (``tracemalloc``), in MiB. A second pass, apart from the timed one: tracing slows a move."""
    top = 0
    for i, (state, seat, version) in enumerate(spots):
        tracemalloc.start()
        try:
            bot_choice(game, state, seat, policy, f"search-cpu:{i}".encode(), version)
            top = max(top, tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    return round(top / 2**20, 1)


# -- the report -------------------------------------------------------------------

def wilson(wins: float, n: int, z: float = 1.96) -> list[float]:
    if not n:
        return [0.0, 0.0]
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(centre - half, 3), round(centre + half, 3)]


def share(results: list[dict], who) -> dict:
    """The share of ``results`` won by the participant ``who(r)`` (a shared win counts 1/k)."""
    wins = sum(1 / len(r["winners"]) for r in results if r["winners"] and who(r) in r["winners"])
    return {"games": len(results), "wins": round(wins, 2), "share": round(wins / len(results), 3) if results else None,
            "ci95": wilson(wins, len(results))}


def _searcher(r: dict) -> str:
    """The participant id of the configuration's subject: the stronger-named search seat."""
    for level in ("search-hard", "search-normal", "search-easy"):
        if level in r["bots"]:
            return f"seat:{r['bots'].index(level)}"
    return "seat:0"


def paired(rs: list[dict]) -> dict | None:
    """The subject against its twin game (the same seed, the other seats' bot in its seat): the share of
    games where the subject's seat ended with more points than in the twin (equal: half), and
    the mean difference of that seat's points with a 95 % normal interval."""
    rs = [r for r in rs if "twin_totals" in r]
    if not rs:
        return None
    diffs = [r["totals"][_searcher(r)] - r["twin_totals"][_searcher(r)] for r in rs]
    better = sum(1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in diffs)
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return {"games": len(rs), "wins": round(better, 2), "share": round(better / len(rs), 3),
            "ci95": wilson(better, len(rs)), "mean_diff": round(mean, 2),
            "mean_diff_ci95": [round(mean - half, 2), round(mean + half, 2)]}


def balance(rs: list[dict]) -> dict:
    n = len(rs[0]["bots"])
    out = {"by_seat": {str(s): share(rs, lambda r, s=s: f"seat:{s}") for s in range(n)}, "fair_share": round(1 / n, 3),
           "first_player": share([r for r in rs if r["first"] is not None], lambda r: f"seat:{r['first']}")}
    if rs[0]["game"] == "indagar":
        out["by_faction"] = {f: share([r for r in rs if f in r["options"]["factions"]],
                                      lambda r, f=f: f"seat:{r['options']['factions'].index(f)}") for f in FACTIONS}
    return out


def report(paths: list[str], commits: list[str] | None = None, configs: list[str] | None = None) -> dict:
    """The figures of the games played by the bot code at ``commits`` (default: the last game's
    commit), of ``configs`` (default: all). Pool commits only where their bots choose alike."""
    results = []
    for path in paths:
        with open(path) as f:
            results += [json.loads(line) for line in f]
    commits = commits or ([results[-1].get("commit")] if results else [])
    results = [r for r in results if r.get("commit") in commits and (not configs or r["config"] in configs)]
    out: dict = {"commits": commits, "games": len(results), "configs": {}, "cpu_s_per_move": {}}
    for config in CONFIGS:
        rs = [r for r in results if r["config"] == config]
        if not rs:
            continue
        entry = {"subject": share(rs, _searcher),
                 "players_win": share(rs, lambda r: r["winners"][0] if r["winners"] else None),
                 "outcomes": {k: sum(1 for r in rs if r["outcome"] == k) for k in sorted({r["outcome"] for r in rs})},
                 "unfinished": sum(1 for r in rs if not r["terminal"]),
                 "decisions_mean": round(statistics.mean(r["decisions"] for r in rs), 1),
                 "balance": balance(rs)}
        if (pair := paired(rs)) is not None:
            entry["paired"] = pair
        out["configs"][config] = entry
    for game in BEST:
        per: dict[str, list[float]] = {}
        for r in results:
            if r["game"] == game:
                for bot, ts in r["times"].items():
                    per.setdefault(bot, []).extend(ts)
        if not per:
            continue
        out["cpu_s_per_move"][game] = {bot: cpu_stats(ts) for bot, ts in sorted(per.items())}
    return out


def cpu_stats(ts: list[float]) -> dict:
    """Moves timed, and their mean, p95 and max CPU seconds."""
    return {"moves": len(ts), "mean": round(statistics.mean(ts), 3),
            "p95": round(sorted(ts)[int(0.95 * (len(ts) - 1))], 3), "max": round(max(ts), 3)}


def _pct(x: dict) -> str:
    lo, hi = x["ci95"]
    return f"{x['wins']:g} of {x['games']} = {100 * (x['share'] or 0):.0f} % [{100 * lo:.0f}, {100 * hi:.0f}]"


def markdown(rep: dict) -> str:
    """The report as the tables of ``search.md``: strength, CPU per move, balance."""
    out = ["| configuration | games | the subject won (95 % Wilson interval) | a player won | unfinished |",
           "|---|---|---|---|---|"]
    for config, e in rep["configs"].items():
        out.append(f"| `{config}` | {e['subject']['games']} | {_pct(e['subject'])} | {_pct(e['players_win'])} "
                   f"| {e['unfinished']} |")
    pairs = {c: e["paired"] for c, e in rep["configs"].items() if "paired" in e}
    if pairs:
        out += ["", "| configuration | paired games | the subject's seat scored more than the other seats' bot "
                "in the twin game | mean difference of points (95 %) |", "|---|---|---|---|"]
        for config, x in pairs.items():
            lo, hi = x["mean_diff_ci95"]
            out.append(f"| `{config}` | {x['games']} | {_pct(x)} | {x['mean_diff']:+g} [{lo:+g}, {hi:+g}] |")
    out += ["", *cpu_markdown(rep, "moves").splitlines()]
    out += ["", "| configuration | wins by seat position (fair share) | round-1 first player won | by faction |",
            "|---|---|---|---|"]
    for config, e in rep["configs"].items():
        b = e["balance"]
        seats = " / ".join(f"{x['wins']:g} of {x['games']}" for x in b["by_seat"].values())
        first = b["first_player"]
        factions = ", ".join(f"{f} {x['wins']:g} of {x['games']}" for f, x in b.get("by_faction", {}).items()) or "-"
        fair = f"{100 * b['fair_share']:.0f} %" if len(b["by_seat"]) > 1 else "solo"
        out.append(f"| `{config}` | {seats} ({fair}) | {first['wins']:g} of {first['games']} | {factions} |")
    return "\n".join(out)


def cpu_markdown(rep: dict, counted: str = "positions") -> str:
    """The CPU table of ``search.md``: per game and bot, the ``counted`` moves' mean, p95 and max."""
    out = [f"| game | bot | {counted} | mean s | p95 s | max s |", "|---|---|---|---|---|---|"]
    for game, per in rep["cpu_s_per_move"].items():
        for bot, t in per.items():
            out.append(f"| {game} | `{bot}` | {t['moves']} | {t['mean']} | {t['p95']} | {t['max']} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("out")
    r.add_argument("--rounds", type=int, default=200)
    r.add_argument("--configs", default=",".join(CONFIGS))
    r.add_argument("--jobs", type=int, default=1)
    r.add_argument("--first", type=int, default=0, help="number of the first game (runs in parallel take disjoint ranges)")
    r.add_argument("--twins", help="reuse the twin games this commit played in OUT (only where the twin's bot "
                   "chooses alike at both commits, e.g. a change to search-hard alone)")
    p = sub.add_parser("report")
    p.add_argument("out", nargs="+")
    p.add_argument("--commits", help="commits of the bot code whose games to pool, comma-separated "
                   "(default: the last game's)")
    p.add_argument("--configs", help="configurations to report, comma-separated (default: all)")
    p.add_argument("--markdown", action="store_true", help="the tables of search.md instead of JSON")
    c = sub.add_parser("cpu")
    c.add_argument("--positions", type=int, default=40, help="positions per game (each timed at every level)")
    c.add_argument("--games", default=",".join(SEARCHED), help="games, comma-separated (default: all)")
    c.add_argument("--levels", default=",".join(search.LEVELS), help="levels, comma-separated (default: all)")
    c.add_argument("--markdown", action="store_true", help="the table of search.md instead of JSON")
    c.add_argument("--memory", action="store_true", help="also each level's largest memory for one move (a second, traced pass)")
    args = ap.parse_args()
    if args.cmd == "run":
        run(args.out, args.rounds, args.configs.split(","), args.jobs, args.first, args.twins)
    elif args.cmd == "cpu":
        rep = cpu(args.positions, args.games.split(","), tuple(args.levels.split(",")), args.memory)
        print(cpu_markdown(rep) if args.markdown else json.dumps(rep, indent=2))
    else:
        rep = report(args.out, args.commits and args.commits.split(","), args.configs and args.configs.split(","))
        print(markdown(rep) if args.markdown else json.dumps(rep, indent=2))


if __name__ == "__main__":
    main()
