#!/usr/bin/env bash
# The soak: `tvguide serve` (release build) on a generated 300-channel x 7-day guide, under
# wrk for SOAK_SECONDS, with valid and invalid requests mixed and slow clients alongside:
#   - valid: 2xx/304 routes of every kind (fast lane, router, web pages, feeds, conditional GETs,
#     a cross-origin read, and queries the response cache has never seen); any other status or
#     any socket error on them is a failure (wrk -t2 -c$CONNECTIONS, bench/soak.lua);
#   - invalid: unknown ids, bad and repeated parameters, traversal attempts, a huge target, huge
#     headers, a huge declared body, other methods, a refused preflight, a NUL in the target;
#     each must get its own 4xx (wrk -t4 -c4, one connection per thread, so answers pair up);
#   - slow clients (bench/soak_clients.py): slowloris heads, silent connections, and (soaks of
#     60 s or more) clients that never read their answers; each must be closed within its limit;
#   - memory: VmRSS of the server after a warm-up, every 5 s during the soak, and after it. The
#     soak fails if it grew by more than RSS_GROWTH_MB (96: the response cache holds up to 64 MiB
#     of bodies, filled and emptied every few seconds by the never-seen queries, so the two
#     readings may catch it empty and full; plus 32 MB), or, over 90 s or more, if the highest
#     reading of the last third is more than 32 MB above the highest of the first third (a leak
#     grows; a bounded cache plateaus).
# The guide's clock is the real one (a guide generated around today), so bodies showing the time
# are rendered anew every second, as in production.
#
# Usage: bench/soak.sh     (SOAK_SECONDS=300 WARMUP_SECONDS=20 CONNECTIONS=32 RSS_GROWTH_MB=96)
# With RELIABILITY_OUT=<dir>, writes <dir>/soak.tsv (metric, value). Exits 1 when a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${SOAK_SECONDS:-300}
warmup=${WARMUP_SECONDS:-20}
connections=${CONNECTIONS:-32}
growth_limit=${RSS_GROWTH_MB:-96}
work=bench/.work/soak
mkdir -p "$work"
for tool in wrk curl python3; do
    command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install -y wrk curl" >&2; exit 1; }
done
abs=$(cd "$work" && pwd)

echo "== generating 300 channels x 7 days from $(date -u -d '-2 days' +%F)"
python3 bench/make_xmltv.py 300 7 "$work/soak.xml" --start "$(date -u -d '-2 days' +%F)"
rm -rf "$work/cache" "$work/snapshots"
cat > "$work/soak.yaml" <<YAML
window: { past: 3d, days: 8 }
cache: { dir: cache }
snapshots: { dir: snapshots, keep: 2 }
guide: [a]
providers:
  a: { type: xmltv, url: $abs/soak.xml }
YAML
swift build -c release --product tvguide > "$work/build.log" 2>&1 || { tail -40 "$work/build.log" >&2; exit 1; }
bin=$(swift build -c release --show-bin-path)/tvguide
"$bin" build --quiet --config "$work/soak.yaml"

"$bin" serve --config "$work/soak.yaml" --snapshots "$work/snapshots" --port 0 --no-refresh \
    --cors-origin https://app.example > "$work/serve.out" 2> "$work/serve.err" &
server=$!
helpers=()
cleanup() {
    for pid in "${helpers[@]}"; do kill "$pid" 2>/dev/null || true; done
    kill "$server" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 200); do grep -q "Serving the guide on" "$work/serve.out" && break; sleep 0.05; done
port=$(sed -n 's|^Serving the guide on http://[^:]*:\([0-9]*\)/$|\1|p' "$work/serve.out")
[ -n "$port" ] || { echo "tvguide serve did not start:" >&2; cat "$work/serve.err" >&2; exit 1; }
base=http://127.0.0.1:$port
rss() { awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$server/status"; }
echo "tvguide serve pid $server on port $port, RSS at start $(rss) MB"

# The valid requests, with ids and ETags from this guide.
ids=$(curl -sf "$base/upcoming?limit=3" | python3 -c 'import json, sys; print(" ".join(i["id"] for i in json.load(sys.stdin)["items"]))')
read -r first second third <<< "$ids"
openapi_etag=$(curl -sfI "$base/openapi.yaml" | tr -d '\r' | sed -n 's/^[Ee][Tt]ag: //p')
xmltv_etag=$(curl -sfI "$base/xmltv.xml.gz" | tr -d '\r' | sed -n 's/^[Ee][Tt]ag: //p')
today=$(date -u +%F)
tomorrow=$(date -u -d '+1 day' +%F)
fixed() {
    for _ in 1 2 3 4 5 6 7 8; do echo "/now"; echo "/channels/bench0150.es/schedule"; done
    echo "/now?limit=20&tz=Europe/Madrid"
    echo "/now?channels=bench0001.es,bench0002.es,bench0003.es"
    echo "/grid?hours=3&limit=50"
    echo "/grid?at=${today}T20:00:00&hours=2&channels=bench0001.es,bench0002.es&tz=Europe/Madrid"
    echo "/channels/bench0007.es/schedule?date=$tomorrow&tz=Europe/Madrid"
    echo "/programmes/$first"
    echo "/programmes/$second/airings?limit=5"
    echo "/upcoming?limit=50"
    echo "/upcoming?kind=movie&limit=20"
    echo "/search?q=secreto&limit=20"
    echo "/channels?limit=50"
    echo "/lineups"
    echo "/health"
    echo "/metrics"
    echo "/"
    echo "/channel/bench0010.es"
    echo "/programme/$third"
    echo "/assets/guide.css"
    echo "/reminders.ics?programme=$first&programme=$second"
    echo "/calendar.ics?kind=movie&channels=bench0001.es"
    printf '/openapi.yaml\tIf-None-Match: %s\n' "$openapi_etag"
    printf '/xmltv.xml.gz\tIf-None-Match: %s\n' "$xmltv_etag"
    printf '/now?limit=10\tOrigin: https://app.example\n'
}
{
    fixed
    fixed
    # One request in 80 is new to the response cache (170 kB each): it fills its 64 MiB bound
    # during the warm-up and keeps cycling it.
    echo "/now?limit=300&nocache={rand}"
} > "$work/valid.txt"
echo "$(wc -l < "$work/valid.txt") valid request kinds; invalid kinds in bench/soak.lua"

run_wrk() { # mode seconds connections output
    local threads=2
    # Invalid requests pair with their answers only with one connection per thread.
    [ "$1" = invalid ] && threads=$3
    SOAK_MODE=$1 SOAK_REQUESTS=$work/valid.txt wrk -t"$threads" -c"$3" -d"$2s" --timeout 5s -s bench/soak.lua "$base" > "$4" 2>&1
}

echo "== warm-up: ${warmup}s"
run_wrk valid "$warmup" "$connections" "$work/warmup-valid.txt" &
warmup_wrk=$!
run_wrk invalid "$warmup" 4 "$work/warmup-invalid.txt"
wait "$warmup_wrk"
sleep 1
rss_before=$(rss)
echo "RSS after warm-up: $rss_before MB"

echo "== soak: ${seconds}s, wrk valid -c$connections and invalid -c4, slow clients alongside"
: > "$work/rss.tsv"
( while kill -0 "$server" 2>/dev/null; do printf '%s\t%s\n' "$(date +%s)" "$(rss)" >> "$work/rss.tsv"; sleep 5; done ) &
helpers+=($!)
python3 bench/soak_clients.py "$port" "$seconds" > "$work/clients.json" &
clients=$!
helpers+=($clients)
started=$SECONDS
run_wrk valid "$seconds" "$connections" "$work/valid-wrk.txt" &
valid_wrk=$!
run_wrk invalid "$seconds" 4 "$work/invalid-wrk.txt"
wait "$valid_wrk"
duration=$((SECONDS - started))
wait "$clients"
sleep 2
rss_after=$(rss)
kill -0 "$server" || { echo "the server died" >&2; exit 1; }

python3 - "$work" "$duration" "$rss_before" "$rss_after" "$growth_limit" "${RELIABILITY_OUT:-}" <<'PY'
import json, os, re, sys
work, duration, before, after, limit, out = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), sys.argv[6]

def wrk(name):
    text = open(f"{work}/{name}").read()
    requests = int(re.search(r"(\d+) requests in", text).group(1))
    non_2xx = int(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", text)) else 0
    sockets = sum(int(x) for x in re.findall(r"(?:connect|read|write|timeout) (\d+)", m.group(1))) if (m := re.search(r"Socket errors: (.*)", text)) else 0
    soak = dict(line.split()[1:3] for line in text.splitlines() if line.startswith("SOAK ") and len(line.split()) == 3)
    examples = [line[len("SOAK wrong_example "):] for line in text.splitlines() if line.startswith("SOAK wrong_example ")]
    return requests, non_2xx, sockets, soak, examples

valid, valid_bad, valid_sockets, _, _ = wrk("valid-wrk.txt")
invalid, _, invalid_sockets, soak, examples = wrk("invalid-wrk.txt")
clients = json.load(open(f"{work}/clients.json"))
samples = [float(line.split("\t")[1]) for line in open(f"{work}/rss.tsv") if line.strip()]
rss_max = max(samples + [after])
third = len(samples) // 3
plateau = round(max(samples[-third:]) - max(samples[:third]), 1) if third >= 6 else None
metrics = {
    "duration_s": duration, "valid_requests": valid, "valid_errors": valid_bad + valid_sockets,
    "valid_non_2xx_304": valid_bad, "valid_socket_errors": valid_sockets,
    "invalid_requests": int(soak.get("invalid_sent", invalid)), "invalid_expected_4xx": int(soak.get("invalid_right", 0)),
    "invalid_wrong_status": int(soak.get("invalid_wrong", 0)), "invalid_socket_errors": invalid_sockets,
    "requests_per_s": round((valid + invalid) / max(duration, 1)),
    "rss_before_mb": before, "rss_after_mb": after, "rss_max_mb": rss_max, "rss_growth_mb": round(after - before, 1),
    "rss_growth_limit_mb": limit, "rss_samples": len(samples),
    "rss_last_vs_first_third_mb": "n/a" if plateau is None else plateau,
    **clients,
}
failures = []
if metrics["valid_errors"]: failures.append(f"{metrics['valid_errors']} errors on valid requests ({valid_bad} statuses, {valid_sockets} socket errors)")
if metrics["invalid_wrong_status"]: failures.append(f"{metrics['invalid_wrong_status']} invalid requests got another status: {examples}")
if not metrics["invalid_expected_4xx"]: failures.append("no invalid request was answered")
if after - before > limit: failures.append(f"RSS grew {after - before:.1f} MB > {limit} MB")
if plateau is not None and plateau > 32: failures.append(f"RSS still rising: the last third peaked {plateau} MB above the first")
if clients["slowloris_closed"] == 0 or clients["slowloris_max_held_s"] > 15: failures.append(f"slowloris held: {clients}")
if clients["idle_closed"] == 0 or clients["idle_max_held_s"] > 15: failures.append(f"idle connections held: {clients}")
if clients["stalled_closed"] != clients["stalled_connections"]: failures.append(f"stalled readers not closed: {clients}")
metrics["result"] = "fail" if failures else "pass"
width = max(map(len, metrics))
for key, value in metrics.items():
    print(f"  {key:<{width}}  {value}")
if out:
    path = os.path.join(out, "soak.tsv")
    fresh = not os.path.exists(path) or os.path.getsize(path) == 0
    with open(path, "a") as handle:
        if fresh: handle.write("metric\tvalue\n")
        for key, value in metrics.items():
            handle.write(f"{key}\t{value}\n")
for failure in failures:
    print(f"FAIL {failure}")
sys.exit(1 if failures else 0)
PY
