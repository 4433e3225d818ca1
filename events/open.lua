-- The read of a cached game (KEYS meta, events, archive; ARGV the cached version's entry id):
-- {} for no game; {meta, 1} for a compacted one; {meta, 0, entries from that id on}.
local meta = redis.call('HGETALL', KEYS[1])
if #meta == 0 then return {} end
if redis.call('EXISTS', KEYS[3]) == 1 then return {meta, 1} end
return {meta, 0, redis.call('XRANGE', KEYS[2], ARGV[1], '+')}
