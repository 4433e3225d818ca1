-- Delete KEYS[1] only if it still holds ARGV[1]: a lease (an idempotency key's pending marker)
-- is given up by its holder, never by a request that came after it expired and was taken again.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
