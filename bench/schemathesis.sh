#!/usr/bin/env bash
# Schemathesis (PyPI `schemathesis`) against the served /openapi.yaml. `tvguide serve`
# (debug build, the default providers.yaml, the golden snapshot as latest.json, the clock fixed
# inside its window, no refresh) answers every request Schemathesis makes up from the document;
# the checks are that no answer is a 5xx, that every status, content type and JSON body is one
# the document describes, and that every request the document does not allow (the negative
# phase: an empty value, a bad date, too many items…) is refused with a 4xx. A refusal for a
# target too long to read (414) counts as one: Schemathesis' default list leaves it out.
#
#   bench/schemathesis.sh                                  # 200 examples per operation
#   MAX_EXAMPLES=1000 SEED=7 bench/schemathesis.sh
#   RELIABILITY_OUT=dir bench/schemathesis.sh              # also writes dir/schemathesis.tsv
#
# Prints Schemathesis' summary; exits 1 when it found anything. Schemathesis is installed in
# bench/.work/schemathesis (a virtualenv) on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
max_examples=${MAX_EXAMPLES:-200}
seed=${SEED:-11}
# A debug build renders the whole XMLTV export (4,002 programmes) in seconds, several on a loaded
# machine: Schemathesis' default of 10 s counted those answers as network errors.
request_timeout=${REQUEST_TIMEOUT:-60}
checks=not_a_server_error,response_schema_conformance,content_type_conformance,status_code_conformance,negative_data_rejection
work=bench/.work/schemathesis
mkdir -p "$work"
cat > "$work/schemathesis.toml" <<'TOML'
[checks.negative_data_rejection]
expected-statuses = [400, 404, 414, 431]
TOML

venv=$work/venv
if [[ ! -x $venv/bin/schemathesis ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet schemathesis
fi
version=$("$venv/bin/schemathesis" --version | awk '{print $NF}')

swift build --product tvguide >"$work/build.log" 2>&1 || { tail -40 "$work/build.log" >&2; exit 2; }
bin=$(swift build --show-bin-path)/tvguide
rm -rf "$work/snapshots"
mkdir -p "$work/snapshots"
cp Fixtures/golden/offline-default.json "$work/snapshots/latest.json"

server=
cleanup() { [[ -z $server ]] || kill "$server" 2>/dev/null || true; }
trap cleanup EXIT
"$bin" serve --config providers.yaml --snapshots "$work/snapshots" --port 0 --no-refresh \
    --now 2026-10-21T19:00:00Z >"$work/serve.out" 2>"$work/serve.log" &
server=$!
port=
for _ in $(seq 100); do
    port=$(grep -oE '[0-9]+' "$work/serve.out" | tail -1 || true)
    [[ -n $port ]] && break
    sleep 0.1
done
[[ -n $port ]] || { echo "tvguide serve printed no port" >&2; cat "$work/serve.log" >&2; exit 2; }

rm -rf "$work/report"
status=0
started=$SECONDS
"$venv/bin/schemathesis" --config-file "$work/schemathesis.toml" run "http://127.0.0.1:$port/openapi.yaml" --checks "$checks" \
    --max-examples "$max_examples" --seed "$seed" --workers 2 --continue-on-failure --request-timeout "$request_timeout" \
    --report junit --report-dir "$work/report" --no-color >"$work/run.log" 2>&1 || status=$?
elapsed=$((SECONDS - started))
sed -n '/SUMMARY/,$p' "$work/run.log"

# The JUnit report: one test case per operation, a failure element per operation that failed.
failed=$(python3 - "$work/report" <<'PY'
import sys, pathlib, xml.etree.ElementTree as ET
cases = [case for path in pathlib.Path(sys.argv[1]).glob("*.xml") for case in ET.parse(path).iter("testcase")]
print(len({case.get("name") for case in cases if case.find("failure") is not None or case.find("error") is not None}))
PY
)
# Schemathesis' summary: "Tested: N" under "API Operations:", "N generated, N passed" under "Test cases:".
tested=$(sed -n 's/^ *Tested: *\([0-9]*\).*/\1/p' "$work/run.log" | tail -1)
generated=$(grep -A1 '^Test cases:' "$work/run.log" | sed -n 's/^ *\([0-9]*\) generated.*/\1/p' | tail -1)
problems=$(grep -A1 '^Test cases:' "$work/run.log" | { grep -oE '[0-9]+ (failed|errored)' || true; } | awk '{n += $1} END {print n + 0}')
if [[ -n ${RELIABILITY_OUT:-} ]]; then
    mkdir -p "$RELIABILITY_OUT"
    printf 'schemathesis\toperations\tmax_examples\tseed\tcases\tfailed_or_errored_cases\tfailed_operations\tseconds\n' >"$RELIABILITY_OUT/schemathesis.tsv"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$version" "${tested:-0}" "$max_examples" "$seed" "${generated:-0}" "$problems" "$failed" "$elapsed" >>"$RELIABILITY_OUT/schemathesis.tsv"
fi
echo "schemathesis $version: ${tested:-0} operations, ${generated:-0} test cases, $problems failed or errored, $failed operations failed (log: $work/run.log)"
[[ $status -eq 0 && $failed -eq 0 && $problems -eq 0 ]] || exit 1
