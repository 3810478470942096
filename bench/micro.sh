#!/usr/bin/env bash
# Micro-benchmarks of the hot paths, with ordo-one/benchmark: the snapshot's encode and
# decode, its binary companion's (latest.packed) encode and decode, the server's index, the
# interner and the XMLTV parse, on a synthetic week of 100 channels (Benchmarks/GuideBenchmarks). The package declares the benchmark target only under
# TVGUIDE_MICROBENCH=1, built in .build-micro, so that `swift build` and CI never compile it.
# Usage: bench/micro.sh [ARGS…]   (ARGS go to `swift package benchmark`, e.g. `--filter decode`,
#        or `baseline update main` then `baseline compare main` to compare two checkouts)
set -euo pipefail
cd "$(dirname "$0")/.."
export TVGUIDE_MICROBENCH=1
exec swift package --scratch-path .build-micro --disable-sandbox --allow-writing-to-package-directory benchmark "$@"
