"""A real Redis Cluster (3 masters, 3 replicas) for the module that asks for one, and
a plain Redis for rq's queue beside it (rq cannot use a Cluster)."""
from __future__ import annotations

import pytest

from localredis.server import EmbeddedRedis
from localredis.cluster import LocalCluster


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(masters=3, replicas=1) as c:
        yield c


@pytest.fixture(scope="module")
def queue_url():
    with EmbeddedRedis() as url:
        yield url
