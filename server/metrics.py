"""Prometheus metrics: request counts and latency by route, commands by outcome, store rollbacks."""
from __future__ import annotations

import time
import weakref

from flask import Flask, Response, g, request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily

from events import replication
from events.store import RedisEventStore

REGISTRY = CollectorRegistry()
REQUESTS = Counter("delve_http_requests_total", "HTTP requests", ["method", "route", "status"], registry=REGISTRY)
LATENCY = Histogram("delve_http_request_seconds", "HTTP request latency", ["method", "route"], registry=REGISTRY)
COMMANDS = Counter("delve_commands_total", "Commands by game and outcome", ["game", "outcome"], registry=REGISTRY)
GAMES_CREATED = Counter("delve_games_created_total", "Games created", ["game"], registry=REGISTRY)


class StoreCounts:
    """Counts the event stores of this process keep themselves (``events`` does not know Prometheus)."""

    def __init__(self):
        self.stores: weakref.WeakSet[RedisEventStore] = weakref.WeakSet()

    def collect(self):
        yield CounterMetricFamily(
            "delve_store_rollbacks", "Cached or snapshot states Redis no longer held (it lost acknowledged writes: "
            "an older AOF, a failover); each was dropped and the game served from Redis",
            value=sum(store.rollbacks for store in self.stores))
        yield CounterMetricFamily(
            "delve_replication_degraded", "Appends acknowledged with fewer replicas than DELVE_WAIT_REPLICAS, on a "
            "master that had fewer (DELVE_WAIT_REPLICAS_MIN)", value=replication.COUNTS["degraded"])
        yield CounterMetricFamily(
            "delve_replication_unconfirmed", "Appends stored but answered 503 replication_unconfirmed",
            value=replication.COUNTS["unconfirmed"])


STORES = StoreCounts()
REGISTRY.register(STORES)


def install(app: Flask, store: RedisEventStore) -> None:
    STORES.stores.add(store)

    @app.before_request
    def _start():
        g._t0 = time.perf_counter()

    @app.after_request
    def _count(resp):
        req = request._get_current_object()  # one context lookup, not one per attribute
        key = (req.method, req.url_rule.rule if req.url_rule else "unmatched", resp.status_code)
        counted = _SERIES.get(key) or _series(key)
        counted[0].inc()
        t0 = g.get("_t0")
        if t0 is not None:
            counted[1].observe(time.perf_counter() - t0)
        return resp


# (method, route rule, status) -> its request counter and latency histogram. prometheus_client's
# ``labels`` takes a lock and builds a key on every call (a tenth of the hook's cost in a profiled
# game read); the series are few (routes are rules, not URLs), so each is looked up once.
_SERIES: dict[tuple[str, str, int], tuple] = {}


def _series(key: tuple[str, str, int]) -> tuple:
    method, route, status = key
    counted = _SERIES[key] = (REQUESTS.labels(method, route, str(status)), LATENCY.labels(method, route))
    return counted


def exposition() -> Response:
    return Response(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)  # it names its charset already
