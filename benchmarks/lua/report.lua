-- Shared by every `delve bench` wrk script: one JSON line (prefixed WRKJSON) with the
-- counts and latency percentiles of the run, plus the per-thread counters in `counters`.
threads = {}
counters = counters or {}

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
  if setup_thread then setup_thread(thread) end
end

function done(summary, latency, requests)
  local extra = {}
  for _, name in ipairs(counters) do
    local total = 0
    for _, t in ipairs(threads) do total = total + (t:get(name) or 0) end
    table.insert(extra, string.format('"%s":%d', name, total))
  end
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests":%d,"duration_us":%d,"non_2xx":%d,"socket_errors":%d,' ..
    '"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,"mean_us":%d,"counters":{%s}}\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean,
    table.concat(extra, ",")))
end
