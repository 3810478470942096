#!/usr/bin/env bash
# Metadata enrichment of the 50,000-programme guide whose films and series are
# drawn from 2,000 distinct works, against a fake TMDB on loopback that answers after 20 ms.
#   run 1 (empty cache): requests must equal the distinct titles (+1 for TMDB's configuration),
#         and the enrichment's wall time stay within 1.5x of titles / concurrency x 20 ms;
#   run 2 (same cache, inside the TTL): no request at all.
# Usage: bench/metadata.sh [WORKS]   (default 2000; CONCURRENCY=8 LATENCY_MS=20 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
works=${1:-2000}
concurrency=${CONCURRENCY:-8}
latency=${LATENCY_MS:-20}
work=bench/.work
mkdir -p "$work"
abs=$(cd "$work" && pwd)

echo "== generating 300 channels x 7 days, films and series from ${works} works"
python3 bench/make_xmltv.py 300 7 "$work/meta.xml" --works "$works"
echo "meta.xml: $(grep -c '<programme' "$work/meta.xml") programmes, $(grep -c themoviedb.org "$work/meta.xml") airings of a work"

swift build -c release --product tvguide >/dev/null
bin=$(swift build -c release --show-bin-path)/tvguide

rm -f "$work/tmdb.port" "$work/tmdb.log"
python3 bench/fake_tmdb.py "$work/tmdb.port" "$work/tmdb.log" --latency-ms "$latency" &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 100); do [ -s "$work/tmdb.port" ] && break; sleep 0.1; done
port=$(cat "$work/tmdb.port")

rm -rf "$work/meta-cache" "$work/snap-meta"
cat > "$work/meta.yaml" <<YAML
window: { past: 3d, days: 8 }
cache: { dir: meta-cache, ttl: 2h }
snapshots: { dir: snap-meta, keep: 2 }
guide: [a]
metadata: { movie: [tmdb], series: [tmdb] }
providers:
  a: { type: xmltv, url: $abs/meta.xml }
  tmdb: { type: tmdb, base_url: "http://127.0.0.1:$port/3/", api_key: bench, concurrency: $concurrency, timeout: 30s }
YAML
now=2026-10-22T06:00:00Z

run() {
    local label=$1 before after
    before=$(wc -l < "$work/tmdb.log")
    "$bin" build --config "$work/meta.yaml" --now "$now" > "$work/$label.out"
    after=$(wc -l < "$work/tmdb.log")
    echo $((after - before)) > "$work/$label.requests"
}
echo "== run 1: empty cache"
run first
echo "== run 2: inside the TTL"
run second

python3 - "$work" "$concurrency" "$latency" <<'PY'
import json, re, sys
w, concurrency, latency = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
snapshot = json.load(open(f"{w}/snap-meta/latest.json"))
meta = snapshot["report"]["metadata"]
def phase(label):
    text = open(f"{w}/{label}.out").read()
    match = re.search(r"^Metadata: .*\[([0-9.]+) (ms|s)\]", text, re.M)
    if not match:
        sys.exit(f"no 'Metadata: … [time]' line in the {label} run's report:\n{text}")
    value = float(match.group(1))
    return value / 1000 if match.group(2) == "ms" else value
requests = [int(open(f"{w}/{label}.requests").read()) for label in ("first", "second")]
times = [phase(label) for label in ("first", "second")]
titles = meta["titles"]
bound = titles / concurrency * latency / 1000
def row(label, value, target=""):
    print(f"  {label:<58} {value:>10}   {target}")
print("\nResults")
row("programmes in the guide", f"{len(snapshot['programmes'])}")
row("distinct titles looked up", f"{titles}")
row("works in the snapshot / programmes enriched", f"{meta['works']} / {meta['programmesEnriched']}")
row("run 1 requests (titles + 1 configuration)", f"{requests[0]}", f"target {titles + 1}")
row("run 1 enrichment wall time", f"{times[0]:.2f}s")
row(f"  bound: titles / {concurrency} x {latency:g} ms", f"{bound:.2f}s")
row("  ratio wall / bound", f"{times[0] / bound:.2f}x", "target <= 1.5x")
row("run 2 requests (inside the TTL)", f"{requests[1]}", "target 0")
row("run 2 enrichment wall time", f"{times[1]:.2f}s")
PY
