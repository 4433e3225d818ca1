-- Take one of at most ARGV[2] counted holds in the sorted set KEYS[1] (member: holder, score: when the
-- hold runs out, in ms), after dropping those run out by ARGV[1] (now, ms). ARGV[3]: this hold's end,
-- ARGV[4]: its holder, ARGV[5]: the set's own expiry (ms). Returns {1, end} when taken, else {0, the
-- earliest end held}. One script, so two processes racing for the last hold cannot both get it.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, first[2] or ARGV[1]}
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {1, ARGV[3]}
