#!/usr/bin/env bash
# HTTP/1.1 conformance, side by side with nginx. Starts `tvguide serve` on the golden
# snapshot (clock fixed, no refresh) and nginx on loopback with its own temporary configuration
# (no root needed), serving tvguide's `/health` and `/xmltv.xml` bodies as static files with gzip
# as it is usually set up (`gzip_vary`, XML among `gzip_types`, bodies of 1 kB and more). Then
# bench/http_conformance.py sends the same raw requests to both and prints a Markdown table of
# each answer's status, `Connection` field and whether the server closed the connection.
# Usage: bench/http-conformance.sh   (BIN=path/to/tvguide; default: the debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in nginx curl python3; do
    command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install -y nginx-light curl python3" >&2; exit 1; }
done
bin=${BIN:-.build/debug/tvguide}
[ -x "$bin" ] || { echo "no $bin: swift build --product tvguide first (or set BIN)" >&2; exit 1; }
work=bench/.work/http-conformance
rm -rf "$work"
mkdir -p "$work/snapshots" "$work/nginx/static" "$work/nginx/logs" "$work/nginx/temp"
abs=$(cd "$work" && pwd)
cp Fixtures/golden/offline-default.json "$work/snapshots/latest.json"

servers=()
cleanup() {
    for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT

"$bin" serve --snapshots "$work/snapshots" --port 0 --no-refresh --now 2026-10-21T19:20:00Z > "$work/tvguide.out" 2> "$work/tvguide.err" &
servers+=($!)
for _ in $(seq 200); do grep -q "Serving the guide on" "$work/tvguide.out" && break; sleep 0.05; done
port=$(sed -n 's|^Serving the guide on http://[^:]*:\([0-9]*\)/$|\1|p' "$work/tvguide.out")
[ -n "$port" ] || { echo "tvguide serve did not start:" >&2; cat "$work/tvguide.err" >&2; exit 1; }

static="$abs/nginx/static"
curl -sf "http://127.0.0.1:$port/health" -o "$static/health"
curl -sf "http://127.0.0.1:$port/xmltv.xml" -o "$static/xmltv.xml"
# Workers may run as another user when started by root: let them read the files.
chmod -R a+rX "$abs/nginx"
nginx_port=$(python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
cat > "$abs/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $abs/nginx/nginx.pid;
error_log $abs/nginx/logs/error.log warn;
events { worker_connections 64; }
http {
    access_log off;
    types { application/xml xml; }
    default_type application/json;
    gzip on;
    gzip_vary on;
    gzip_min_length 1024;
    gzip_types application/xml application/json;
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
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$nginx_port/health" -o /dev/null && break; sleep 0.05; done
curl -sf "http://127.0.0.1:$nginx_port/health" -o /dev/null || { echo "nginx did not start:" >&2; cat "$abs/nginx/logs/error.log" >&2; exit 1; }
echo "tvguide ($bin) on port $port, nginx $(nginx -v 2>&1 | sed 's|.*/||') on port $nginx_port"
echo
python3 bench/http_conformance.py "$port" "$nginx_port"
