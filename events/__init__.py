"""The event store: envelopes and their hash chain, the Redis Streams store, archives,
checkpoints and replication. It persists; the application (``application``) decides."""
