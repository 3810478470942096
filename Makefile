# The two commands of the README: `make guide` builds the guide from providers.yaml (live sources,
# falling back to the offline recordings in Fixtures/), `make test` runs the test suite.
# `make install` (PREFIX=/usr/local, DESTDIR for staging) installs tvguide as a tool: see "Install" below.
.PHONY: deps guide test bench reliability fuzz release install uninstall

deps:
	@scripts/install-deps

guide: deps
	swift run -c release tvguide build

# The suite, then the web guide in a real browser, then the suite again with the clock 50 years
# ahead in a non-UTC zone (any date, any zone). Then `make install` into a temporary folder and the
# installed tool run in a bare environment.
test: deps
	swift test
	scripts/test-browser
	scripts/test-shifted-clock
	scripts/test-install

bench: deps
	bench/run.sh
	bench/metadata.sh
	bench/audiences.sh
	bench/serve.sh
	bench/responsive.sh
	bench/sources.sh
	bench/recommend.sh

# The reliability report: fault injection, SIGKILL loop, fuzzing, soak and secrets grep; renders docs/reliability.md.
reliability: deps
	bench/reliability.sh

# libFuzzer targets with AddressSanitizer, 60 s each (fuzz/README.md); `fuzz/run.sh 300 xmltv` for one, longer.
fuzz: deps
	fuzz/run.sh

# Install: a release binary with the Swift runtime linked in (it needs only Debian's
# libxml2, libjq1, zlib1g and, for HTTPS, ca-certificates at run time), tv_grab_tvguide, one man page
# per command, bash/zsh/fish completions, a systemd unit, an example providers.yaml for /etc/tvguide
# and the site catalogue (site.yaml and *.channels.xml of sources/, without tests and recordings).
#   make release && sudo make install     # build as yourself, then copy as root
#   make install PREFIX=$HOME/.local      # no root
#   make install DESTDIR=/tmp/pkg         # staged for a package; the paths inside say PREFIX
# SCRATCH is the `swift build --scratch-path`: not .build, because --static-swift-stdlib changes
# every module's compiler flags, so sharing .build/release with `make guide` would recompile the
# whole package at each switch. SWIFT_BUILD_FLAGS adds to swift build and swift package ("-j 1" on
# a small machine).
PREFIX ?= /usr/local
DESTDIR ?=
SCRATCH ?= .build-release
SWIFT_BUILD_FLAGS ?=
INSTALL ?= install
# The installed binary is stripped (172 MB → 86 MB); STRIP= keeps its symbols (for a debugger, or
# a packager that keeps them apart).
STRIP ?= strip
bindir = $(PREFIX)/bin
datadir = $(PREFIX)/share
man1dir = $(datadir)/man/man1
pkgdatadir = $(datadir)/tvguide
# `make release` stages here what does not depend on PREFIX: the binary, the man pages, the completions.
STAGE = $(SCRATCH)/install-stage
# What the staged files are made from; `make install` rebuilds only when one is newer than the stage.
release_inputs = Makefile Package.swift $(wildcard Package.resolved) $(shell find Sources -type f)
# Pages dated by the last commit, so that a rebuild of the same sources gives the same pages.
manual_date = $(shell git log -1 --format=%cs 2>/dev/null)
substitute = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@BINDIR@|$(bindir)|g' -e 's|@DATADIR@|$(datadir)|g'

release: $(STAGE)/stamp

# The man pages come from swift-argument-parser's generate-manual tool, run on the staged binary.
# The plugin (`swift package plugin generate-manual`) would first build every product again
# without --static-swift-stdlib, which recompiles the whole package (minutes); asked for --help it
# builds only its tool, which is then run here. When the tool is not where this SwiftPM puts it,
# the plugin runs in full and its pages are taken from its output folder.
$(STAGE)/stamp: $(release_inputs)
	rm -rf $(STAGE)
	mkdir -p $(STAGE)/bin $(STAGE)/man $(STAGE)/completions
	swift build -c release --static-swift-stdlib --product tvguide --scratch-path $(SCRATCH) $(SWIFT_BUILD_FLAGS)
	cp "$$(swift build -c release --scratch-path $(SCRATCH) --show-bin-path)/tvguide" $(STAGE)/bin/tvguide
	swift package --scratch-path $(SCRATCH) $(SWIFT_BUILD_FLAGS) plugin generate-manual --help >/dev/null
	tool=$$(find $(SCRATCH)/ -path '*/debug/*' -type f -perm -u+x \( -name generate-manual-tool -o -name generate-manual \) | head -n 1); \
	if [ -n "$$tool" ]; then \
	    "$$tool" $(STAGE)/bin/tvguide --multi-page --output-directory $(STAGE)/man $(if $(manual_date),--date $(manual_date)); \
	else \
	    rm -rf $(SCRATCH)/plugins/GenerateManual/outputs && \
	    swift package --scratch-path $(SCRATCH) $(SWIFT_BUILD_FLAGS) plugin generate-manual --multi-page $(if $(manual_date),--date $(manual_date)) && \
	    find $(SCRATCH)/plugins/GenerateManual/outputs -name 'tvguide*.1' -exec cp {} $(STAGE)/man/ \; ; \
	fi
	test -s $(STAGE)/man/tvguide.1
	sed -i 's/^$$/.Pp/' $(STAGE)/man/*.1    # a paragraph break in mdoc, where the tool leaves an empty line
	$(STAGE)/bin/tvguide --generate-completion-script bash >$(STAGE)/completions/tvguide.bash
	$(STAGE)/bin/tvguide --generate-completion-script zsh >$(STAGE)/completions/_tvguide
	$(STAGE)/bin/tvguide --generate-completion-script fish >$(STAGE)/completions/tvguide.fish
	touch $@

install: $(STAGE)/stamp
	$(INSTALL) -d $(DESTDIR)$(bindir) $(DESTDIR)$(man1dir) $(DESTDIR)$(pkgdatadir) \
	    $(DESTDIR)$(datadir)/bash-completion/completions $(DESTDIR)$(datadir)/zsh/site-functions \
	    $(DESTDIR)$(datadir)/fish/vendor_completions.d
	$(INSTALL) -m 755 $(STAGE)/bin/tvguide $(DESTDIR)$(bindir)/tvguide
	$(if $(STRIP),$(STRIP) $(DESTDIR)$(bindir)/tvguide)
	$(substitute) dist/tv_grab_tvguide.in >$(DESTDIR)$(bindir)/tv_grab_tvguide
	chmod 755 $(DESTDIR)$(bindir)/tv_grab_tvguide
	$(INSTALL) -m 644 $(STAGE)/man/*.1 $(DESTDIR)$(man1dir)/
	$(INSTALL) -m 644 $(STAGE)/completions/tvguide.bash $(DESTDIR)$(datadir)/bash-completion/completions/tvguide
	$(INSTALL) -m 644 $(STAGE)/completions/_tvguide $(DESTDIR)$(datadir)/zsh/site-functions/_tvguide
	$(INSTALL) -m 644 $(STAGE)/completions/tvguide.fish $(DESTDIR)$(datadir)/fish/vendor_completions.d/tvguide.fish
	$(substitute) dist/tvguide.service.in >$(DESTDIR)$(pkgdatadir)/tvguide.service
	$(substitute) dist/providers.yaml.in >$(DESTDIR)$(pkgdatadir)/providers.yaml
	chmod 644 $(DESTDIR)$(pkgdatadir)/tvguide.service $(DESTDIR)$(pkgdatadir)/providers.yaml
	rm -rf $(DESTDIR)$(pkgdatadir)/sources
	find sources -name site.yaml -o -name '*.channels.xml' | while read -r file; do \
	    $(INSTALL) -D -m 644 "$$file" "$(DESTDIR)$(pkgdatadir)/$$file" || exit 1; done

uninstall:
	rm -f $(DESTDIR)$(bindir)/tvguide $(DESTDIR)$(bindir)/tv_grab_tvguide \
	    $(DESTDIR)$(man1dir)/tvguide.1 $(DESTDIR)$(man1dir)/tvguide.*.1 \
	    $(DESTDIR)$(datadir)/bash-completion/completions/tvguide $(DESTDIR)$(datadir)/zsh/site-functions/_tvguide \
	    $(DESTDIR)$(datadir)/fish/vendor_completions.d/tvguide.fish
	rm -rf $(DESTDIR)$(pkgdatadir)
