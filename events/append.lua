-- Atomic append with expected version (DESIGN.md, "Event store").
-- KEYS: meta, events stream, partition feed
-- ARGV: expected_version (-1 = the game must not exist yet), new_head, game_id,
--       types (comma separated), n_meta, meta k/v pairs..., envelopes (JSON)...
local current = redis.call('HGET', KEYS[1], 'version')
local expected = tonumber(ARGV[1])
if expected < 0 then
  if current then return {0, tonumber(current)} end
  current = 0
else
  if not current then return {-1, -1} end
  current = tonumber(current)
  if current ~= expected then return {0, current} end
end
local n_meta = tonumber(ARGV[5])
local first = 6 + 2 * n_meta
local seq = current
for i = first, #ARGV do
  seq = seq + 1
  redis.call('XADD', KEYS[2], seq .. '-0', 'e', ARGV[i])
end
redis.call('HSET', KEYS[1], 'version', seq, 'head', ARGV[2])
for i = 6, first - 1, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('XADD', KEYS[3], 'MAXLEN', '~', 100000, '*',
  'game_id', ARGV[3], 'from_seq', current + 1, 'to_seq', seq, 'types', ARGV[4])
return {1, seq}
