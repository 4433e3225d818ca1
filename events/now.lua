-- Redis's clock and a game's last event time (KEYS meta): {at or false, TIME}. A script, not a
-- pipeline, so a Cluster runs it on the game's own node (TIME names no key to route by).
return {redis.call('HGET', KEYS[1], 'at'), redis.call('TIME')}
