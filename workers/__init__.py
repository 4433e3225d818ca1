"""What follows an event: the reactor reads the partition feeds and enqueues rq
jobs (bot turns, final scoring) with deterministic ids; workers run them
through the same application service as HTTP commands."""
