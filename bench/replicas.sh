#!/usr/bin/env bash
# Replicas of `tvguide serve` sharing a PostgreSQL snapshot store, on loopback.
#   1. convergence: `tvguide build` commits a new guide RUNS times; until every one of the 3
#      replicas' /health shows the new guide (polled every 5 ms), measured from both ends: from
#      the builder's COMMIT (PostgreSQL's commit timestamp) and from the builder's return (its
#      exit), with the time between the two: median and max of each;
#   2. throughput with 1, 2 and 3 replicas: one `wrk -t1 -c$CONNECTIONS` per replica, all at once
#      (no balancer in between: its own cost would be measured too), requests/s summed, /now.
# PostgreSQL is a throw-away cluster (initdb in bench/.work, a free port, run as nobody when root).
# It is a report: it prints the figures and exits 0.
# Usage: bench/replicas.sh   (CHANNELS=100 DAYS=7 RUNS=5 DURATION=10 CONNECTIONS=32; CONFIG=debug to skip the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
channels=${CHANNELS:-100}
days=${DAYS:-7}
runs=${RUNS:-5}
duration=${DURATION:-10}
connections=${CONNECTIONS:-32}
config=${CONFIG:-release}
work=bench/.work
mkdir -p "$work"
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$pgbin/initdb" ] || { echo "missing PostgreSQL: apt-get install -y postgresql" >&2; exit 1; }
for tool in wrk curl python3; do
    command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install -y wrk curl" >&2; exit 1; }
done
abs=$(cd "$work" && pwd)

swift build -c "$config" --product tvguide > "$work/replicas-build.log" 2>&1 || { tail -40 "$work/replicas-build.log" >&2; exit 1; }
bin=$(swift build -c "$config" --show-bin-path)/tvguide

echo "== generating $channels channels x $days days"
python3 bench/make_xmltv.py "$channels" "$days" "$work/replicas.xml"

# PostgreSQL refuses to run as root: then the cluster belongs to nobody.
pg=$abs/replicas-pg
rm -rf "$pg"
mkdir -p "$pg"
as_pg=()
if [ "$(id -u)" -eq 0 ]; then
    chown nobody "$pg"
    as_pg=(runuser -u nobody --)
fi
password="bench-$RANDOM$RANDOM"
echo "$password" > "$pg/pwfile"
[ ${#as_pg[@]} -gt 0 ] && chown nobody "$pg/pwfile"
pgport=$(python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
"${as_pg[@]}" "$pgbin/initdb" -D "$pg/data" -U tvguide --pwfile "$pg/pwfile" --auth-host=scram-sha-256 --auth-local=trust -E UTF8 --no-sync > "$pg/initdb.log"
# track_commit_timestamp: the time of the builder's COMMIT, one end of the convergence figure.
"${as_pg[@]}" "$pgbin/pg_ctl" -D "$pg/data" -o "-p $pgport -k $pg -c listen_addresses=127.0.0.1 -c track_commit_timestamp=on" \
    -l "$pg/server.log" -w start > /dev/null

servers=()
cleanup() {
    for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pg/data" -m fast -w stop > /dev/null 2>&1 || true
}
trap cleanup EXIT

cat > "$work/replicas.yaml" <<YAML
window: { past: 3d, days: 8 }
cache: { dir: replicas-cache }
snapshots: { store: "postgres://tvguide:\${TVGUIDE_PG_PASSWORD}@127.0.0.1:$pgport/postgres", keep: 3 }
guide: [a]
providers:
  a: { type: xmltv, url: $abs/replicas.xml }
YAML
export TVGUIDE_PG_PASSWORD=$password
"$bin" build --quiet --config "$work/replicas.yaml" --now 2026-10-22T06:00:00Z
echo "snapshot in PostgreSQL: $("$pgbin/psql" -X -A -t -h "$pg" -p "$pgport" -U tvguide -d postgres \
    -c "SELECT pg_size_pretty(length(body)::bigint) FROM tvguide_snapshot ORDER BY id DESC LIMIT 1")"

# Replicas follow the store and never build (--no-refresh); the clock is fixed inside the window.
ports=()
for i in 1 2 3; do
    out="$work/replica-$i.out"
    "$bin" serve --config "$work/replicas.yaml" --port 0 --no-refresh --now 2026-10-22T12:00:00Z > "$out" 2> "$work/replica-$i.err" &
    servers+=($!)
    for _ in $(seq 400); do grep -q "Serving the guide on" "$out" && break; sleep 0.05; done
    port=$(sed -n 's|^Serving the guide on http://[^:]*:\([0-9]*\)/$|\1|p' "$out")
    [ -n "$port" ] || { echo "replica $i did not start:" >&2; cat "$work/replica-$i.err" >&2; exit 1; }
    ports+=("$port")
done
echo "replicas on ports ${ports[*]}, PostgreSQL on $pgport"

echo "== 1. commit to every replica serving it, $runs builds"
python3 - "$bin" "$work/replicas.yaml" "$runs" "$pgbin/psql" "$pg" "$pgport" "${ports[@]}" <<'PY'
import json, subprocess, sys, time, urllib.request
binary, config, runs, psql, pg, pgport, ports = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7:]

def served(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as response:
        return json.load(response).get("generatedAt")

def committed():
    """The wall-clock time of the COMMIT that made the latest snapshot the latest."""
    out = subprocess.run([psql, "-X", "-A", "-t", "-h", pg, "-p", pgport, "-U", "tvguide", "-d", "postgres", "-c",
                          "SELECT extract(epoch FROM pg_xact_commit_timestamp(xmin)) FROM tvguide_latest"],
                         check=True, capture_output=True, text=True).stdout
    return float(out.strip())

from_commit, from_exit, commit_to_exit = [], [], []
for run in range(runs):
    now = f"2026-10-22T{7 + run:02d}:00:00Z"
    subprocess.run([binary, "build", "--quiet", "--config", config, "--now", now], check=True)
    exited, exited_wall = time.monotonic(), time.time()
    waiting = set(ports)
    while waiting:
        waiting = {port for port in waiting if served(port) != now}
        if time.monotonic() - exited > 30:
            sys.exit(f"replicas {sorted(waiting)} did not serve {now} within 30 s")
        time.sleep(0.005)
    done, done_wall = time.monotonic(), time.time()
    commit = committed()
    from_exit.append(done - exited)
    from_commit.append(done_wall - commit)
    commit_to_exit.append(exited_wall - commit)

def line(name, values):
    values = sorted(values)
    return (f"  {name:<38} median {values[len(values) // 2] * 1000:5.0f} ms, max {values[-1] * 1000:5.0f} ms "
            f"({', '.join(f'{v * 1000:.0f}' for v in values)} ms)")
print(f"  {len(ports)} replicas serving the new guide:")
print(line("from the builder's COMMIT", from_commit))
print(line("from the builder's return", from_exit))
print(line("the builder, from its COMMIT to return", commit_to_exit))
PY

echo "== 2. wrk -t1 -c$connections -d${duration}s /now on each replica at once"
for n in 1 2 3; do
    pids=()
    for i in $(seq "$n"); do
        wrk -t1 -c"$connections" -d"${duration}s" "http://127.0.0.1:${ports[$((i - 1))]}/now" > "$work/wrk-replicas-$n-$i.txt" &
        pids+=($!)
    done
    wait "${pids[@]}"
    total=$(cat "$work"/wrk-replicas-"$n"-*.txt | sed -n 's/^Requests\/sec:[[:space:]]*\([0-9.]*\)/\1/p' | awk '{ sum += $1 } END { printf "%.0f", sum }')
    echo "  $n replica(s): $total requests/s (load average after: $(cut -d' ' -f1-3 /proc/loadavg))"
done
echo "($(nproc) cores: replicas, wrk and PostgreSQL share them)"
