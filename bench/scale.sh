#!/usr/bin/env bash
# How tvguide scales with the number of channels, on generated XMLTV.
# For each size: the XMLTV file, `xmllint --stream` (the parse floor), `tvguide build` (time and
# peak RSS), latest.json and latest.packed, and `tvguide serve`: the time from exec to the first
# 200 of /now and its RSS then; then the RSS once /xmltv.xml, /xmltv.xml.gz, /calendar.ics and
# /playlist.m3u have been asked for (what a deployment holds once players have fetched their
# feeds), per programme. Prints one table row per size.
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
    # A player's playlist of every channel, for /playlist.m3u.
    python3 - "$channels" "$abs/g-$channels.m3u" <<'PY'
import sys
count, path = int(sys.argv[1]), sys.argv[2]
with open(path, "w") as out:
    out.write("#EXTM3U\n")
    for c in range(count):
        out.write(f'#EXTINF:-1 tvg-id="bench{c:04d}.es",Canal {c}\nhttp://streams.invalid/{c}.m3u8\n')
PY
    cat > "$abs/$size.yaml" <<YAML
window: { past: 3d, days: $((days + 1)) }
cache: { dir: cache-$size }
snapshots: { dir: snap-$size, keep: 1 }
playlist: $abs/g-$channels.m3u
guide: [a]
providers:
  a: { type: xmltv, url: $xml }
YAML
    /usr/bin/time -f "%e %M" -o "$abs/build-time" "$bin" build --quiet --config "$abs/$size.yaml" --now "$built"
    read -r build_s build_kb < "$abs/build-time"
    latest="$abs/snap-$size/latest.json"
    latest_mb=$(python3 -c "import os,sys; print(f'{os.path.getsize(sys.argv[1]) / 1e6:.0f}')" "$latest")
    packed_mb=$(python3 -c "import os,sys; print(f'{os.path.getsize(sys.argv[1]) / 1e6:.0f}' if os.path.exists(sys.argv[1]) else '-')" "$abs/snap-$size/latest.packed")

    # Start-up: exec to the first 200 of /now; the server's resident memory then, and after the feeds.
    read -r startup_s rss_kb feeds_rss_kb feeds_s < <(python3 - "$bin" "$abs/$size.yaml" "$abs/snap-$size" <<'PY'
import http.client, subprocess, sys, time
binary, config, snapshots = sys.argv[1:4]

def rss(pid):
    return next(int(l.split()[1]) for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS:"))

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
    after_now = rss(server.pid)
    asked = time.monotonic()
    for path in ["/xmltv.xml", "/xmltv.xml.gz", "/calendar.ics?kind=movie", "/playlist.m3u"]:
        connection.request("GET", path)
        response = connection.getresponse()
        while response.read(1 << 20):
            pass
        if response.status != 200:
            sys.exit(f"{path} answered {response.status}")
    feeds = time.monotonic() - asked
    print(f"{startup:.2f} {after_now} {rss(server.pid)} {feeds:.2f}")
finally:
    server.terminate()
    server.wait()
PY
)
    rows+=("$channels $days $programmes $xml_mb $xmllint_s $build_s $build_kb $latest_mb $packed_mb $startup_s $rss_kb $feeds_rss_kb $feeds_s")
done

python3 - "${rows[@]}" <<'PY'
import sys
print()
print("| channels | days | programmes | XMLTV | xmllint | build | build / xmllint | build peak | peak / XMLTV | latest.json | latest.packed "
      "| serve start-up | RSS after /now | bytes/programme | feeds asked in | RSS after the feeds | bytes/programme |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for row in sys.argv[1:]:
    ch, days, n, xml_mb, lint, build, build_kb, latest_mb, packed_mb, startup, rss_kb, feeds_kb, feeds_s = row.split()
    n, lint, build, build_mb = int(n), float(lint), float(build), int(build_kb) * 1024 / 1e6
    rss_b, feeds_b = int(rss_kb) * 1024, int(feeds_kb) * 1024
    print(f"| {int(ch):,} | {days} | {n:,} | {xml_mb} MB | {lint:.2f} s | {build:.2f} s | {build / lint:.1f}x "
          f"| {build_mb:,.0f} MB | {build_mb / int(xml_mb):.1f}x | {latest_mb} MB | {packed_mb} MB | {float(startup):.2f} s "
          f"| {rss_b / 1e6:,.0f} MB | {rss_b / n:,.0f} | {float(feeds_s):.2f} s | {feeds_b / 1e6:,.0f} MB | {feeds_b / n:,.0f} |")
print("\ntargets at 3,000 x 7: serve <= 600 bytes/programme after the feeds and <= 1 s start-up; "
      "build peak < XMLTV size and build <= 3x xmllint; at 10,000 x 14, serve under 2 GB after the feeds")
PY
