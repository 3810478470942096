#!/usr/bin/env bash
# Issue 14 benchmark: how tvguide scales with the number of channels, on generated XMLTV.
# For each size: the XMLTV file, `xmllint --stream` (the parse floor), `tvguide build` (time and
# peak RSS), latest.json and latest.packed, and `tvguide serve` (time from exec to the first 200 of /now, its RSS
# then, and that RSS per programme). Prints one table row per size.
# Usage: bench/scale.sh [SIZE…]   a SIZE is CHANNELS or CHANNELSxDAYS (default: 300 1000 3000, 7 days)
#   e.g. bench/scale.sh 300 1000 3000 10000x14
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(300 1000 3000)
work=bench/.work/scale
mkdir -p "$work"
for tool in xmllint python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install -y libxml2-utils python3 time" >&2; exit 1; }
done
swift build -c release --product tvguide > "$work/build.log" 2>&1 || { tail -40 "$work/build.log" >&2; exit 1; }
bin=$(swift build -c release --show-bin-path)/tvguide
abs=$(cd "$work" && pwd)
built=2026-10-22T06:00:00Z

seconds() { python3 -c "import time; print(f'{time.monotonic():.6f}')"; }

rows=()
for size in "${sizes[@]}"; do
    channels=${size%x*}
    days=7
    [[ $size == *x* ]] && days=${size#*x}
    xml="$abs/g-$channels-$days.xml"
    echo "== $channels channels x $days days" >&2
    [ -s "$xml" ] || python3 bench/make_xmltv.py "$channels" "$days" "$xml"
    programmes=$(grep -c '<programme ' "$xml")
    xml_mb=$(python3 -c "import os,sys; print(f'{os.path.getsize(sys.argv[1]) / 1e6:.0f}')" "$xml")

    start=$(seconds); xmllint --stream --noout "$xml"; end=$(seconds)
    xmllint_s=$(python3 -c "print(f'{$end - $start:.2f}')")

    rm -rf "$abs/snap-$size" "$abs/cache-$size"
    cat > "$abs/$size.yaml" <<YAML
window: { past: 3d, days: $((days + 1)) }
cache: { dir: cache-$size }
snapshots: { dir: snap-$size, keep: 1 }
guide: [a]
providers:
  a: { type: xmltv, url: $xml }
YAML
    /usr/bin/time -f "%e %M" -o "$abs/build-time" "$bin" build --quiet --config "$abs/$size.yaml" --now "$built"
    read -r build_s build_kb < "$abs/build-time"
    latest="$abs/snap-$size/latest.json"
    latest_mb=$(python3 -c "import os,sys; print(f'{os.path.getsize(sys.argv[1]) / 1e6:.0f}')" "$latest")
    packed_mb=$(python3 -c "import os,sys; print(f'{os.path.getsize(sys.argv[1]) / 1e6:.0f}' if os.path.exists(sys.argv[1]) else '-')" "$abs/snap-$size/latest.packed")

    # Start-up: exec to the first 200 of /now; then the server's resident memory.
    read -r startup_s rss_kb < <(python3 - "$bin" "$abs/$size.yaml" "$abs/snap-$size" <<'PY'
import http.client, subprocess, sys, time
binary, config, snapshots = sys.argv[1:4]
started = time.monotonic()
server = subprocess.Popen([binary, "serve", "--config", config, "--snapshots", snapshots, "--port", "0",
                           "--no-refresh", "--now", "2026-10-22T12:00:00Z"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
try:
    line = server.stdout.readline()
    if "Serving the guide on" not in line:
        sys.exit(f"tvguide serve did not start: {line!r}")
    port = int(line.rstrip().rstrip("/").rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/now")
    response = connection.getresponse()
    response.read()
    if response.status != 200:
        sys.exit(f"/now answered {response.status}")
    startup = time.monotonic() - started
    rss = next(int(l.split()[1]) for l in open(f"/proc/{server.pid}/status") if l.startswith("VmRSS:"))
    print(f"{startup:.2f} {rss}")
finally:
    server.terminate()
    server.wait()
PY
)
    rows+=("$channels $days $programmes $xml_mb $xmllint_s $build_s $build_kb $latest_mb $packed_mb $startup_s $rss_kb")
done

python3 - "${rows[@]}" <<'PY'
import sys
print()
print("| channels | days | programmes | XMLTV | xmllint | build | build / xmllint | build peak | peak / XMLTV | latest.json | latest.packed | serve start-up | serve RSS | bytes/programme in serve |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for row in sys.argv[1:]:
    ch, days, n, xml_mb, lint, build, build_kb, latest_mb, packed_mb, startup, rss_kb = row.split()
    n, lint, build, build_mb, rss_mb = int(n), float(lint), float(build), int(build_kb) * 1024 / 1e6, int(rss_kb) * 1024 / 1e6
    print(f"| {int(ch):,} | {days} | {n:,} | {xml_mb} MB | {lint:.2f} s | {build:.2f} s | {build / lint:.1f}x "
          f"| {build_mb:,.0f} MB | {build_mb / int(xml_mb):.1f}x | {latest_mb} MB | {packed_mb} MB | {float(startup):.2f} s "
          f"| {rss_mb:,.0f} MB | {int(rss_kb) * 1024 / n:,.0f} |")
print("\ntargets (issue 14, 3,000 x 7): serve <= 600 bytes/programme and <= 1 s start-up; "
      "build peak < XMLTV size and build <= 3x xmllint")
PY
