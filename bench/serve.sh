#!/usr/bin/env bash
# `tvguide serve` with the 50,000-programme guide loaded, side by side with nginx serving the
# same response bodies as static files, in one run on this machine:
#   1. start-up: from process start to the first 200 answer of /now (RUNS runs, median and max);
#   2. `wrk -t2 -c64 -d${DURATION}s --latency` against /now, /channels/{id}/schedule and the XMLTV
#      feed /xmltv.xml (25 MB) on tvguide, then the same against nginx (one server under load at
#      a time, the other idle);
#   3. a table of requests/s, p99 latency and the tvguide / nginx ratio, PASS or MISS per target.
# It is a report: it exits 0 whether the targets are met or not; missed ones print MISS.
# Usage: bench/serve.sh   (DURATION=20 RUNS=5 THREADS=2 CONNECTIONS=64 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-20}
runs=${RUNS:-5}
threads=${THREADS:-2}
connections=${CONNECTIONS:-64}
work=bench/.work
mkdir -p "$work"
for tool in wrk nginx curl python3; do
    command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install -y wrk nginx-light curl" >&2; exit 1; }
done
abs=$(cd "$work" && pwd)

echo "== generating 300 channels x 7 days"
python3 bench/make_xmltv.py 300 7 "$work/serve.xml"
rm -rf "$work/serve-cache" "$work/snap-serve"
cat > "$work/serve.yaml" <<YAML
window: { past: 3d, days: 8 }
cache: { dir: serve-cache }
snapshots: { dir: snap-serve, keep: 2 }
guide: [a]
providers:
  a: { type: xmltv, url: $abs/serve.xml }
YAML
swift build -c release --product tvguide > "$work/serve-build.log" 2>&1 || { tail -40 "$work/serve-build.log" >&2; exit 1; }
bin=$(swift build -c release --show-bin-path)/tvguide
built=2026-10-22T06:00:00Z
# Inside the window, and fixed: every request of a run asks about the same second.
now=2026-10-22T12:00:00Z
day=2026-10-22
channel=bench0150.es
"$bin" build --quiet --config "$work/serve.yaml" --now "$built"
latest="$work/snap-serve/latest.json"
echo "latest.json: $(du -h "$latest" | cut -f1), $(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['programmes']))" "$latest") programmes"

servers=()
cleanup() {
    for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT
serve=("$bin" serve --config "$work/serve.yaml" --snapshots "$work/snap-serve" --port 0 --no-refresh --now "$now")

startup_load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "== 1. start-up to the first answer of /now, $runs runs (load average before: $startup_load)"
# Python starts the server, reads the port from its one line on stdout and asks for /now at
# once; the clock runs from just before the exec to the 200.
python3 - "$runs" "$work/startup.txt" "${serve[@]}" <<'PY'
import http.client, subprocess, sys, time
runs, out, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
times = []
for _ in range(runs):
    started = time.monotonic()
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        if "Serving the guide on" not in line:
            sys.exit(f"tvguide serve did not start: {line!r}")
        port = int(line.rstrip().rstrip("/").rsplit(":", 1)[1])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/now")
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            sys.exit(f"/now answered {response.status}")
        times.append(time.monotonic() - started)
    finally:
        server.terminate()
        server.wait()
times.sort()
with open(out, "w") as f:
    f.write(f"{times[len(times) // 2]} {times[-1]}\n")
print("  " + ", ".join(f"{t * 1000:.0f} ms" for t in times))
PY

echo "== 2. the bodies, for nginx"
"${serve[@]}" > "$work/tvguide.out" 2> "$work/tvguide.err" &
servers+=($!)
for _ in $(seq 200); do grep -q "Serving the guide on" "$work/tvguide.out" && break; sleep 0.05; done
port=$(sed -n 's|^Serving the guide on http://[^:]*:\([0-9]*\)/$|\1|p' "$work/tvguide.out")
[ -n "$port" ] || { echo "tvguide serve did not start:" >&2; cat "$work/tvguide.err" >&2; exit 1; }
now_path=/now
schedule_path="/channels/$channel/schedule?date=$day"
static="$abs/nginx/static"
rm -rf "$abs/nginx"
mkdir -p "$static/channels/$channel" "$abs/nginx/logs" "$abs/nginx/temp"
# nginx serves files, so the query string is not part of the file name; it ignores it.
curl -sf "http://127.0.0.1:$port$now_path" -o "$static/now"
curl -sf "http://127.0.0.1:$port$schedule_path" -o "$static/channels/$channel/schedule"
curl -sf "http://127.0.0.1:$port/xmltv.xml" -o "$static/xmltv.xml"
echo "/now: $(wc -c < "$static/now") bytes; $schedule_path: $(wc -c < "$static/channels/$channel/schedule") bytes; /xmltv.xml: $(wc -c < "$static/xmltv.xml") bytes"
# Workers may run as another user when started by root: let them read the files.
chmod -R a+rX "$abs/nginx"

nginx_port=$(python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
# The best static setup for a fair floor: every worker, sendfile, open-file cache, keep-alive
# without a request limit (wrk keeps its 64 connections for the whole run, as tvguide lets it).
cat > "$abs/nginx/nginx.conf" <<CONF
worker_processes auto;
daemon off;
pid $abs/nginx/nginx.pid;
error_log $abs/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65;
    keepalive_requests 10000000;
    open_file_cache max=64 inactive=60s;
    types { }
    default_type application/json;
    charset utf-8;
    charset_types application/json;
    client_body_temp_path $abs/nginx/temp/body;
    proxy_temp_path $abs/nginx/temp/proxy;
    fastcgi_temp_path $abs/nginx/temp/fastcgi;
    uwsgi_temp_path $abs/nginx/temp/uwsgi;
    scgi_temp_path $abs/nginx/temp/scgi;
    server {
        listen 127.0.0.1:$nginx_port;
        root $static;
    }
}
CONF
nginx -p "$abs/nginx" -c "$abs/nginx/nginx.conf" -e "$abs/nginx/logs/error.log" &
servers+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$nginx_port$now_path" -o /dev/null && break; sleep 0.05; done
cmp -s <(curl -sf "http://127.0.0.1:$nginx_port$now_path") "$static/now" || { echo "nginx does not serve the bodies:" >&2; cat "$abs/nginx/logs/error.log" >&2; exit 1; }
echo "nginx $(nginx -v 2>&1 | sed 's|.*/||') on port $nginx_port, tvguide on port $port"

# The load average before each run hints whether other work shared the two cores with it (the
# runs before it in this script raise it too: each keeps both cores busy).
echo "== 3. wrk -t$threads -c$connections -d${duration}s, one server at a time"
for target in "now $now_path" "schedule $schedule_path" "xmltv /xmltv.xml"; do
    set -- $target
    for server in tvguide nginx; do
        [ "$server" = tvguide ] && p=$port || p=$nginx_port
        echo "  $server $2 (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
        # A 25 MB answer to each of 64 connections at once takes seconds: past wrk's 2 s default.
        timeout=2s
        [ "$1" = xmltv ] && timeout=30s
        wrk -t"$threads" -c"$connections" -d"${duration}s" --timeout "$timeout" --latency "http://127.0.0.1:$p$2" > "$work/wrk-$1-$server.txt"
    done
done

python3 - "$work" "$(du -b "$latest" | cut -f1)" "$startup_load" <<'PY'
import re, sys
w, latest_bytes, startup_load = sys.argv[1], int(sys.argv[2]), sys.argv[3]
units = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}

def wrk(name):
    text = open(f"{w}/wrk-{name}.txt").read()
    rps = float(re.search(r"^Requests/sec:\s+([0-9.]+)", text, re.M).group(1))
    value, unit = re.search(r"^\s+99%\s+([0-9.]+)(us|ms|s|m)\s*$", text, re.M).groups()
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    sockets = re.search(r"Socket errors: (.*)", text)
    problems = []
    if errors: problems.append(f"{errors.group(1)} non-2xx answers")
    if sockets: problems.append(f"socket errors: {sockets.group(1)}")
    return rps, float(value) * units[unit], problems

median, worst = (float(x) for x in open(f"{w}/startup.txt").read().split())
verdict = lambda ok: "PASS" if ok else "MISS"
misses = []
print("\nResults")
print(f"  latest.json {latest_bytes / 1e6:.1f} MB")
print(f"  start-up to the first /now answer: median {median * 1000:.0f} ms, max {worst * 1000:.0f} ms   "
      f"target < 1000 ms  {verdict(worst < 1)}   (load average before: {startup_load})")
if worst >= 1: misses.append(f"start-up {worst * 1000:.0f} ms >= 1000 ms")
print()
print(f"  {'endpoint':<24} {'tvguide rps':>11} {'p99':>8} {'nginx rps':>10} {'p99':>8} {'ratio':>6}   rps>=15k  p99<10ms  ratio>=0.5")
for name, path in (("now", "/now"), ("schedule", "/channels/{id}/schedule")):
    rps, p99, problems = wrk(f"{name}-tvguide")
    nginx_rps, nginx_p99, nginx_problems = wrk(f"{name}-nginx")
    ratio = rps / nginx_rps
    checks = (rps >= 15_000, p99 < 10, ratio >= 0.5)
    print(f"  {path:<24} {rps:>11,.0f} {p99:>6.2f}ms {nginx_rps:>10,.0f} {nginx_p99:>6.2f}ms {ratio:>6.2f}   "
          + "  ".join(f"{verdict(ok):>8}" for ok in checks))
    for label, ok in zip((f"{rps:,.0f} requests/s < 15,000", f"p99 {p99:.2f} ms >= 10 ms", f"ratio {ratio:.2f} < 0.5"), checks):
        if not ok: misses.append(f"{path}: {label}")
    for problem in problems: misses.append(f"{path} tvguide: {problem}")
    for problem in nginx_problems: misses.append(f"{path} nginx: {problem}")
# The feed is a 25 MB file: the floor is sendfile's copy, so its target is the ratio alone.
rps, p99, problems = wrk("xmltv-tvguide")
nginx_rps, nginx_p99, nginx_problems = wrk("xmltv-nginx")
ratio = rps / nginx_rps
print(f"  {'/xmltv.xml':<24} {rps:>11,.1f} {p99:>6.0f}ms {nginx_rps:>10,.1f} {nginx_p99:>6.0f}ms {ratio:>6.2f}   "
      f"{'':>8}  {'':>8}  ratio>=0.8 {verdict(ratio >= 0.8)}")
if ratio < 0.8: misses.append(f"/xmltv.xml: ratio {ratio:.2f} < 0.8")
for problem in problems: misses.append(f"/xmltv.xml tvguide: {problem}")
for problem in nginx_problems: misses.append(f"/xmltv.xml nginx: {problem}")
print()
for miss in misses:
    print(f"MISS {miss}")
if not misses:
    print("All targets met.")
PY
