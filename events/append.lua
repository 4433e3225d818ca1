-- Atomic append (docs/reliability.md, "One append script"). The envelopes arrive sealed: their
-- hashes were computed in Python (events/envelope.py) over an `at` the caller read from Redis's
-- TIME in the round trip before; this script only checks and stores.
-- KEYS: meta, events stream, partition feed, idempotency record (or the meta key again when none)
-- ARGV: expected_version (-1 = create: the game must not exist), expected_head (GENESIS on create),
--       game_id, types (comma separated), idem_record ('' = none), idem_ttl_s,
--       at (the batch's time, ISO 8601 UTC with milliseconds), at_ms (the same, in Unix ms),
--       new_head (the last envelope's hash), n_meta, meta k/v pairs..., n_stamp,
--       meta fields set to this append's time..., then the sealed envelopes (canonical JSON) in order.
-- Returns {1, version, at, head} appended | {0, current} stale version | {-1} no such game
--       | {2, current, record} the idempotency key was already used (the record says by which batch)
--       | {3, current} the version matches but the head does not: the caller decided on a lost branch
--       | {4, current, last_at} `at` is earlier than the previous event's, or later than Redis's clock now.
local meta_key, events_key, feed_key, idem_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local expected = tonumber(ARGV[1])
local current = redis.call('HGET', meta_key, 'version')
local head
if expected < 0 then
  if current then return {0, tonumber(current)} end
  current, head = 0, ARGV[2]
else
  if not current then return {-1} end
  current = tonumber(current)
  if ARGV[5] ~= '' then
    local done = redis.call('GET', idem_key)
    if done and string.sub(done, 1, 8) ~= 'pending:' then return {2, current, done} end
  end
  if current ~= expected then return {0, current} end
  head = redis.call('HGET', meta_key, 'head')
  if head ~= ARGV[2] then return {3, current} end
end

-- The event time: never before the previous event's, never after Redis's clock now (one clock for
-- every process). Equal to the previous one is allowed: after Redis's clock stepped back, the
-- caller keeps the last time rather than going back with it.
local at, at_ms = ARGV[7], tonumber(ARGV[8])
local last = redis.call('HGET', meta_key, 'at')
local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if (last and at < last) or (at_ms > now_ms and at ~= last) then return {4, current, last or ''} end

local n_meta = tonumber(ARGV[10])
local stamp_at = 11 + 2 * n_meta
local n_stamp = tonumber(ARGV[stamp_at])
local first = stamp_at + 1 + n_stamp
local seq = current
for i = first, #ARGV do
  seq = seq + 1
  redis.call('XADD', events_key, seq .. '-0', 'e', ARGV[i])
end
redis.call('HSET', meta_key, 'version', seq, 'head', ARGV[9], 'at', at)
for i = 11, stamp_at - 1, 2 do
  redis.call('HSET', meta_key, ARGV[i], ARGV[i + 1])
end
for i = stamp_at + 1, first - 1 do
  redis.call('HSET', meta_key, ARGV[i], at)
end
if ARGV[5] ~= '' then
  redis.call('SET', idem_key, ARGV[5], 'EX', tonumber(ARGV[6]))
end
redis.call('XADD', feed_key, 'MAXLEN', '~', 100000, '*',
  'game_id', ARGV[3], 'from_seq', current + 1, 'to_seq', seq, 'types', ARGV[4])
return {1, seq, at, ARGV[9]}
