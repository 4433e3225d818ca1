-- The action cycle: each wrk thread (one connection each) plays its own game of GAME with
-- SEATS human seats: GET legal-actions for a seat, then POST one of its commands at random;
-- a seat with nothing to do passes the turn to the next; a finished game is replaced.
-- Counters: posts (201), refused (other POST answers), idle (legal-actions with no command), games.
counters = {"posts", "refused", "idle", "games", "bad"}
local phase, gid, tokens, seat, version, command, tried = "create", nil, {}, 1, 0, nil, 0
posts, refused, idle, games, bad = 0, 0, 0, 0, 0
local json_headers = {["Content-Type"] = "application/json"}

local function create_body()
  local seats = {}
  for i = 1, SEATS do seats[i] = string.format('{"name":"p%d"}', i) end
  return string.format('{"game":"%s","seats":[%s],"options":{}}', GAME, table.concat(seats, ","))
end

-- The top-level objects of the JSON array that opens at `start` (strings may hold braces).
local function objects(body, start)
  local out, depth, i, first, n = {}, 0, start, nil, #body
  while i <= n do
    local c = body:sub(i, i)
    if c == '"' then
      i = i + 1
      while i <= n do
        local d = body:sub(i, i)
        if d == "\\" then i = i + 1 elseif d == '"' then break end
        i = i + 1
      end
    elseif c == "{" then
      if depth == 0 then first = i end
      depth = depth + 1
    elseif c == "}" then
      depth = depth - 1
      if depth == 0 then table.insert(out, body:sub(first, i)) end
    elseif c == "]" and depth == 0 then
      break
    end
    i = i + 1
  end
  return out
end

function init(args)
  math.randomseed(id or 1)
end

function request()
  if phase == "create" then
    return wrk.format("POST", "/v1/games", json_headers, create_body())
  end
  local h = {["Authorization"] = "Bearer " .. tokens[seat], ["Content-Type"] = "application/json"}
  if phase == "legal" then
    return wrk.format("GET", "/v1/games/" .. gid .. "/legal-actions", h)
  end
  return wrk.format("POST", "/v1/games/" .. gid .. "/actions", h,
                    string.format('{"expected_version":%d,"command":%s}', version, command))
end

function response(status, headers, body)
  if phase == "create" then
    if status ~= 201 then bad = bad + 1; return end
    gid = body:match('"id":%s*"([^"]+)"')
    tokens = {}
    for t in body:gmatch('"token":%s*"([^"]+)"') do table.insert(tokens, t) end
    games, seat, tried, phase = games + 1, 1, 0, "legal"
  elseif phase == "legal" then
    if status ~= 200 then bad = bad + 1; phase = "create"; return end
    version = tonumber(body:match('"version":%s*(%d+)'))
    local at = body:find('"commands":%s*%[')
    local cmds = at and objects(body, body:find("%[", at) + 1) or {}
    if #cmds == 0 then
      idle, tried, seat = idle + 1, tried + 1, seat % #tokens + 1
      if tried > #tokens then phase = "create" end
    else
      command, phase = cmds[math.random(#cmds)], "post"
    end
  else
    if status == 201 then posts = posts + 1 else refused = refused + 1 end
    tried, phase = 0, "legal"
    if status == 201 then seat = seat % #tokens + 1 end
  end
end
