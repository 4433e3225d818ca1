"""What follows an event: the reactor reads the partition feeds and enqueues rq
jobs (the kinds of the job table, workers/table.py) with deterministic ids;
workers run them through the same application service as HTTP commands;
followers handle each feed entry exactly once (the lobby projection); jobs due
at a time (clock deadlines) are timers that every worker and reactor polls
(workers/timers.py).

Their settings (DELVE_QUEUE, DELVE_REACTOR_*, DELVE_JOB_STALE_SECONDS) are in ``settings``.

Needs Redis >= 6.2 (XAUTOCLAIM).
"""
