"""The composition root: the `delve` command and the processes it starts.

The one package allowed to import every other (server, workers, benchmarks,
events, domain); nothing imports it back.
"""
