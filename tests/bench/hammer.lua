-- wrk script of http_hammer_bench.py. Arguments: the model ("elo" or "ml") and the delay
-- in ms between a connection's answer and its next request (0: loop). Each connection asks
-- for the leaderboards of the large pools in turn ("hammered"), or, with a delay, of all
-- 12 pools in turn, models alternating ("paced"). done() prints one line the script reads.
local model, wait, n = "elo", 0, 0
local pools = {}
for k = 0, 9 do pools[#pools + 1] = "p" .. k end
pools[#pools + 1] = "big0"
pools[#pools + 1] = "big1"

function init(args)
  model = args[1] or "elo"
  wait = tonumber(args[2] or "0")
end

function request()
  n = n + 1
  if wait == 0 then
    return wrk.format("GET", "/v1/pools/big" .. (n % 2) .. "/leaderboard?model=" .. model ..
                      "&limit=10")
  end
  local m = (n % 2 == 0) and "elo" or "ml"
  local pool = pools[math.floor(n / 2) % #pools + 1]
  return wrk.format("GET", "/v1/pools/" .. pool .. "/leaderboard?model=" .. m .. "&limit=10")
end

function delay()
  return wait
end

function done(summary, latency, requests)
  io.write(string.format("RESULT requests=%d non2xx=%d errors=%d p50=%d p99=%d max=%d\n",
                         summary.requests, summary.errors.status,
                         summary.errors.connect + summary.errors.read + summary.errors.write +
                           summary.errors.timeout,
                         latency:percentile(50), latency:percentile(99), latency.max))
end
