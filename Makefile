# Nova Raiders: set-up, build, serve, test. Everything installs from the project's own files.
#   make serve   build the site (installs the pinned runtime with npm ci) and serve it locally
#   make test    install what the tests need (venv, Chromium, npm ci), build, lint, run all tests
#   make test-fast   the pure tests but the slow ones (no site, no browser), on every core: a
#                    developer's loop (`make test` runs everything)
#   make site    build _site/ only
#   make lint    ruff check + ruff format --check + mypy (the type checker)
#   make check   ruff check + mypy (what `make test` checks before the tests)
#   make bench-page / make lighthouse   boot and bytes figures (docs/PERFORMANCE.md)
#   make bench-workbench   the workbench's games a minute next to the CLI's
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
CHROMIUM := /usr/bin/chromium
PYTEST_ARGS ?=
# pytest-xdist: a process per core and one more (the browser tests wait on Chromium most of the
# time; each worker that runs one has its own), handed one test at a time, longest first
# (tests/conftest.py orders them), so that the workers finish together.
JOBS ?= $(shell echo $$(( $$(nproc) + 1 )))
XDIST ?= -n $(JOBS) --dist load --maxschedchunk 1

.PHONY: serve test test-fast site lint check venv node libdeflate chromium bench-page bench-workbench lighthouse clean

# --no-compile: no .pyc made at install for every file of every package (a quarter of the
# install's time); Python compiles the modules that are imported, once, when they are
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --no-compile -e '.[test]'
	touch $@

venv: $(VENV)/.installed

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

node: node_modules/.package-lock.json

# the site's build gzips the memory snapshot with libdeflate (tools/build_site.py, gzip_best);
# chromium waits for it: two apt-get at once would fight over dpkg's lock
libdeflate:
	@if command -v libdeflate-gzip >/dev/null; then echo "libdeflate: $$(command -v libdeflate-gzip)"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "libdeflate: installing Debian's libdeflate-tools"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q libdeflate-tools; \
	else \
	  echo "libdeflate: no libdeflate-gzip and no root apt-get: the snapshot is gzipped by zlib," \
	    "0.1 MB larger (install libdeflate-tools for the smaller one)" >&2; \
	fi

chromium: libdeflate
	@if [ -x $(CHROMIUM) ]; then echo "chromium: $(CHROMIUM)"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "chromium: installing Debian's package"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; \
	else \
	  echo "chromium: no $(CHROMIUM) and no root apt-get; trying Playwright's own download"; \
	  $(PY) -m playwright install chromium; \
	fi

site: node libdeflate
	$(PYTHON) tools/build_site.py

serve: site
	$(PYTHON) tools/serve.py --port $(PORT)

lint: venv
	$(VENV)/bin/ruff check nova nova_tools tests tools
	$(VENV)/bin/ruff format --check nova nova_tools tests tools
	$(VENV)/bin/mypy

# the checks `make test` makes before the tests: lint (format aside) and the type checker
check: venv
	$(VENV)/bin/ruff check nova nova_tools tests tools
	$(VENV)/bin/mypy

# NOVA_SITE_BUILT: the tests use the _site/ just built instead of building it again
# The set-ups are independent (pip then the checks, apt, npm + the site's build): made side by
# side; the site's build is the longest, the checks run while it goes on.
test:
	$(MAKE) --no-print-directory --output-sync=target -j3 check chromium site
	NOVA_SITE_BUILT=1 $(PY) -m pytest $(XDIST) $(PYTEST_ARGS)

test-fast: venv
	$(PY) -m pytest -n auto -m "not browser and not slow" $(PYTEST_ARGS)

bench-page: venv chromium site
	$(PY) -m nova bench-page

bench-workbench: venv chromium site
	$(PY) -m nova bench-workbench --no-build

# Lighthouse (pinned in package.json) against the built page, mobile preset, with the system
# Chromium; not part of `make test`. RUNS=3 for medians of three.
RUNS ?= 1
lighthouse: node chromium site
	$(PYTHON) tools/lighthouse.py --runs $(RUNS)

clean:
	rm -rf _site
