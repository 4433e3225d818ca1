"""Event envelopes, the hash chain, the Redis Streams store and the application service."""
