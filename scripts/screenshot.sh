#!/usr/bin/env bash
# Loads the web guide in a real headless browser (Debian's chromium) from the real binary,
# `tvguide serve` on the golden snapshot with the default providers.yaml (offline: no refresh)
# and a fixed clock, saves screenshots in docs/screenshots/, and fails unless the page's
# JavaScript ran and the grid shows the channels in the channel map's order, or when a page
# writes anything to the browser's console (an uncaught error above all: the guide's script logs
# nothing when all is well).
#
#   scripts/screenshot.sh    # writes docs/screenshots/{grid,grid-phone,channel,detail,detail-phone,detail-nojs,not-found}.png
#                            # and, for each view, in Spanish and English (LANG = es, en):
#                            #   VIEW-LANG.png (1280×900), VIEW-phone-LANG.png (390×844),
#                            #   VIEW-nojs-LANG.png (1280×900, the page without its script)
#                            # VIEW: grid coming-up find ratings my-calendar my-channels channel programme
#   TVGUIDE_BIN=.build/debug/tvguide scripts/screenshot.sh    # that binary, without building
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

if [[ -n "${TVGUIDE_BIN:-}" ]]; then
    tvguide=$TVGUIDE_BIN
else
    swift build --product tvguide
    tvguide="$(swift build --show-bin-path)/tvguide"
fi

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
# The browser asks for $lang (Accept-Language); its profile is $profile (cookies kept between runs).
# Its log goes to $work/last.log, appended to chromium.log: `console_clean` reads what the page
# wrote to the console (chromium logs each message as INFO:CONSOLE, whatever its level).
lang=en
profile=default
chrome() {
    local status=0
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
        --user-data-dir="$work/profile-$profile" --host-resolver-rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1" \
        --accept-lang="$lang" --lang="$lang" --enable-logging=stderr --v=0 \
        "$@" 2>"$work/last.log" || status=$?
    cat "$work/last.log" >>"$work/chromium.log"
    return $status
}

console_clean() { # what: fails when the last page wrote to its console
    local lines
    lines=$(grep -E ':CONSOLE[:(]|Uncaught' "$work/last.log" || true)
    if [[ -n "$lines" ]]; then
        echo "screenshot.sh: $1 wrote to the browser's console:" >&2
        sed 's/^/  /' <<<"$lines" >&2
        exit 1
    fi
}

shoot() { # name width height path-or-url
    local url="$4"
    [[ "$url" == /* ]] && url="${base%/}$url"
    rm -f "$out/$1.png"
    chrome --window-size="$2,$3" --screenshot="$out/$1.png" "$url" >/dev/null
    if [[ ! -s "$out/$1.png" ]]; then
        echo "screenshot.sh: no screenshot for $1; chromium said:" >&2
        tail -20 "$work/last.log" >&2
        exit 1
    fi
    console_clean "$1 ($url)"
    echo "wrote docs/screenshots/$1.png"
}

# The server's page as a file without its scripts, the stylesheet still the server's (<base>):
# chromium takes no screenshot with scripts turned off. Sends the language and the cookies of
# $work/cookies-$profile (curl's jar).
nojs() { # path file
    curl -fsS -H "Accept-Language: $lang" -b "$work/cookies-$profile" "${base%/}$1" \
        | sed -e 's|<script[^>]*>[^<]*</script>||g' -e "s|<head>|<head><base href=\"$base\">|" >"$2"
    if grep -q '<script' "$2"; then
        echo "screenshot.sh: $1 still has a script tag" >&2
        exit 1
    fi
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
touch "$work/cookies-default"
nojs "/programme/$film" "$work/detail-nojs.html"
shoot detail-nojs 1280 900 "file://$work/detail-nojs.html"
shoot not-found 1280 600 "/nope"

# Every view in both languages: on a desktop, on a phone, and without its script. Each language
# has its own browser profile and curl jar, holding a reminder for the film so that My calendar
# shows something.
views=(grid:/ coming-up:/coming-up "find:/find?q=gladiator" ratings:/ratings my-calendar:/my-calendar
       my-channels:/my-channels channel:/channel/La1.es "programme:/programme/$film")
for lang in es en; do
    profile=$lang
    chrome --dump-dom "${base%/}/my-calendar/add?programme=$film" >/dev/null
    curl -fsS -o /dev/null -c "$work/cookies-$profile" "${base%/}/my-calendar/add?programme=$film"
    if ! chrome --dump-dom "${base%/}/my-calendar" | grep -q "data-programme=\"$film\""; then
        echo "screenshot.sh: note: the reminder did not outlive the browser (a session cookie?): my-calendar-$lang shows none" >&2
    fi
    for view in "${views[@]}"; do
        name=${view%%:*}
        path=${view#*:}
        shoot "$name-$lang" 1280 900 "$path"
        shoot "$name-phone-$lang" 390 844 "$path"
        nojs "$path" "$work/$name-nojs-$lang.html"
        if ! grep -q "<html[^>]* lang=\"$lang\"" "$work/$name-nojs-$lang.html"; then
            echo "screenshot.sh: $path asked for in $lang does not say <html lang=\"$lang\">" >&2
            exit 1
        fi
        shoot "$name-nojs-$lang" 1280 900 "file://$work/$name-nojs-$lang.html"
    done
done
lang=en
profile=default

# The DOM after the scripts ran: guide.js marks <body data-js="ready"> as its last step.
dom=$(chrome --window-size=1280,900 --dump-dom "$base")
console_clean "the grid"
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
