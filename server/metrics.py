"""Prometheus metrics: request counts and latency by route, commands by outcome, store rollbacks."""
from __future__ import annotations

import time
import weakref

from flask import Flask, Response, g, request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily

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


STORES = StoreCounts()
REGISTRY.register(STORES)


def install(app: Flask, store: RedisEventStore) -> None:
    STORES.stores.add(store)

    @app.before_request
    def _start():
        g._t0 = time.perf_counter()

    @app.after_request
    def _count(resp):
        route = request.url_rule.rule if request.url_rule else "unmatched"
        REQUESTS.labels(request.method, route, str(resp.status_code)).inc()
        if hasattr(g, "_t0"):
            LATENCY.labels(request.method, route).observe(time.perf_counter() - g._t0)
        return resp


def exposition() -> Response:
    return Response(generate_latest(REGISTRY), mimetype=CONTENT_TYPE_LATEST)
