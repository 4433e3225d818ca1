-- Compaction (KEYS meta, events, snapshot, archive; ARGV version, archive): only if the game is still at
-- the version the archive was built from, so no event can slip between the read and the delete.
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[4], ARGV[2])
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HSET', KEYS[1], 'compacted', '1')
return 1
