-- wrk script for bench/soak.sh. Two modes, chosen by the environment:
--
--   SOAK_MODE=valid SOAK_REQUESTS=file   requests the server must answer with 2xx or 304, one
--       per line: PATH, then optionally a tab and headers separated by '|' ("If-None-Match: x").
--       `{rand}` in a path becomes a random number (a query the response cache has not seen).
--       wrk itself counts any other status ("Non-2xx or 3xx responses") and socket errors.
--   SOAK_MODE=invalid   the requests below, each with the 4xx it must get. Run with as many
--       connections as threads (-t4 -c4): one connection per thread answers in order, so each
--       response is paired with the request just sent.
local mode = os.getenv("SOAK_MODE") or "valid"

local valid = {}
local invalid = {}

local function raw(method, path, headers, expected)
  local text = method .. " " .. path .. " HTTP/1.1\r\nHost: 127.0.0.1\r\n" .. (headers or "") .. "\r\n"
  invalid[#invalid + 1] = { text = text, expected = expected, name = method .. " " .. path:sub(1, 60) }
end

local function many_parameters(count)
  local parts = {}
  for i = 1, count do parts[i] = "p" .. i .. "=1" end
  return table.concat(parts, "&")
end

if mode == "invalid" then
  raw("GET", "/channels/Nope.es/schedule", nil, 404)
  raw("GET", "/programmes/nope", nil, 404)
  raw("GET", "/nope", nil, 404)
  raw("GET", "/grid?hours=25", nil, 400)
  raw("GET", "/now?limit=0", nil, 400)
  raw("GET", "/search", nil, 400)
  raw("GET", "/upcoming?kind=opera", nil, 400)
  raw("GET", "/now?tz=Mars/Olympus", nil, 400)
  raw("GET", "/grid?hours=1&hours=2", nil, 400)
  raw("GET", "/now?" .. many_parameters(129), nil, 400)
  raw("GET", "/reminders.ics", nil, 400)
  raw("GET", "/audiences/top?from=2020-01-01&to=2026-01-01", nil, 400)
  raw("GET", "/channels?type=" .. string.rep("x", 300), nil, 400)
  raw("GET", "/?hours=13", nil, 400)
  raw("GET", "/assets/%2e%2e%2fPackage.swift", nil, 404)
  raw("GET", "/assets/..%252f..%252fetc%252fpasswd", nil, 404)
  raw("GET", "/programme/%c0%ae%c0%ae%c0%afetc%c0%afpasswd", nil, 404)
  raw("GET", "/channels/..%2f..%2fetc%2fpasswd/schedule", nil, 404)
  raw("POST", "/now", "Content-Length: 0\r\n", 405)
  raw("DELETE", "/channels", nil, 405)
  raw("OPTIONS", "/now", "Origin: https://evil.example\r\nAccess-Control-Request-Method: GET\r\n", 403)
  -- These close the connection after their answer; wrk connects again.
  raw("GET", "/search?q=" .. string.rep("a", 9000), nil, 414)
  raw("GET", "/now", "X-Big: " .. string.rep("b", 20000) .. "\r\n", 431)
  raw("GET", "/now", "Content-Length: 100000000\r\n", 413)
  raw("GET", "/now\0.json", nil, 400)
else
  local file = assert(io.open(os.getenv("SOAK_REQUESTS"), "r"))
  for line in file:lines() do
    local path, headers = line:match("^([^\t]+)\t?(.*)$")
    local fields = {}
    for field in headers:gmatch("[^|]+") do
      local name, value = field:match("^([^:]+):%s*(.*)$")
      fields[name] = value
    end
    valid[#valid + 1] = { path = path, headers = fields }
  end
  file:close()
end

local expected = nil
-- Globals: done() reads them from each thread with thread:get.
counts = { sent = 0, right = 0, wrong = 0 }
wrong_examples = {}

function init(args)
  math.randomseed(os.time() + (tonumber(tostring({}):match("0x(%x+)"), 16) or 0))
end

-- wrk checks the first request it gets that it parses whole; a huge declared body is not.
local first = true

function request()
  if mode == "invalid" then
    local pick = first and invalid[1] or invalid[math.random(#invalid)]
    first = false
    expected = pick
    counts.sent = counts.sent + 1
    return pick.text
  end
  local pick = valid[math.random(#valid)]
  local path = pick.path:gsub("{rand}", function() return tostring(math.random(1, 1000000000)) end)
  return wrk.format("GET", path, pick.headers)
end

if mode == "invalid" then
  function response(status, headers, body)
    if expected ~= nil and status == expected.expected then
      counts.right = counts.right + 1
    else
      counts.wrong = counts.wrong + 1
      if #wrong_examples < 5 then
        wrong_examples[#wrong_examples + 1] = (expected and expected.name or "?") .. " -> " .. status
      end
    end
    expected = nil
  end
end

local threads = {}

function setup(thread)
  threads[#threads + 1] = thread
end

function done(summary, latency, requests)
  if mode ~= "invalid" then return end
  local sent, right, wrong = 0, 0, 0
  for _, thread in ipairs(threads) do
    local c = thread:get("counts")
    sent, right, wrong = sent + c.sent, right + c.right, wrong + c.wrong
    for _, example in ipairs(thread:get("wrong_examples")) do io.write("SOAK wrong_example ", example, "\n") end
  end
  io.write("SOAK invalid_sent ", sent, "\n")
  io.write("SOAK invalid_right ", right, "\n")
  io.write("SOAK invalid_wrong ", wrong, "\n")
end
