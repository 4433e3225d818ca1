"""Private redis-server processes (one server, or a small Cluster) for the embedded mode,
the tests and the benchmarks: nothing here is used when the operator gives a REDIS_URL."""
