#!/usr/bin/env bash
# Hostile XMLTV files against `tvguide build`, each followed by a good backup provider, with the peak memory
# of every run (/usr/bin/time -v). Writes $RELIABILITY_OUT/hostile.tsv (bench/reliability.sh hostile).
# The files come from Fixtures/xmltv-conformance/hostile/generate.sh; the bound each run must keep:
# 64 MB plus 4 times the file's size, or plus 110 times it for gzip (Gzip.maximumRatio is 100).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${RELIABILITY_OUT:-.}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product tvguide >/dev/null
bin="$(swift build -c release --show-bin-path)/tvguide"
bash Fixtures/xmltv-conformance/hostile/generate.sh "$work/files" >/dev/null
printf 'case\tbytes\toutcome\tmessage\tpeak_rss_kb\tseconds\tbound_kb\theld\n' > "$out/hostile.tsv"
for file in "$work"/files/*; do
    name=$(basename "$file")
    bytes=$(stat -c %s "$file")
    # A backup after the hostile file: the chain must go on to it.
    rm -rf "$work/snapshots"
    printf 'guide: [hostile, backup]\nsnapshots: { dir: %s/snapshots }\ncache: { dir: %s/cache }\nproviders:\n  hostile: { type: xmltv, url: "%s" }\n  backup: { type: xmltv, url: "%s", shift_weeks: auto }\n' \
        "$work" "$work" "$file" "$PWD/Fixtures/xmltv/sample.xml" > "$work/providers.yaml"
    set +e
    /usr/bin/time -f '%M %e' -o "$work/time" "$bin" build --config "$work/providers.yaml" --from 2026-11-24 --to 2026-11-27 \
        > "$work/stdout" 2> "$work/stderr"
    status=$?
    set -e
    # time -o starts with "Command exited with non-zero status N" when the run failed: the figures are the last line.
    read -r peak seconds < <(tail -n 1 "$work/time")
    message=$(grep -m1 '✗' "$work/stdout" | sed -e 's/^ *✗ *//' -e "s|$work/files/||g" | cut -c1-220 || true)
    case $name in *.gz) factor=110 ;; *) factor=4 ;; esac
    bound=$(( (64 * 1024 * 1024 + factor * bytes) / 1024 ))
    if [ $status -eq 0 ] && grep -q 'hostile *failed' "$work/stdout" && grep -q 'backup *served' "$work/stdout"; then
        outcome="refused; the backup served"
    else
        outcome="exit $status: $(grep -m1 -E 'hostile|backup' "$work/stdout" | tr -s ' ')"
    fi
    held=$([ "$peak" -le "$bound" ] && echo yes || echo no)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$bytes" "$outcome" "${message:--}" "$peak" "$seconds" "$bound" "$held" >> "$out/hostile.tsv"
done
column -t -s $'\t' "$out/hostile.tsv"
