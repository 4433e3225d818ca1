-- GET one of PATHS (set above this file by the bench) at random, with AUTH as the bearer token.
local headers = {}
if AUTH ~= "" then headers["Authorization"] = "Bearer " .. AUTH end

function init(args)
  math.randomseed(id or 1)
end

function request()
  return wrk.format("GET", PATHS[math.random(#PATHS)], headers)
end
