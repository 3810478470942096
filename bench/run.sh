#!/usr/bin/env bash
# The build pipeline, side by side in one run on the same generated guide:
#   1. `tvguide build` from one XMLTV file (parse, normalise, snapshot write)
#      vs `xmllint --stream --noout` (the raw libxml2 parse floor) and `tv_sort --by-channel`;
#   2. merging two sources (the second shifted by 15 minutes)
#      vs `tv_sort` of each + `tv_merge`;
#   3. peak memory of `tvguide build`.
# Usage: bench/run.sh [CHANNELS DAYS]   (default 300 7: about 50,000 programmes, 25 MB)
set -euo pipefail
cd "$(dirname "$0")/.."
channels=${1:-300}
days=${2:-7}
runs=${RUNS:-5}
work=bench/.work
mkdir -p "$work"
for tool in hyperfine xmllint tv_sort tv_merge; do
    command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install -y hyperfine libxml2-utils xmltv-util" >&2; exit 1; }
done

echo "== generating ${channels} channels x ${days} days"
python3 bench/make_xmltv.py "$channels" "$days" "$work/a.xml"
python3 bench/make_xmltv.py "$channels" "$days" "$work/b.xml" --shift-minutes 15
echo "a.xml: $(du -h "$work/a.xml" | cut -f1), $(grep -c '<programme' "$work/a.xml") programmes"

swift build -c release --product tvguide >/dev/null
bin=$(swift build -c release --show-bin-path)/tvguide
abs=$(cd "$work" && pwd)
cat > "$work/one.yaml" <<YAML
window: { past: 3d, days: 8 }
cache: { dir: cache }
snapshots: { dir: snap-one, keep: 2 }
guide: [a]
providers:
  a: { type: xmltv, url: $abs/a.xml }
YAML
cat > "$work/two.yaml" <<YAML
window: { past: 3d, days: 8 }
cache: { dir: cache }
snapshots: { dir: snap-two, keep: 2 }
guide: [a, b]
providers:
  a: { type: xmltv, url: $abs/a.xml }
  b: { type: xmltv, url: $abs/b.xml }
YAML
now=2026-10-22T06:00:00Z

json() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['mean'])" "$1"; }

echo "== 1. one source"
hyperfine -N --warmup 1 --runs "$runs" --export-json "$work/xmllint.json" "xmllint --stream --noout $work/a.xml" >/dev/null
hyperfine -N --warmup 1 --runs "$runs" --export-json "$work/build-one.json" "$bin build --quiet --config $work/one.yaml --now $now" >/dev/null
hyperfine -N --runs 1 --export-json "$work/tvsort.json" "tv_sort --by-channel --output $work/a.sorted.xml $work/a.xml" >/dev/null
echo "== 2. two sources"
hyperfine -N --warmup 1 --runs "$runs" --export-json "$work/build-two.json" "$bin build --quiet --config $work/two.yaml --now $now" >/dev/null
hyperfine --runs 1 --export-json "$work/tvmerge.json" \
    "tv_sort --by-channel --output $work/a.s.xml $work/a.xml && tv_sort --by-channel --output $work/b.s.xml $work/b.xml && tv_merge -i $work/a.s.xml -m $work/b.s.xml -o $work/merged.xml" >/dev/null
echo "== 3. peak memory"
/usr/bin/time -f "%M" -o "$work/rss-one" "$bin" build --quiet --config "$work/one.yaml" --now "$now"
/usr/bin/time -f "%M" -o "$work/rss-two" "$bin" build --quiet --config "$work/two.yaml" --now "$now"

python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
mean = lambda name: json.load(open(f"{w}/{name}.json"))["results"][0]["mean"]
xmllint, one, tvsort, two, tvmerge = (mean(n) for n in ("xmllint", "build-one", "tvsort", "build-two", "tvmerge"))
rss_one = int(open(f"{w}/rss-one").read().split()[-1]) / 1024
rss_two = int(open(f"{w}/rss-two").read().split()[-1]) / 1024
def row(label, value, target):
    print(f"  {label:<52} {value:>8}   target {target}")
print("\nResults")
row("xmllint --stream --noout a.xml", f"{xmllint:.3f}s", "")
row("tvguide build (one source)", f"{one:.3f}s", "")
row("  ratio tvguide / xmllint", f"{one / xmllint:.2f}x", "<= 5x")
row("tv_sort --by-channel a.xml", f"{tvsort:.3f}s", "")
row("  speed-up tvguide vs tv_sort", f"{tvsort / one:.1f}x", ">= 40x")
row("tvguide build (two sources, merged)", f"{two:.3f}s", "")
row("tv_sort a + tv_sort b + tv_merge", f"{tvmerge:.3f}s", "")
row("  speed-up tvguide vs tv_sort + tv_merge", f"{tvmerge / two:.1f}x", ">= 100x")
row("peak RSS, one source", f"{rss_one:.0f} MB", "< 300 MB")
row("peak RSS, two sources", f"{rss_two:.0f} MB", "< 300 MB")
PY
