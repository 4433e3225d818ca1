"""The application: games as a service (commands, queries, audit), players, ratings, clocks,
seating, the lobby, feeds and tournaments, on top of the event store in ``events``."""
