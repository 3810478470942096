#!/usr/bin/env bash
# The audience scraper, side by side in one run on the recorded formulatv fortnight
# (Fixtures/formulatv/audiencias: 14 day pages of about 100 KB, 560 ranking rows):
#   1. Python's lxml.html + XPath (bench/lxml_audiences.py) and tvguide's scraper (scrape-bench,
#      bench/ScrapeBench) doing the same extraction with the same recipe, providers.yaml's
#      formulatv, on one thread: MB/s at the median pass, and the same records on both sides;
#   2. tvguide's product path: the 14 days through ScrapeAudienceProvider + AudienceChain (its
#      default day concurrency) over a ReplayTransport of the recording;
#   3. the join of those records to the 50,000-programme benchmark guide plus the sample guide
#      they measure (its week, 19-25 Oct, and the same week moved back one, 12-18 Oct).
# MB are 10^6 bytes; every figure is the median of PASSES timed passes after one untimed.
# Usage: bench/audiences.sh [PASSES]   (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
passes=${1:-30}
work=bench/.work
pages=Fixtures/formulatv/audiencias
venv=$work/venv
mkdir -p "$work"

if ! "$venv/bin/python" -c "import lxml" 2>/dev/null; then
    echo "== installing lxml from PyPI into $venv"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet lxml
fi

echo "== generating 300 channels x 7 days"
python3 bench/make_xmltv.py 300 7 "$work/a.xml"
echo "a.xml: $(du -h "$work/a.xml" | cut -f1), $(grep -c '<programme' "$work/a.xml") programmes"

swift build -c release --product scrape-bench >/dev/null 2>"$work/scrape-bench.build.log" || { cat "$work/scrape-bench.build.log" >&2; exit 1; }
bin=$(swift build -c release --show-bin-path)/scrape-bench

echo "== 1. lxml.html + XPath, ${passes} passes"
"$venv/bin/python" bench/lxml_audiences.py "$pages" --passes "$passes" --json --dump "$work/lxml.jsonl" > "$work/lxml.json"
echo "== 2. tvguide: single thread, product path, join, ${passes} passes each"
"$bin" --pages "$pages" --replay Fixtures/formulatv --guide "$work/a.xml" --sample Fixtures/xmltv/sample.xml \
    --passes "$passes" --json --dump "$work/scrape.jsonl" > "$work/scrape.json"

python3 - "$work" "$(pkg-config --modversion libxml-2.0)" "$(nproc)" <<'PY'
import json, sys
w, libxml, cores = sys.argv[1], sys.argv[2], sys.argv[3]
lxml = json.load(open(f"{w}/lxml.json"))
tv = json.load(open(f"{w}/scrape.json"))
single, product, join = tv["single"], tv["product"], tv["join"]

def records(name):
    rows = [json.loads(line) for line in open(f"{w}/{name}.jsonl")]
    # Shares are parsed from the same decimal text; only the float's last digit may differ.
    return [dict(row, share=round(row["share"], 6)) if "share" in row else row for row in rows]
same = records("lxml") == records("scrape")

by_week = {"12-18 Oct": [0, 0], "19-25 Oct": [0, 0]}
for day in join["by_day"]:
    week = by_week["19-25 Oct" if day["day"] >= "2026-10-19" else "12-18 Oct"]
    week[0] += day["joined"]
    week[1] += day["records"]

def row(label, value, target=""):
    print(f"  {label:<58} {value:>16}   {target}".rstrip())
print(f"\nResults: {tv['pages']} pages, {tv['bytes'] / 1e6:.2f} MB, {cores} cores; "
      f"{lxml['tool']}; tvguide on the system libxml2 {libxml}")
row("lxml.html + XPath, single thread", f"{lxml['mb_per_s']:.1f} MB/s")
row("tvguide ScrapeExtractor, single thread", f"{single['mb_per_s']:.1f} MB/s")
row("  ratio tvguide / lxml", f"{single['mb_per_s'] / lxml['mb_per_s']:.2f}x", "target >= 1x")
row("  rows lxml / tvguide (advert rows skipped)",
    f"{lxml['rows']} / {single['rows']} ({lxml['adverts_skipped']} / {single['adverts_skipped']})")
row("  same records on both sides", "yes" if same else "NO")
row(f"tvguide product path ({product['concurrent_days']} days at once, replay)", f"{product['mb_per_s']:.1f} MB/s")
row("  ratio product path / lxml", f"{product['mb_per_s'] / lxml['mb_per_s']:.2f}x", "target >= 1x")
row(f"  wall time, {product['days']} days, {product['records']} records", f"{product['timings']['median_seconds'] * 1000:.1f} ms")
row("join: programmes (bench guide + sample, two weeks)",
    f"{join['programmes']} ({join['bench_programmes']} + {join['sample_programmes']})")
row("join: records / joined / unjoined", f"{join['records']} / {join['joined']} / {join['unjoined']}")
for week, (joined, total) in by_week.items():
    row(f"  joined, {week}", f"{joined} / {total}")
row("join time (AudienceJoin().join)", f"{join['timings']['median_seconds'] * 1000:.1f} ms")
row("XMLTV parse of the bench guide (once, for reference)", f"{join['guide_parse_s']:.2f} s")
if not same:
    sys.exit(f"the two sides extracted different records: compare {w}/lxml.jsonl and {w}/scrape.jsonl")
PY
