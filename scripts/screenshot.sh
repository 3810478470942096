#!/usr/bin/env bash
# Loads the web guide in a real headless browser (Debian's chromium) from the real binary,
# `tvguide serve` on the golden snapshot with the default providers.yaml (offline: no refresh)
# and a fixed clock, saves screenshots in docs/screenshots/, and fails unless the page's
# JavaScript ran and the grid shows the channels in the channel map's order.
#
#   scripts/screenshot.sh    # writes docs/screenshots/{grid,grid-phone,channel,detail,detail-phone,detail-nojs,not-found}.png
#
# Installs nothing: needs chromium (apt-get install chromium) and a Swift toolchain.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
out="$root/docs/screenshots"
# Twenty minutes into the evening news: the now line crosses programmes, whose titles and
# times must be drawn over it.
now="2026-10-21T19:20:00Z"
# A film with a poster and a second airing (Gladiator on Antena 3).
film="Antena3.es@20261021T205000Z"

browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z "$browser" ]]; then
    echo "screenshot.sh: chromium is not installed; on Debian or Ubuntu: sudo apt-get install chromium" >&2
    exit 2
fi

swift build --product tvguide
tvguide="$(swift build --show-bin-path)/tvguide"

work=$(mktemp -d)
server=""
cleanup() {
    if [[ -n "$server" ]]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

cp Fixtures/golden/offline-default.json "$work/latest.json"
"$tvguide" serve --config providers.yaml --snapshots "$work" --port 0 --no-refresh --now "$now" >"$work/server.out" 2>"$work/server.err" &
server=$!

# The first stdout line is "Serving the guide on http://127.0.0.1:PORT/".
base=""
for _ in $(seq 1 150); do
    base=$(sed -n '1s|^Serving the guide on \(http://[^ ]*/\)$|\1|p' "$work/server.out")
    [[ -n "$base" ]] && break
    if ! kill -0 "$server" 2>/dev/null; then
        echo "screenshot.sh: the server stopped before it listened:" >&2
        cat "$work/server.err" >&2
        exit 1
    fi
    sleep 0.2
done
if [[ -z "$base" ]]; then
    echo "screenshot.sh: the server did not say where it listens within 30 s" >&2
    exit 1
fi
echo "server: $base"

# Every host but the server's fails to resolve: the pages must look right offline, where the
# posters (remote URLs) do not load, and the shots must not depend on the network.
chrome() {
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
        --user-data-dir="$work/profile" --host-resolver-rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1" \
        "$@" 2>>"$work/chromium.log"
}

shoot() { # name width height path-or-url
    local url="$4"
    [[ "$url" == /* ]] && url="${base%/}$url"
    chrome --window-size="$2,$3" --screenshot="$out/$1.png" "$url" >/dev/null
    if [[ ! -s "$out/$1.png" ]]; then
        echo "screenshot.sh: no screenshot for $1; chromium said:" >&2
        tail -20 "$work/chromium.log" >&2
        exit 1
    fi
    echo "wrote docs/screenshots/$1.png"
}

mkdir -p "$out"
# From the half hour before the clock, so that the now line stands clear of the channel
# column; tall enough for every channel, Paramount Network's name cut with an ellipsis.
shoot grid 1280 1500 "/?at=2026-10-21T18:30:00Z"
shoot grid-phone 390 844 "/"
shoot channel 1280 900 "/channel/La1.es"
shoot detail 1280 900 "/programme/$film"
shoot detail-phone 390 844 "/programme/$film"
# Without JavaScript the poster that cannot load must leave the placeholder's title readable.
# Chromium takes no screenshot with scripts turned off, so this is the server's own page and
# stylesheet with the script tag taken out, opened from a file.
curl -fsS "${base%/}/programme/$film" \
    | sed -e 's|<script src="[^"]*" defer></script>||' -e "s|<head>|<head><base href=\"$base\">|" >"$work/detail-nojs.html"
if grep -q '<script' "$work/detail-nojs.html"; then
    echo "screenshot.sh: the film's page still has a script tag" >&2
    exit 1
fi
shoot detail-nojs 1280 900 "file://$work/detail-nojs.html"
shoot not-found 1280 600 "/nope"

# The DOM after the scripts ran: guide.js marks <body data-js="ready"> as its last step.
dom=$(chrome --window-size=1280,900 --dump-dom "$base")
if ! grep -q 'data-js="ready"' <<<"$dom"; then
    echo "screenshot.sh: guide.js did not run (no data-js=\"ready\" on <body>)" >&2
    exit 1
fi
if ! grep -q 'Telediario 2' <<<"$dom"; then
    echo "screenshot.sh: the grid does not show La 1's Telediario 2 at $now" >&2
    exit 1
fi
echo "guide.js ran: <body data-js=\"ready\">"

# The rows in the order of providers.yaml's channel map, not the snapshot's id order.
rows=$(grep -o '<div class="row" data-channel="[^"]*"' <<<"$dom" | sed 's/.*data-channel="//; s/"$//' | paste -sd' ')
mapped=$(sed -n 's/^  - { id: \([^, ]*\),.*/\1/p' providers.yaml | paste -sd' ')
if [[ "$rows" != "$mapped" ]]; then
    echo "screenshot.sh: the grid's rows are not in the channel map's order:" >&2
    echo "  grid: $rows" >&2
    echo "  map:  $mapped" >&2
    exit 1
fi
echo "rows in the channel map's order: ${rows%% *} first"
