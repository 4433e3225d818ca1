"""What follows an event: the reactor reads the partition feeds and enqueues rq
jobs (the kinds of the job table, workers/table.py) with deterministic ids;
workers run them through the same application service as HTTP commands;
followers handle each feed entry exactly once (the lobby projection); jobs due
at a time (clock deadlines) are timers that every worker and reactor polls
(workers/timers.py).

Environment (besides application/runtime.py's REDIS_URL, RQ_REDIS_URL, DELVE_PREFIX...):

DELVE_QUEUE                  rq queue name (default "delve")
DELVE_REACTOR_GROUP          feed consumer group (default "reactors")
DELVE_REACTOR_MIN_IDLE_MS    a dead reactor's entries are taken over after this (default 5000; a starting
                             reactor takes over what is pending for a second at once)
DELVE_REACTOR_SWEEP_SECONDS  how often active games that did not move are re-checked (default 30)
DELVE_JOB_STALE_SECONDS      a job without a heartbeat this long is presumed dead (default 4)

Needs Redis >= 6.2 (XAUTOCLAIM).
"""
