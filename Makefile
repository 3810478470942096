# The two commands of the README: `make guide` builds the guide from providers.yaml (live sources,
# falling back to the offline recordings in Fixtures/), `make test` runs the test suite.
.PHONY: deps guide test bench

deps:
	@scripts/install-deps

guide: deps
	swift run -c release tvguide build

test: deps
	swift test

bench: deps
	bench/run.sh
	bench/metadata.sh
	bench/audiences.sh
	bench/serve.sh
