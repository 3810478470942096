#!/usr/bin/env python3
"""Renders docs/reliability.md from the per-part TSVs that bench/reliability.sh keeps.

Usage: render_reliability.py <dir with part.tsv and part.run files> <output.md>
A part that was never run is listed as such rather than left out, so the report says what it lacks.
"""
import csv
import sys
from pathlib import Path

PARTS = [
    ("chaos", "Fault injection", "bench/reliability.sh chaos",
     "Every provider type behind the chaos server (`Tests/TestSupport/ChaosServer.swift`), one fault at a "
     "time, after a healthy run: the run must end within its time budget, report the provider with the "
     "expected typed error, fall back, and keep the last good data."),
    ("kill", "Crash safety (SIGKILL)", "KILL_ITERATIONS=200 bench/reliability.sh kill",
     "`tvguide build` killed with SIGKILL at random points while fetching and while writing; after each kill "
     "every store must hold complete data (old or new) and the next run must succeed."),
    ("fuzz", "Fuzzing (libFuzzer + AddressSanitizer)", "FUZZ_SECONDS=300 bench/reliability.sh fuzz",
     "One target per parser of outside input (`fuzz/README.md`), seeded from `Fixtures/`, and `router`: the "
     "server's router in-process, each answer checked against `/openapi.yaml`. Rows may come from different "
     "runs (`FUZZ_TARGETS`); the run column is the latest."),
    ("soak", "Server soak", "SOAK_SECONDS=300 bench/reliability.sh soak",
     "`tvguide serve` on a 300-channel guide under `wrk`, valid and invalid requests mixed, slow clients "
     "alongside; memory sampled before and after."),
    ("secrets", "Secrets", "bench/reliability.sh secrets",
     "Full runs with API keys set, every output grepped for the key values (plain, percent-encoded, base64)."),
    ("hostile", "Hostile XMLTV", "bench/reliability.sh hostile",
     "`tvguide build` on XMLTV files made to hurt (`Fixtures/xmltv-conformance/hostile/generate.sh`): entity "
     "amplification in attributes, billion laughs, a gzip bomb, deep nesting, each followed by a good backup "
     "provider. Each must be refused with a message that names it, the chain going on to the backup, within "
     "64 MB plus 4 times the file's size (110 times for gzip)."),
    ("schemathesis", "Schemathesis against /openapi.yaml", "bench/reliability.sh schemathesis",
     "`bench/schemathesis.sh`: Schemathesis makes up requests for every operation of the served `/openapi.yaml` "
     "(`tvguide serve`, debug build, the default providers.yaml over the golden snapshot) with the checks "
     "`not_a_server_error`, `response_schema_conformance`, `content_type_conformance` and "
     "`status_code_conformance`."),
]


def read_tsv(path):
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle, delimiter="\t"))
    return (rows[0], rows[1:]) if rows else ([], [])


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def column(header, rows, name):
    index = header.index(name)
    return [row[index] for row in rows]


def as_int(text):
    try:
        return int(float(text))
    except ValueError:
        return 0


def summary(part, header, rows):
    """One sentence with the figures the issue asks for, from the part's own rows."""
    if part == "chaos":
        held = column(header, rows, "held").count("yes")
        providers = len(set(column(header, rows, "provider")))
        faults = len(set(column(header, rows, "fault")))
        return f"{len(rows)} faults injected ({faults} kinds × {providers} provider types); {held} held."
    if part == "kill":
        # Every store is checked after the same kills: a phase's kills are counted once, not per store.
        kills_by_phase = {}
        for phase, iterations in zip(column(header, rows, "phase"), column(header, rows, "iterations")):
            kills_by_phase[phase] = max(kills_by_phase.get(phase, 0), as_int(iterations))
        kills = sum(kills_by_phase.values())
        corrupt = sum(as_int(v) for v in column(header, rows, "corrupt"))
        stores = len(set(column(header, rows, "store")))
        return f"{kills} kills ({len(kills_by_phase)} phases), each checked in {stores} stores; {corrupt} corrupt states."
    if part == "fuzz":
        executions = sum(as_int(v) for v in column(header, rows, "executions"))
        crashes = sum(as_int(v) for v in column(header, rows, "crashes"))
        hours = sum(float(v or 0) for v in column(header, rows, "seconds")) / 3600
        return (f"{len(rows)} targets, {executions:,} executions in {hours:.2f} fuzzing hours; "
                f"{crashes} crashes, hangs or out-of-memory.")
    if part == "soak":
        values = dict(zip(column(header, rows, "metric"), column(header, rows, "value")))
        keys = ["duration_s", "valid_requests", "valid_errors", "invalid_requests", "rss_before_mb", "rss_after_mb"]
        return "; ".join(f"{key} {values[key]}" for key in keys if key in values) + "."
    if part == "hostile":
        held = column(header, rows, "held").count("yes")
        peak = max((as_int(v) for v in column(header, rows, "peak_rss_kb")), default=0)
        return f"{len(rows)} hostile files; {held} kept within their memory bound (highest peak {peak // 1024} MB)."
    if part == "schemathesis":
        values = dict(zip(header, rows[0])) if rows else {}
        return (f"Schemathesis {values.get('schemathesis', '?')}: {as_int(values.get('cases', '0')):,} test cases over "
                f"{values.get('operations', '?')} operations (up to {values.get('max_examples', '?')} examples each, seed "
                f"{values.get('seed', '?')}); {values.get('failed_or_errored_cases', '?')} failed or errored, "
                f"{values.get('failed_operations', '?')} operations failed.")
    if part == "secrets":
        hits = sum(as_int(v) for v in column(header, rows, "key_hits"))
        size = sum(as_int(v) for v in column(header, rows, "bytes"))
        return f"{len(rows)} outputs ({size:,} bytes) grepped; {hits} key hits."
    return ""


def fault_matrix(header, rows):
    """Faults down, provider types across; each cell the typed error reported (or `accepted`), ✓ when it held."""
    providers = sorted(set(column(header, rows, "provider")))
    faults = sorted(set(column(header, rows, "fault")))
    cells = {}
    for provider, fault, error, held in zip(column(header, rows, "provider"), column(header, rows, "fault"),
                                            column(header, rows, "error"), column(header, rows, "held")):
        kind = error.split(":", 1)[0] if error not in ("", "-") else "accepted"
        cells[(fault, provider)] = f"{kind} {'✓' if held == 'yes' else '✗'}"
    return table(["fault"] + providers, [[fault] + [cells.get((fault, p), "") for p in providers] for fault in faults])


def main():
    source, target = Path(sys.argv[1]), Path(sys.argv[2])
    out = [
        "# Reliability report",
        "",
        "What was tried against tvguide and what held. Generated by `bench/reliability.sh` from the raw "
        "figures in `docs/reliability/`; do not edit by hand. Each part can be re-run alone.",
        "",
    ]
    overview = []
    sections = []
    for part, title, command, what in PARTS:
        tsv, run = source / f"{part}.tsv", source / f"{part}.run"
        sections += [f"## {title}", "", what, ""]
        if not tsv.exists():
            overview.append([title, "not run yet", "", f"`{command}`"])
            sections += [f"Not run yet: `{command}`.", ""]
            continue
        header, rows = read_tsv(tsv)
        when, seconds, commit = (run.read_text().strip().split("\t") + ["", "", ""])[:3] if run.exists() else ("", "", "")
        line = summary(part, header, rows)
        overview.append([title, line, f"{when} ({seconds} s, `{commit}`)", f"`{command}`"])
        sections += [line, ""]
        if part == "chaos":
            # Cases run in parallel and finish in any order: sorted, the file diffs cleanly.
            rows.sort(key=lambda row: (row[0], row[1]))
            sections += [fault_matrix(header, rows), ""]
        sections += [table(header, rows), "", f"Run {when} at commit `{commit}`, {seconds} s: `{command}`.", ""]
    out += [table(["part", "result", "run", "command"], overview), ""] + sections
    target.write_text("\n".join(out), encoding="utf-8")


if __name__ == "__main__":
    main()
