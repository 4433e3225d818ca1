-- Atomic append (DESIGN.md, "Event store"; docs/reliability.md). Prefixed by sha256.lua.
-- KEYS: meta, events stream, partition feed, idempotency record (or the meta key again when none)
-- ARGV: expected_version (-1 = create: the game must not exist), expected_head (GENESIS on create),
--       game_id, types (comma separated), idem_record ('' = none), idem_ttl_s,
--       n_meta, meta k/v pairs..., n_stamp, meta fields set to this append's time...,
--       then per event: the canonical JSON of its fields between "at" and "prev_hash", and after "prev_hash".
-- Returns {1, version, at, head} appended | {0, current} stale version | {-1} no such game
--       | {2, current, record} the idempotency key was already used (the record says by which batch)
--       | {3, current} the version matches but the head does not: the caller decided on a lost branch.
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

-- The event time: Redis's clock, one for every process, never before the previous event's.
local t = redis.call('TIME')
local ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local secs, days = math.floor(ms / 1000), math.floor(ms / 86400000)
local z = days + 719468
local era = math.floor(z / 146097)
local doe = z - era * 146097
local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
local mp = math.floor((5 * doy + 2) / 153)
local day, month, year = doy - math.floor((153 * mp + 2) / 5) + 1, (mp < 10) and (mp + 3) or (mp - 9), yoe + era * 400
if month <= 2 then year = year + 1 end
local sod = secs % 86400
local at = string.format('%04d-%02d-%02dT%02d:%02d:%02d.%03dZ', year, month, day,
  math.floor(sod / 3600), math.floor(sod / 60) % 60, sod % 60, ms % 1000)
local last = redis.call('HGET', meta_key, 'at')
if last and last > at then at = last end

local n_meta = tonumber(ARGV[7])
local stamp_at = 8 + 2 * n_meta
local n_stamp = tonumber(ARGV[stamp_at])
local first = stamp_at + 1 + n_stamp
local seq, prev = current, head
for i = first, #ARGV, 2 do
  seq = seq + 1
  local before, after = ARGV[i], ARGV[i + 1]
  local hash = sha256hex(prev .. '{"at":"' .. at .. '",' .. before .. ',"prev_hash":"' .. prev .. '",' .. after .. '}')
  redis.call('XADD', events_key, seq .. '-0', 'e',
    '{"at":"' .. at .. '",' .. before .. ',"hash":"' .. hash .. '","prev_hash":"' .. prev .. '",' .. after .. '}')
  prev = hash
end
redis.call('HSET', meta_key, 'version', seq, 'head', prev, 'at', at)
for i = 8, stamp_at - 1, 2 do
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
return {1, seq, at, prev}
