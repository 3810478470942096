#!/usr/bin/env bash
# How fast `GET /recommendations` answers on a large guide: CHANNELS x DAYS of generated XMLTV
# (bench/make_xmltv.py: films and series with credits and categories), built by the release
# binary, served, then asked for one day's picks. Prints the first answer (which also builds the
# guide's recommendation index, once per guide) and the median and slowest of the next ones, each
# with another taste profile so that none is answered from the response cache.
# Usage: bench/recommend.sh [CHANNELS [DAYS [REQUESTS]]]   (default 3000 7 30)
set -euo pipefail
cd "$(dirname "$0")/.."
channels=${1:-3000}
days=${2:-7}
requests=${3:-30}
work=bench/.work/recommend
mkdir -p "$work"
swift build -c release --product tvguide > "$work/build.log" 2>&1 || { tail -40 "$work/build.log" >&2; exit 1; }
bin=$(swift build -c release --show-bin-path)/tvguide
abs=$(cd "$work" && pwd)
xml="$abs/g-$channels-$days.xml"
[ -s "$xml" ] || python3 bench/make_xmltv.py "$channels" "$days" "$xml"
size="$channels-$days"
if [ ! -s "$abs/snap-$size/latest.json" ]; then
    cat > "$abs/$size.yaml" <<YAML
window: { past: 3d, days: $((days + 1)) }
cache: { dir: cache-$size }
snapshots: { dir: snap-$size, keep: 1 }
guide: [a]
providers:
  a: { type: xmltv, url: $xml }
YAML
    "$bin" build --quiet --config "$abs/$size.yaml" --now 2026-10-22T06:00:00Z
fi

python3 - "$bin" "$abs/snap-$size" "$requests" "$channels" "$days" <<'PY'
import http.client, json, statistics, subprocess, sys, time, urllib.parse
binary, snapshots, requests, channels, days = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
server = subprocess.Popen([binary, "serve", "--snapshots", snapshots, "--port", "0", "--no-refresh", "--now", "2026-10-22T12:00:00Z"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
try:
    line = server.stdout.readline()
    port = int(line.rstrip().rstrip("/").rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def ask(query):
        started = time.monotonic()
        connection.request("GET", "/recommendations?" + query)
        response = connection.getresponse()
        body = response.read()
        elapsed = time.monotonic() - started
        if response.status != 200:
            sys.exit(f"/recommendations?{query} answered {response.status}: {body[:200]!r}")
        return elapsed, json.loads(body)

    day = "date=2026-10-23&tz=Europe/Madrid"
    first, answer = ask(day + "&limit=10")
    titles = sorted({item["programme"]["title"] for item in answer["items"]})
    # Profiles: each another liked title of the guide, kinds and a genre, so that each request is rendered.
    times = []
    for number in range(requests):
        liked = titles[number % len(titles)] if titles else "x"
        query = day + "&" + urllib.parse.urlencode({"likes": liked, "limit": 10, "kinds": "movie,series,programme,documentary",
                                                    "genres": ["drama", "comedy", "news", "documentary"][number % 4], "saved": f"unknown {number}"})
        elapsed, _ = ask(query)
        times.append(elapsed)
    times.sort()
    print(f"guide: {channels} channels x {days} days; one day's recommendations over HTTP, release build")
    print(f"first answer (builds the recommendation index): {first * 1000:.0f} ms")
    print(f"next {requests} answers, each another profile: median {statistics.median(times) * 1000:.1f} ms, "
          f"slowest {times[-1] * 1000:.1f} ms (target: 50 ms)")
finally:
    server.terminate()
    server.wait()
PY
