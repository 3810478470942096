#!/usr/bin/env bash
# The reliability report. Runs each part of the reliability work, keeps its raw figures
# in docs/reliability/<part>.tsv, and renders docs/reliability.md from every part's TSV, so a part
# can be re-run alone and the report still shows the others (each with the date it was run).
#
#   bench/reliability.sh                 # every part, with the lengths below
#   bench/reliability.sh chaos kill      # only these parts; the others keep their last figures
#   bench/reliability.sh render          # only re-render docs/reliability.md
#
# Lengths (environment): KILL_ITERATIONS=200 FUZZ_SECONDS=300 (per target) SOAK_SECONDS=300
# SCHEMATHESIS_EXAMPLES=200 (per operation). FUZZ_TARGETS="router icalendar" fuzzes only those
# targets and keeps the other targets' last rows.
# Needs the Debian packages of scripts/install-deps and bench/serve.sh (wrk, curl).
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/reliability
mkdir -p "$out"
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(chaos kill fuzz soak secrets hostile schemathesis)

# Runs one part with RELIABILITY_OUT pointing at a fresh scratch folder, then keeps its TSV.
run_part() {
    local part=$1; shift
    local scratch
    scratch=$(mktemp -d)
    echo "== $part: $*"
    local started=$SECONDS
    RELIABILITY_OUT=$scratch "$@"
    [ -s "$scratch/$part.tsv" ] || { echo "$part wrote no $part.tsv" >&2; exit 1; }
    if [[ $part == fuzz && -n ${FUZZ_TARGETS:-} && -s $out/fuzz.tsv ]]; then
        # Some targets only: their new rows, the others' last ones, in the order of the file.
        python3 - "$out/fuzz.tsv" "$scratch/fuzz.tsv" <<'PY'
import sys
old, new = ([line.rstrip("\n").split("\t") for line in open(path)] for path in sys.argv[1:3])
fresh = {row[0]: row for row in new[1:]}
rows = [fresh.pop(row[0], row) for row in old[1:]] + list(fresh.values())
open(sys.argv[1], "w").write("".join("\t".join(row) + "\n" for row in [old[0]] + rows))
PY
    else
        cp "$scratch/$part.tsv" "$out/$part.tsv"
    fi
    printf '%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$((SECONDS - started))" "$(git rev-parse --short HEAD)" > "$out/$part.run"
    rm -rf "$scratch"
}

for part in "${parts[@]}"; do
    case $part in
        chaos) swift build --build-tests >/dev/null
               run_part chaos swift test --skip-build --filter ChaosTests ;;
        kill) swift build --build-tests >/dev/null
              run_part kill env TVGUIDE_KILL_ITERATIONS="${KILL_ITERATIONS:-200}" swift test --skip-build --filter CrashSafetyTests ;;
        # shellcheck disable=SC2086 # FUZZ_TARGETS is a list of names
        fuzz) run_part fuzz fuzz/run.sh "${FUZZ_SECONDS:-300}" ${FUZZ_TARGETS:-} ;;
        soak) run_part soak env SOAK_SECONDS="${SOAK_SECONDS:-300}" bench/soak.sh ;;
        secrets) swift build --build-tests >/dev/null
                 run_part secrets swift test --skip-build --filter SecretsTests ;;
        hostile) run_part hostile bench/hostile-xmltv.sh ;;
        schemathesis) run_part schemathesis env MAX_EXAMPLES="${SCHEMATHESIS_EXAMPLES:-200}" bench/schemathesis.sh ;;
        render) ;;
        *) echo "unknown part '$part' (chaos, kill, fuzz, soak, secrets, hostile, schemathesis, render)" >&2; exit 64 ;;
    esac
done

python3 bench/render_reliability.py "$out" docs/reliability.md
echo "wrote docs/reliability.md"
