# The two commands of the README: `make guide` builds the guide from providers.yaml (live sources,
# falling back to the offline recordings in Fixtures/), `make test` runs the test suite.
.PHONY: deps guide test bench reliability fuzz

deps:
	@scripts/install-deps

guide: deps
	swift run -c release tvguide build

# The suite, then the suite again with the clock 50 years ahead in a non-UTC zone (any date, any zone).
test: deps
	swift test
	scripts/test-shifted-clock

bench: deps
	bench/run.sh
	bench/metadata.sh
	bench/audiences.sh
	bench/serve.sh
	bench/sources.sh

# Issue 6: fault injection, SIGKILL loop, fuzzing, soak and secrets grep; renders docs/reliability.md.
reliability: deps
	bench/reliability.sh

# libFuzzer targets with AddressSanitizer, 60 s each (fuzz/README.md); `fuzz/run.sh 300 xmltv` for one, longer.
fuzz: deps
	fuzz/run.sh
