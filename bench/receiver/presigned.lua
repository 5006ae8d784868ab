-- wrk script for bench/receiver-bench.sh: replays pre-signed deliveries (renewal-presign's
-- output: a line of tab-separated signature headers, then the body) to POST /webhooks/KEY.
-- Each wrk thread takes the deliveries of its share of the subscriptions, in order; wrk runs for its -d
-- duration (it cannot end early), so the set must hold more renewals than the run sends:
-- a thread that runs out starts again (duplicate deliveries) and done() reports "wrapped".
-- RD_DELAY_MS paces each connection (the latency run at a chosen rate).

local threads = {}
local counter = 0

function setup(thread)
    thread:set("id", counter)
    counter = counter + 1
    table.insert(threads, thread)
end

function init(args)
    local n = tonumber(os.getenv("RD_WRK_THREADS") or "1")
    local path = "/webhooks/" .. (os.getenv("RD_PROVIDER_KEY") or "stripe-main")
    delay_ms = tonumber(os.getenv("RD_DELAY_MS") or "0")
    requests = {}
    local f = assert(io.open(os.getenv("RD_DELIVERIES"), "r"))
    local i = 0
    while true do
        local headerLine = f:read("*l")
        if not headerLine then break end
        local body = f:read("*l")
        -- A subscription's renewals all go to one thread, in order: no thread can deliver
        -- a renewal before another thread delivered its predecessor.
        local sub = string.match(body, '"subscription":"([^"]+)"') or tostring(i)
        local h = 0
        for k = 1, #sub do h = (h * 31 + string.byte(sub, k)) % 1000003 end
        if h % n == id then
            local headers = {["Content-Type"] = "application/json"}
            for name, value in string.gmatch(headerLine, "([^:\t]+): ([^\t]+)") do
                headers[name] = value
            end
            table.insert(requests, wrk.format("POST", path, headers, body))
        end
        i = i + 1
    end
    f:close()
    sent = 0
    probe = wrk.format("GET", "/healthz")
end

function request()
    -- wrk calls request() once before the run to see how many requests it returns: that
    -- call gets a health check, so that no delivery is skipped (a skipped renewal would make
    -- its successor wait for it). Threads whose first call is real send it: one GET each.
    if not started then
        started = true
        return probe
    end
    sent = sent + 1
    if sent > #requests then
        wrapped = true
        sent = 1
    end
    return requests[sent]
end

function delay()
    return delay_ms
end

function done(summary, latency, requests)
    local wrappedAny = 0
    for _, thread in ipairs(threads) do
        if thread:get("wrapped") then wrappedAny = 1 end
    end
    io.write(string.format("RD_RESULT requests=%d duration_us=%d p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f errors=%d wrapped=%d\n",
        summary.requests, summary.duration, latency:percentile(50) / 1000,
        latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
        summary.errors.status + summary.errors.connect + summary.errors.read
            + summary.errors.write + summary.errors.timeout, wrappedAny))
end
