#!/usr/bin/env bash
# Builds the libFuzzer targets (AddressSanitizer on) and runs each for a bounded time, one at a
# time. See fuzz/README.md.
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET…]      default: 60 s, every target
#   RELIABILITY_OUT=dir fuzz/run.sh 60              also appends to dir/fuzz.tsv (bench/reliability.sh)
#
# Prints per target the seconds, executions, crashes and peak RSS; exits 1 when any target
# crashed, hung (over 10 s on one input) or ran out of memory (2 GB), and keeps the input under
# .build-fuzz/crashes/TARGET/. The corpus a run grows stays in .build-fuzz/corpus/TARGET and is
# fuzzed again next time, together with the seeds fuzz/seeds.py cuts from Fixtures/.
set -euo pipefail
cd "$(dirname "$0")/.."

ALL_TARGETS=(xmltv miguiatv tmdb thetvdb scrape-html json-feed config snapshot icalendar router)
SECONDS_PER_TARGET=60
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
    SECONDS_PER_TARGET=$1
    shift
fi
TARGETS=("$@")
[[ ${#TARGETS[@]} -gt 0 ]] || TARGETS=("${ALL_TARGETS[@]}")
for target in "${TARGETS[@]}"; do
    [[ " ${ALL_TARGETS[*]} " == *" $target "* ]] || { echo "unknown target '$target'; targets: ${ALL_TARGETS[*]}" >&2; exit 2; }
done

# The longest input worth mutating per format: a few channels, rows or records.
max_len() {
    case $1 in
        config|miguiatv|json-feed) echo 8192 ;;
        icalendar) echo 4096 ;;
        router) echo 1024 ;;
        tmdb|thetvdb|snapshot) echo 40000 ;;
        *) echo 16384 ;;
    esac
}

BUILD_PATH=.build-fuzz
mkdir -p "$BUILD_PATH"
BUILD=(swift build --build-path "$BUILD_PATH" -c release --sanitize=address -Xswiftc -sanitize=fuzzer -Xcc -fsanitize=fuzzer-no-link -Xswiftc -enable-testing)
for target in "${TARGETS[@]}"; do
    echo "building fuzz-$target…"
    if ! TVGUIDE_FUZZ=1 "${BUILD[@]}" --product "fuzz-$target" >"$BUILD_PATH/build.log" 2>&1; then
        grep -E "error:" "$BUILD_PATH/build.log" >&2 || tail -20 "$BUILD_PATH/build.log" >&2
        exit 2
    fi
done
BIN=$(TVGUIDE_FUZZ=1 "${BUILD[@]}" --show-bin-path)

if [[ -n ${RELIABILITY_OUT:-} ]]; then
    mkdir -p "$RELIABILITY_OUT"
    TSV=$RELIABILITY_OUT/fuzz.tsv
    [[ -s $TSV ]] || printf 'target\tseconds\texecutions\tcrashes\tpeak_rss_mb\n' >"$TSV"
fi

failed=0
printf '%-12s %8s %12s %8s %12s\n' target seconds executions crashes peak_rss_mb
for target in "${TARGETS[@]}"; do
    seeds=$BUILD_PATH/seeds/$target corpus=$BUILD_PATH/corpus/$target crashes=$BUILD_PATH/crashes/$target
    log=$BUILD_PATH/logs/$target.log dict=$BUILD_PATH/seeds/$target.dict
    rm -rf "$seeds"
    mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
    python3 fuzz/seeds.py "$target" "$seeds" "$dict" >/dev/null
    before=$(find "$crashes" -type f | wc -l)
    start=$SECONDS
    # -timeout: one input over 10 s is a hang; -rss_limit_mb (and the malloc limit it implies): 2 GB.
    # No LeakSanitizer: it takes Swift's globals (pointers with spare bits set) for leaks; growth
    # that matters shows in the RSS limit.
    status=0
    # Swift's own backtracer off: libFuzzer and ASan report the trap, and keep the input.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$BIN/fuzz-$target" "$corpus" "$seeds" -dict="$dict" -max_len="$(max_len "$target")" \
        -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 \
        -artifact_prefix="$crashes/" -print_final_stats=1 >"$log" 2>&1 || status=$?
    elapsed=$((SECONDS - start))
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
    found=$(( $(find "$crashes" -type f | wc -l) - before ))
    if [[ $status -ne 0 && $found -eq 0 ]]; then found=1; fi
    printf '%-12s %8s %12s %8s %12s\n' "$target" "$elapsed" "${executions:-?}" "$found" "${rss:-?}"
    [[ -z ${TSV:-} ]] || printf '%s\t%s\t%s\t%s\t%s\n' "$target" "$elapsed" "${executions:-0}" "$found" "${rss:-0}" >>"$TSV"
    if [[ $found -ne 0 ]]; then
        failed=1
        grep -E "^==[0-9]+==ERROR|Fatal error|SUMMARY|Test unit written" "$log" | head -5 | sed 's/^/    /' >&2
        echo "    log: $log; reproduce: $BIN/fuzz-$target INPUT" >&2
    fi
done
exit $failed
