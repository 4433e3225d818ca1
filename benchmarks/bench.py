"""`delve bench`: every figure of issue 13, each beside its target, measured in one run.

- ``http``: a bare Flask JSON hello (``benchmarks.bare``) and Delve, each served by the
  same gunicorn command line `delve serve` uses, loaded by the same generator
  (``benchmarks.load``: wrk if installed, else a multi-process client) with the same
  connections: ``/healthz``, ``GET /v1/games/{id}`` for a seat, ``legal-actions``, the
  action cycle (legal-actions + POST, each connection playing its own game) against
  two bare requests, and ``GET /states/{v}`` of every held version of a ~400-event
  finished game (one connection: what one client sees). The bare app runs before and
  after Delve; ratios use the mean of the two.
- ``round_trips``: Redis round trips per request, counted by a connection wrapper
  around an in-process app (``CountingConnection``), for a game this process has cached.
- ``verify``: events/s of ``application.replay.verify`` over the exports of the sample games.
- ``storage``: Redis bytes of each sample game (``MEMORY USAGE`` of its keys) when it has
  just finished and after compaction, the export checked byte-identical; the Redis
  memory of 10,000 finished games is that average times 10,000 (an extrapolation from
  the sample, not a measurement of 10,000 games).
- ``append``: direct ``RedisEventStore.append`` latency (the floor under every command).
- ``streams``: ``--streams`` idle SSE/NDJSON streams of one game on one API process
  (``benchmarks.streams``): memory per stream, the process's Redis connections, ``/healthz``
  and a game read beside them, and one move's fan-out to all of them.
- ``platform_cpu``: CPU per move of bot games through the API, the reactor and rq workers
  against the same games played by the kit's driver in process (``benchmarks.platform_cpu``).
- ``redis_cpu``: Redis's own CPU per accepted command while the sample games were played
  (the ``usec`` of every command in ``INFO commandstats``, before and after, over the
  commands the games' logs record): Redis runs commands on one thread, so this is what
  caps the actions per second of a shard. Exact on the embedded Redis; on a shared
  ``REDIS_URL`` other clients' commands count too.

Everything runs against the Redis the caller gives (under a throwaway key prefix, deleted
afterwards). Progress goes to stderr. How to start an API, build an in-process app and
play a bot game is passed in by the `delve` command, the composition root: benchmarks sit
beside server and workers, not above them.
"""
from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import time
import uuid
from datetime import datetime, timezone
from typing import Any, Callable

import redis

from benchmarks import load, platform_cpu
from benchmarks import streams as streams_bench
from benchmarks.served import BARE_APP, DELVE_APP, ApiStarter, Served, create_game
from domain.core import Game
from application.replay import batches, verify
from application.service import GameService
from application.status import GameStatus
from events.store import RedisEventStore
import settings

BotGame = Callable[[GameService, Game, int], str]
"""``(service, game, seats) -> id`` of one bot game played to its end (not compacted)."""
PlatformStarter = Callable[[str, dict[str, str], int], dict[str, subprocess.Popen]]
"""``(bind, env overrides, workers) -> {name: process}``: the API, the reactor and rq workers."""
AppFactory = Callable[[GameService], Any]
"""``service -> a Flask app`` serving it in this process (for counting round trips)."""

TARGETS = {"reads_vs_bare": 0.50, "cycle_vs_two_bare": 0.35, "p99_over_p50": 4.0, "read_round_trips": 1,
           "action_round_trips": 2, "verify_events_per_s": 100_000, "states_p99_ms": 5.0, "bytes_per_game": 30_000,
           "redis_cpu_ms_per_action": 0.3, "streams": streams_bench.TARGETS["streams"],
           "fanout_p99_ms": streams_bench.TARGETS["fanout_p99_ms"], "stream_reads": 1,
           "platform_cpu_ratio": platform_cpu.TARGET_RATIO}


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def percentiles(samples_s: list[float]) -> dict:
    ms = sorted(x * 1000 for x in samples_s)
    if not ms:
        return {"n": 0}
    pick = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]  # noqa: E731 - nearest-rank
    return {"n": len(ms), "p50": round(pick(0.50), 3), "p99": round(pick(0.99), 3),
            "mean": round(statistics.fmean(ms), 3), "max": round(ms[-1], 3)}


# -- direct appends ------------------------------------------------------------------------


def bench_append(store: RedisEventStore, n: int) -> dict:
    gid = f"bench{uuid.uuid4().hex[:12]}"
    meta = {"game": "bench", "status": GameStatus.ACTIVE, "seats": "[]", "rules_version": "bench"}
    head = store.create(gid, meta, [{"type": "BenchStarted", "data": {}}], command_id="create",
                        rules_version="bench")[-1]["hash"]
    samples, version = [], 1
    log(f"append: {n} single-event appends")
    for i in range(n):
        t = time.perf_counter()
        head = store.append(gid, version, [{"type": "Ticked", "data": {"n": i}}], expected_head=head, seat=0,
                            command_id=f"c{i}", command={"type": "tick"}, rules_version="bench")[-1]["hash"]
        samples.append(time.perf_counter() - t)
        version += 1
    return {"appends": n, "appends_per_s": round(n / sum(samples), 1), "latency_ms": percentiles(samples)}


# -- sample games: verification and storage --------------------------------------------------


def play_sample(service: GameService, game: Game, seats: int, n: int, play: BotGame,
                min_events: int = 400, extra: int = 10) -> list[str]:
    """``n`` finished bot games, and up to ``extra`` more until one has ``min_events`` events."""
    log(f"sample: playing {n} {game.id} bot games at {seats} seats")
    ids = [play(service, game, seats) for _ in range(n)]
    for _ in range(extra):
        if max(int(service.store.meta(g)["version"]) for g in ids) >= min_events:
            break
        ids.append(play(service, game, seats))
    return ids


def redis_usec(r: redis.Redis) -> dict[str, int]:
    """``INFO commandstats``: microseconds of Redis CPU spent so far, per command."""
    return {name.removeprefix("cmdstat_"): int(stat["usec"]) for name, stat in r.info("commandstats").items()}


def bench_redis_cpu(service: GameService, ids: list[str], before: dict[str, int], after: dict[str, int]) -> dict:
    """Redis CPU per accepted command (a seat's, an actor's or a platform command) of the sample games."""
    actions = sum(1 for g in ids for env in service.store.read(g) if env.get("command") is not None)
    spent = {cmd: usec - before.get(cmd, 0) for cmd, usec in after.items() if usec > before.get(cmd, 0)}
    ms = sum(spent.values()) / 1000 / actions if actions else 0.0
    top = sorted(spent.items(), key=lambda kv: -kv[1])[:6]
    return {"games": len(ids), "actions": actions, "redis_cpu_ms_per_action": round(ms, 4),
            "by_command_ms_per_action": {cmd: round(usec / 1000 / actions, 4) for cmd, usec in top},
            "target_ms": TARGETS["redis_cpu_ms_per_action"], "target_met": ms <= TARGETS["redis_cpu_ms_per_action"]}


def bench_verify(service: GameService, ids: list[str]) -> dict:
    """Wall-clock and CPU rates: on a shared machine the CPU rate is the one that compares across runs."""
    exports = [list(service.store.export(g)) for g in ids]
    events, ok, started, cpu = sum(len(e) for e in exports), True, time.perf_counter(), time.process_time()
    for lines in exports:
        ok = verify(lines).ok and ok
    secs, cpu_secs = time.perf_counter() - started, time.process_time() - cpu
    rate = round(events / secs)
    return {"games": len(ids), "events": events, "seconds": round(secs, 3), "verify_events_per_s": rate,
            "verify_events_per_cpu_s": round(events / cpu_secs) if cpu_secs else None,
            "all_ok": ok, "target_events_per_s": TARGETS["verify_events_per_s"],
            "target_met": rate >= TARGETS["verify_events_per_s"]}


def bench_storage(service: GameService, ids: list[str]) -> dict:
    log(f"storage: {len(ids)} finished games, before and after compaction")
    before = [service.store.compaction.footprint(g) for g in ids]
    exports = {g: "".join(service.store.export(g)) for g in ids}
    for g in ids:
        service.compact(g)
    after = [service.store.compaction.footprint(g) for g in ids]
    identical = all("".join(service.store.export(g)) == exports[g] for g in ids)
    events = [int(service.store.meta(g)["version"]) for g in ids]
    mean = lambda xs: round(statistics.fmean(xs))  # noqa: E731
    b, a = mean([sum(f.values()) for f in before]), mean([sum(f.values()) for f in after])
    return {"games": len(ids), "events_per_game": mean(events),
            "bytes_per_game_before": b, "bytes_per_game_after": a,
            "keys_before": _by_key(before), "keys_after": _by_key(after),
            "export_byte_identical_after": identical,
            "redis_bytes_10000_games_before": b * 10_000, "redis_bytes_10000_games_after": a * 10_000,
            "extrapolated": f"10,000 x the mean of {len(ids)} measured games (MEMORY USAGE of each game's keys)",
            "target_bytes_per_game": TARGETS["bytes_per_game"], "target_met": a <= TARGETS["bytes_per_game"]}


def _by_key(footprints: list[dict[str, int]]) -> dict[str, int]:
    kinds = sorted({k for f in footprints for k in f})
    return {k: round(statistics.fmean(f.get(k, 0) for f in footprints)) for k in kinds}


# -- round trips -----------------------------------------------------------------------------


class CountingConnection(redis.Connection):
    """A Redis connection that counts what it sends: one send is one round trip (a pipeline
    or a script call sends all its commands at once)."""

    sent = 0

    def send_packed_command(self, command, check_health=True):
        CountingConnection.sent += 1
        return super().send_packed_command(command, check_health)


def bench_round_trips(redis_url: str, prefix: str, game: Game, seats: int, make_app: AppFactory,
                      finished_id: str) -> dict:
    """Round trips of each request on an in-process app, the game already cached by this process."""
    pool = redis.ConnectionPool.from_url(redis_url, connection_class=CountingConnection)
    app = make_app(GameService(RedisEventStore(redis.Redis(connection_pool=pool), prefix=prefix)))
    client = app.test_client()
    created = client.post("/v1/games", json={"game": game.id, "seats": [{"name": f"p{i}"} for i in range(seats)],
                                             "options": {}}).get_json()
    gid, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}

    def count(method: str, path: str, token: str | None = None, body: dict | None = None) -> tuple[int, Any]:
        before = CountingConnection.sent
        resp = client.open(path, method=method, json=body,
                           headers={"Authorization": f"Bearer {token}"} if token else {})
        return CountingConnection.sent - before, resp

    # (The first read also loads the read script into Redis: once per process, not counted.)
    summary = client.get(f"/v1/games/{gid}", headers={"Authorization": f"Bearer {tokens[0]}"}).get_json()
    seat = summary["active_seats"][0]
    out = {"healthz": count("GET", "/healthz")[0],
           "game_seat": count("GET", f"/v1/games/{gid}", tokens[seat])[0]}
    out["legal_actions"], resp = count("GET", f"/v1/games/{gid}/legal-actions", tokens[seat])
    legal = resp.get_json()
    out["action_post"], resp = count("POST", f"/v1/games/{gid}/actions", tokens[seat],
                                     {"expected_version": legal["version"], "command": legal["commands"][0]})
    if resp.status_code != 201:
        raise RuntimeError(f"round trips: the action answered {resp.status_code}: {resp.get_data(as_text=True)}")
    out["game_seat_after_own_action"] = count("GET", f"/v1/games/{gid}", tokens[seat])[0]
    version = int(client.get(f"/v1/games/{finished_id}").get_json()["version"]) // 2
    out["states_finished_game"] = count("GET", f"/v1/games/{finished_id}/states/{version}")[0]
    out["events_page"] = count("GET", f"/v1/games/{gid}/events?after=0&limit=50", tokens[seat])[0]
    pool.disconnect()
    reads = max(out["game_seat"], out["legal_actions"])
    return {"per_request": out, "target_read": TARGETS["read_round_trips"],
            "target_action": TARGETS["action_round_trips"],
            "target_met": reads <= TARGETS["read_round_trips"] and out["action_post"] <= TARGETS["action_round_trips"]}


# -- HTTP ------------------------------------------------------------------------------------


def _held_versions(service: GameService, game_id: str) -> list[int]:
    """The versions a replay may ask for: each batch's last event, from the deal on."""
    envs = list(service.store.reads.iter_all(game_id))
    return [b[-1]["seq"] for b in batches(envs)[1:]]


def _ratio(x: float, of: float) -> float:
    return round(x / of, 3) if of else 0.0


def bench_http(redis_url: str, prefix: str, game: Game, seats: int, api: ApiStarter, service: GameService,
               finished_id: str, seconds: float, connections: int, processes: int) -> dict:
    env = {"REDIS_URL": redis_url, "DELVE_PREFIX": prefix, **settings.UNLIMITED, "DELVE_ADMIN_TOKEN": ""}
    run = dict(seconds=seconds, connections=connections)
    log(f"http: {load.generator()}, {connections} connections, {seconds:.0f} s per run, "
        f"gunicorn {processes} processes as `delve serve` runs it")
    with Served(api, BARE_APP, env, "/hello", processes) as port:
        log("http: bare Flask /hello")
        bare_before = load.run_paths(port, ["/hello"], None, **run)
    results: dict[str, dict] = {}
    with Served(api, DELVE_APP, env, "/healthz", processes) as port:
        gid, tokens = create_game(port, game, seats)
        for name, paths, token in (("healthz", ["/healthz"], None),
                                   ("game_seat", [f"/v1/games/{gid}"], tokens["seat0"]),
                                   ("legal_actions", [f"/v1/games/{gid}/legal-actions"], tokens["active"])):
            log(f"http: {name}")
            results[name] = load.run_paths(port, paths, token, **run)
        log("http: action cycle (legal-actions + POST), one game per connection")
        results["action_cycle"] = load.run_cycle(port, game.id, seats, **run)
        held = [v for v in _held_versions(service, finished_id) if v <= 400]
        log(f"http: GET /states/{{v}} of {len(held)} held versions of a {max(held)}-event game, one connection")
        results["states_one_client"] = load.run_paths(port, [f"/v1/games/{finished_id}/states/{v}" for v in held],
                                                      None, seconds=seconds, connections=1, threads=1)
    with Served(api, BARE_APP, env, "/hello", processes) as port:
        log("http: bare Flask /hello again")
        bare_after = load.run_paths(port, ["/hello"], None, **run)
    bare = statistics.fmean([bare_before["requests_per_s"], bare_after["requests_per_s"]])
    cycle = results["action_cycle"]
    cycles_per_s = round(cycle["counters"]["posts"] / cycle["seconds"], 1)
    for r in [bare_before, bare_after, *results.values()]:
        r["p99_over_p50"] = _ratio(r["p99_ms"], r["p50_ms"])
    ratios = {"healthz_vs_bare": _ratio(results["healthz"]["requests_per_s"], bare),
              "game_seat_vs_bare": _ratio(results["game_seat"]["requests_per_s"], bare),
              "legal_actions_vs_bare": _ratio(results["legal_actions"]["requests_per_s"], bare),
              "cycle_vs_two_bare": _ratio(cycles_per_s, bare / 2)}
    worst_tail = max(r["p99_over_p50"] for r in [*results.values()] if r is not results["states_one_client"])
    return {
        "generator": load.generator(), "connections": connections, "server_processes": processes,
        "bare_requests_per_s": round(bare, 1), "bare_before": bare_before, "bare_after": bare_after,
        **results, "action_cycles_per_s": cycles_per_s, "ratios": ratios,
        "targets": {
            "reads_vs_bare": TARGETS["reads_vs_bare"],
            "reads_met": min(ratios["game_seat_vs_bare"], ratios["legal_actions_vs_bare"]) >= TARGETS["reads_vs_bare"],
            "cycle_vs_two_bare": TARGETS["cycle_vs_two_bare"],
            "cycle_met": ratios["cycle_vs_two_bare"] >= TARGETS["cycle_vs_two_bare"],
            "p99_over_p50": TARGETS["p99_over_p50"], "worst_p99_over_p50": worst_tail,
            "p99_met": worst_tail <= TARGETS["p99_over_p50"],
            "states_p99_ms": TARGETS["states_p99_ms"],
            "states_met": results["states_one_client"]["p99_ms"] < TARGETS["states_p99_ms"]},
    }


# -- everything ---------------------------------------------------------------------------------


def run(game: Game, *, redis_url: str, embedded: bool, api: ApiStarter, play: BotGame, make_app: AppFactory,
        start_platform: PlatformStarter, bot: str, seconds: float = 5.0, connections: int = 16, games: int = 8,
        seats: int | None = None, appends: int = 1000, processes: int = 2, streams: int = 10_000,
        platform_games: int = 2) -> dict:
    """Every section against ``redis_url`` (``embedded``: a private one), under a throwaway prefix
    (``streams`` or ``platform_games`` 0: skip that section)."""
    seats = seats or game.min_players
    client = redis.Redis.from_url(redis_url)
    store = RedisEventStore(client, prefix=f"bench{uuid.uuid4().hex[:8]}")
    service = GameService(store)
    try:
        usec_before = redis_usec(client)
        sample = play_sample(service, game, seats, games, play)
        usec_after = redis_usec(client)
        longest = max(sample, key=lambda g: int(store.meta(g)["version"]))
        result = {
            "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "machine": {"python": platform.python_version(), "platform": platform.platform(),
                        "cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()],
                        "redis": store.server_version(),
                        "redis_source": "embedded" if embedded else "REDIS_URL"},
            "game": game.id, "seats": seats,
            "round_trips": bench_round_trips(redis_url, store.prefix, game, seats, make_app, longest),
            "verify": bench_verify(service, sample),
            "redis_cpu": bench_redis_cpu(service, sample, usec_before, usec_after),
            "http": bench_http(redis_url, store.prefix, game, seats, api, service, longest, seconds, connections,
                               processes),
            "append": bench_append(store, appends),
            "storage": bench_storage(service, sample),
        }
        if streams:
            result["streams"] = streams_bench.run(api, redis_url, f"{store.prefix}s", game, seats, streams, log=log)
        if platform_games:
            result["platform_cpu"] = platform_cpu.run(start_platform, redis_url, game, seats, bot, platform_games, log=log)
    finally:
        store.purge()
    result["summary"] = summary(result)
    for line in summary_lines(result["summary"]):
        log(line)
    log("done")
    return result


def summary(result: dict) -> list[dict]:
    """Every figure with its target, how it compares (``ratio`` = value / target) and whether it is met."""
    http, rt = result["http"], result["round_trips"]["per_request"]

    def row(figure: str, value: float, target: float, better: str) -> dict:
        met = value >= target if better == "higher" else value <= target
        return {"figure": figure, "value": value, "target": target, "better": better,
                "ratio": _ratio(value, target), "met": met}

    return [
        row("GET /v1/games/{id} vs bare Flask", http["ratios"]["game_seat_vs_bare"], TARGETS["reads_vs_bare"], "higher"),
        row("legal-actions vs bare Flask", http["ratios"]["legal_actions_vs_bare"], TARGETS["reads_vs_bare"], "higher"),
        row("action cycle vs two bare requests", http["ratios"]["cycle_vs_two_bare"], TARGETS["cycle_vs_two_bare"],
            "higher"),
        row("/states/{v} p99 (ms)", http["states_one_client"]["p99_ms"], TARGETS["states_p99_ms"], "lower"),
        row("Redis CPU per action (ms)", result["redis_cpu"]["redis_cpu_ms_per_action"],
            TARGETS["redis_cpu_ms_per_action"], "lower"),
        row("verify events per CPU-second", result["verify"]["verify_events_per_cpu_s"] or 0,
            TARGETS["verify_events_per_s"], "higher"),
        row("round trips per cached read", max(rt["game_seat"], rt["legal_actions"]), TARGETS["read_round_trips"],
            "lower"),
        row("round trips per action", rt["action_post"], TARGETS["action_round_trips"], "lower"),
        row("Redis bytes per finished game", result["storage"]["bytes_per_game_after"], TARGETS["bytes_per_game"],
            "lower"),
    ] + _stream_rows(result.get("streams"), row) + _platform_rows(result.get("platform_cpu"), row)


def _stream_rows(streams: dict | None, row: Callable) -> list[dict]:
    if not streams:
        return []
    return [row("idle streams open on one API process", streams["open"], TARGETS["streams"], "higher"),
            row("Redis reads blocked for all those streams", streams["redis"]["redis_blocked_xread_idle"],
                TARGETS["stream_reads"], "lower"),
            row("a move's fan-out to every stream, p99 (ms)", streams["fanout"]["latency_ms"].get("p99", 0.0),
                TARGETS["fanout_p99_ms"], "lower")]


def _platform_rows(cpu: dict | None, row: Callable) -> list[dict]:
    if not cpu:
        return []
    return [row("bot game CPU per move, platform vs kit's driver", cpu["ratio"] or 0.0, TARGETS["platform_cpu_ratio"],
                "lower")]


def summary_lines(rows: list[dict]) -> list[str]:
    """The summary as a table for a person (stderr); the JSON holds the same rows."""
    width = max(len(r["figure"]) for r in rows)
    return [f"{'figure':<{width}}  {'value':>10}  {'target':>10}  {'ratio':>6}  met"] + [
        f"{r['figure']:<{width}}  {r['value']:>10}  {('>= ' if r['better'] == 'higher' else '<= ') + str(r['target']):>10}"
        f"  {r['ratio']:>6}  {'yes' if r['met'] else 'NO'}" for r in rows]
