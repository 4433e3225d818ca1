-- The read of a cached game (KEYS meta, events, archive; ARGV the cached version's entry id):
-- {} for no game; {meta, 1, {}, time} for a compacted one; {meta, 0, entries from that id on, time}.
-- `time` is Redis's TIME: the clock the next append of this game takes its `at` from (events/clock.py).
local meta = redis.call('HGETALL', KEYS[1])
if #meta == 0 then return {} end
if redis.call('EXISTS', KEYS[3]) == 1 then return {meta, 1, {}, redis.call('TIME')} end
return {meta, 0, redis.call('XRANGE', KEYS[2], ARGV[1], '+'), redis.call('TIME')}
