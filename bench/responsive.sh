#!/usr/bin/env bash
# How long `/health` takes to answer while the server loads a large guide, on this machine's cores.
# A generated guide (default 3,000 channels x 7 days) is built, then served with a short refresh
# interval, so that the server parses, merges, stores and indexes the whole guide again and again
# while a client asks `/health` every 5 ms on one kept-alive connection. Prints the latency of
# the answers given during refreshes (median, p99, max) against the 50 ms target.
# Usage: bench/responsive.sh [CHANNELS [DAYS [SECONDS]]]   (default 3000 7 30)
set -euo pipefail
cd "$(dirname "$0")/.."
channels=${1:-3000}
days=${2:-7}
duration=${3:-30}
work=bench/.work/responsive
mkdir -p "$work"
swift build -c release --product tvguide > "$work/build.log" 2>&1 || { tail -40 "$work/build.log" >&2; exit 1; }
bin=$(swift build -c release --show-bin-path)/tvguide
abs=$(cd "$work" && pwd)
xml="$abs/g-$channels-$days.xml"
[ -s "$xml" ] || python3 bench/make_xmltv.py "$channels" "$days" "$xml"
rm -rf "$abs/snap" "$abs/cache"
cat > "$abs/guide.yaml" <<YAML
window: { past: 3d, days: $((days + 1)) }
cache: { dir: cache }
snapshots: { dir: snap, keep: 1 }
guide: [a]
providers:
  a: { type: xmltv, url: $xml }
YAML
now=2026-10-22T06:00:00Z
"$bin" build --quiet --config "$abs/guide.yaml" --now "$now"
echo "== $(nproc) cores, $(grep -c '<programme ' "$xml") programmes, /health every 5 ms for ${duration} s while the guide reloads" >&2

python3 - "$bin" "$abs/guide.yaml" "$abs/snap" "$now" "$duration" <<'PY'
import http.client, statistics, subprocess, sys, threading, time
binary, config, snapshots, now, duration = sys.argv[1:6]
server = subprocess.Popen([binary, "serve", "--config", config, "--snapshots", snapshots, "--port", "0",
                           "--refresh-interval", "2s", "--now", now, "--log-level", "info"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
refreshes = []

def watch_log():
    # The refresh starts at the timer and ends with the "guide refreshed" line.
    for line in server.stderr:
        if "guide refreshed" in line:
            refreshes.append(time.monotonic())
threading.Thread(target=watch_log, daemon=True).start()
try:
    line = server.stdout.readline()
    if "Serving the guide on" not in line:
        sys.exit(f"tvguide serve did not start: {line!r}")
    port = int(line.rstrip().rstrip("/").rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    samples = []
    end = time.monotonic() + float(duration)
    while time.monotonic() < end:
        started = time.monotonic()
        connection.request("GET", "/health")
        response = connection.getresponse()
        response.read()
        samples.append((started, time.monotonic() - started, response.status))
        time.sleep(0.005)
finally:
    server.terminate()
    server.wait()
if len(refreshes) < 2:
    sys.exit(f"only {len(refreshes)} refresh(es) finished in {duration} s: run longer")
# The answers asked between the end of one refresh and the end of the next: the server was loading.
during = [latency for started, latency, status in samples if refreshes[0] <= started <= refreshes[-1]]
bad = [status for _, _, status in samples if status != 200]
ms = sorted(1000 * latency for latency in during)
p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
print(f"\n| refreshes | answers during them | median | p99 | max | non-200 | target |")
print(f"|---|---|---|---|---|---|---|")
print(f"| {len(refreshes) - 1} | {len(ms):,} | {statistics.median(ms):.1f} ms | {p99:.1f} ms | {ms[-1]:.1f} ms | {len(bad)} | max <= 50 ms |")
PY
