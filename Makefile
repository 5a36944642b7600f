# Rules Explorer: developer and CI entry points.
#   make serve   - run the web app on http://127.0.0.1:5006/ (home; /explorer, /tutorial, /rules, /analysis, /tables)
#   make test    - the quick tier: every test not marked slow (installs Debian chromium if missing;
#                  browser tests must not skip); `make test-slow` the slow tier, `make test-all` both
#   make bench   - rules benchmarks (installs the [bench] extra: rlcard)
#   make bench-against REV=c33e259 - playout speed of this checkout against another revision
#   make bench-ui - explorer benchmarks (server-side step time, click-to-update, first load)
#   make bench-sweep - simulation sweeps: 20,000 greedy games on 1 and 2 processes and on Dask; peak memory of 100,000 on Dask
#   make bench-tables - playtest tables: 40 browser sessions (latency, memory), 100 SIGKILL restarts
#   make tour    - screenshots of every page at 1366x768, 1440x900 and 390x844 in English and Japanese, with
#                  the layout and wording checks a reader would make (tour/; TOUR_ARGS, e.g. --only explorer)
#   make notebook - JupyterLab on notebooks/ (installs the [notebook] extra), Panel's resources served
#                  by it (no CDN): http://127.0.0.1:8888/lab (NOTEBOOK_PORT)
#   make notebooks-html - the notebooks, run, as HTML pages in docs/notebooks/ (for reading only)
#   make golden  - regenerate tests/golden playthrough files
#   make clean   - remove build/test artefacts; `make distclean` also removes .venv
#
# Overridable: PYTHON, VENV, INSTALLER, PORT, ADDRESS, NOTEBOOK_PORT, TABLES_DB, GROUP_ORIGIN, SERVE_ARGS, PYTEST_ARGS, TEST_MARKS, TEST_TIMEOUT, TEST_WORKERS, REQUIRE_BROWSER, BENCH_ARGS, TOUR_ARGS, NAMES;
# the environment's RULES_EXPLORER_BUILD (auto|compiled|pure: the rules compiled at install, rules/build.py).

SHELL := /bin/bash

PYTHON ?= python3
VENV ?= .venv
PORT ?= 5006
NOTEBOOK_PORT ?= 8888
ADDRESS ?= 127.0.0.1
TABLES_DB ?=
GROUP_ORIGIN ?=
SERVE_ARGS ?=
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check
# How the venv gets the project: pip installs uv into it, and uv installs the project and its extras
# (the same versions pip chooses; on a fresh clone here ~25 s instead of pip's ~90 s, a quarter of the
# quick tier's budget). Like pip, it compiles the packages' bytecode as it installs: where Python may
# not write bytecode (PYTHONDONTWRITEBYTECODE, set on some machines), every process the suite starts
# (workers, servers, command lines, kernels) would otherwise compile Panel, Bokeh and HoloViews again,
# ~4.5 CPU-s each. Where uv cannot (a package mirror only pip is set up for), pip does it;
# INSTALLER=pip skips uv.
INSTALLER ?= uv

# Outer wall-clock cap for pytest (seconds) so a hung browser/server can't eat CI's budget.
TEST_TIMEOUT ?= 2400
# pytest-xdist workers (one per core here; 0 runs the suite in one process). Each worker takes
# whole files (--dist loadfile), so a module's server and browser are shared by its tests; the
# longest test runs alone and first, and the conformance tests one by one (tests/conftest.py).
TEST_WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
PYTEST_ARGS ?=
# Which tier `make test` runs (a pytest -m expression; empty runs every test). The quick tier checks
# each contract once; the slow tier repeats it for the other games, languages, player counts and
# settings, and holds the long runs (tests/helpers/tiers.py). CI runs both (.ci/run).
TEST_MARKS ?= not slow
# Browser tests fail (not skip) when chromium/playwright are missing.  `make test` installs
# chromium first, so this is on by default; `make test REQUIRE_BROWSER=0` relaxes it locally.
REQUIRE_BROWSER ?= 1
# If set (by .ci/run), pytest's own exit code is written there (make itself only says 2).
PYTEST_RC_FILE ?=
BENCH_ARGS ?=

# Stamp files live inside the venv: deleting .venv forgets them too.  Each re-runs only
# when pyproject.toml is newer than the stamp -- or when a top-level package's __init__.py
# appears/changes: setuptools' editable finder records the package list at install time, so
# a package created after `pip install -e .` would otherwise not be importable.
# The rules' sources too, and the play modules compiled with them: the install compiles them
# (setup.py, rules/build.py: READ), and a compiled build older than its sources is not used.
INSTALL_DEPS := pyproject.toml setup.py $(wildcard rules/__init__.py play/__init__.py explorer/__init__.py) \
  $(shell find rules -name '*.py' 2>/dev/null) play/limits.py play/seeds.py play/rollout.py play/mcts.py play/greedy.py
STAMP_BASE  := $(VENV)/.stamp-install
STAMP_TEST  := $(VENV)/.stamp-install-test
STAMP_BENCH := $(VENV)/.stamp-install-bench
STAMP_DEV   := $(VENV)/.stamp-install-dev
STAMP_NOTEBOOK := $(VENV)/.stamp-install-notebook

# apt needs root; use sudo for a non-root developer.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all venv install dev serve notebook notebooks-html test test-slow test-all bench bench-against bench-ui bench-sweep bench-tables tour golden chromium clean distclean help

all: test

help:
	@sed -n '2,19p' Makefile

$(PY):
	$(PYTHON) -m venv $(VENV)

venv: $(PY)

# $(call install,SPEC): the project as SPEC (`.`, `.[test]`...), editable, into the venv.
# The project itself is built again each time (--reinstall-package): its build compiles the rules
# (setup.py), and uv would otherwise reuse a build made from older sources. The last line says which
# build of the rules was installed, compiled or pure Python, and why (rules/_build.json).
define install
	$(if $(filter uv,$(INSTALLER)),$(PIP) install -q uv && $(PY) -m uv pip install -q --compile-bytecode --python $(PY) \
	  --reinstall-package rules-explorer -e '$(1)' \
	  || { echo "[make] uv could not install $(1); pip does it" >&2; $(PIP) install -q -e '$(1)'; }, \
	  $(PIP) install -q -e '$(1)')
	@$(PY) -c "import json; d = json.load(open('rules/_build.json')); print('[make] the rules:', d['build'], '(' + d['reason'] + ')')"
endef

# An install with more extras stands for the ones it includes (dev: test, bench and the base; test:
# the notebook's and the base): their stamps are touched too, so that `make serve` after `make dev`
# does not install the project (and compile the rules) again.
$(STAMP_BASE): $(INSTALL_DEPS) | $(PY)
	$(call install,.)
	@touch $@

$(STAMP_TEST): $(INSTALL_DEPS) | $(PY)
	$(call install,.[test])
	@touch $@ $(STAMP_BASE) $(STAMP_NOTEBOOK)

$(STAMP_BENCH): $(INSTALL_DEPS) | $(PY)
	$(call install,.[bench])
	@touch $@ $(STAMP_BASE)

$(STAMP_DEV): $(INSTALL_DEPS) | $(PY)
	$(call install,.[dev])
	@touch $@ $(STAMP_TEST) $(STAMP_BENCH) $(STAMP_BASE) $(STAMP_NOTEBOOK)

$(STAMP_NOTEBOOK): $(INSTALL_DEPS) | $(PY)
	$(call install,.[notebook])
	@touch $@ $(STAMP_BASE)

install: $(STAMP_BASE)
dev: $(STAMP_DEV)

# Debian's chromium (never `playwright install`: browser downloads are blocked here).
chromium:
	@if ! command -v chromium >/dev/null 2>&1; then \
	  echo "[make] installing Debian chromium + fonts-liberation"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null; \
	fi
	@command -v chromium >/dev/null 2>&1 || { echo "[make] chromium still not on PATH" >&2; exit 1; }
	@# Japanese pages (tutorials, rules) need a CJK font, or the browser draws empty boxes.
	@if ! fc-list :lang=ja 2>/dev/null | grep -q .; then \
	  echo "[make] installing fonts-noto-cjk (Japanese text in the browser)"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq --no-install-recommends fonts-noto-cjk >/dev/null; \
	fi

# `make serve` is `rules-explorer serve` (the same pages at the same URLs, the same options). Playtest
# tables keep their games in $(TABLES_DB) (default: the user's data directory); set ADDRESS=0.0.0.0 and
# GROUP_ORIGIN=host:port to serve a group on the network; SERVE_ARGS go to the CLI (README, "Playtest tables").
serve: $(STAMP_BASE)
	$(VENV)/bin/rules-explorer serve --address $(ADDRESS) --port $(PORT) \
	  $(if $(TABLES_DB),--db $(TABLES_DB)) $(if $(GROUP_ORIGIN),--allow-origin $(GROUP_ORIGIN)) $(SERVE_ARGS)

# The teaching notebooks, live: JupyterLab on notebooks/ with the project's server extension
# (explorer/notebook_server.py), which serves Panel's stylesheets and scripts itself and has
# pn.extension() put Bokeh's and Panel's JavaScript inline: no request leaves the machine. Opens the
# browser where there is one; NOTEBOOK_PORT, ADDRESS as for `make serve`.
notebook: $(STAMP_NOTEBOOK)
	cd notebooks && $(abspath $(VENV))/bin/jupyter lab --ip $(ADDRESS) --port $(NOTEBOOK_PORT) \
	  --ServerApp.jpserver_extensions="{'explorer.notebook_server': True}" $(if $(filter 0,$(shell id -u)),--allow-root)

# The teaching notebooks run in a fresh kernel and written out with their outputs, for people who only
# read them (tools/notebooks_html.py; NAMES=subastral for one).
notebooks-html: $(STAMP_TEST)
	$(PY) tools/notebooks_html.py $(NAMES)

# The suite starts ~50 Python processes of its own (servers, command lines, kernels): the project's
# bytecode is compiled first, once (compileall skips what is up to date), so that none compiles the
# project again where Python may not write bytecode (PYTHONDONTWRITEBYTECODE): ~0.45 CPU-s a process.
# A file that does not compile is shown here and left to pytest to report as the failure it is.
test: $(STAMP_TEST) chromium
	@$(PY) -m compileall -q -j 0 rules play explorer apps tests || true
	@export REQUIRE_BROWSER=$(REQUIRE_BROWSER) CHROMIUM_PATH="$${CHROMIUM_PATH:-$$(command -v chromium)}"; \
	rc=0; \
	timeout -k 30 $(TEST_TIMEOUT) $(PY) -m pytest --screenshot=only-on-failure --output=test-results \
	  $(if $(filter-out 0,$(TEST_WORKERS)),-n $(TEST_WORKERS) --dist loadfile) $(if $(strip $(TEST_MARKS)),-m "$(TEST_MARKS)") \
	  $(PYTEST_ARGS) || rc=$$?; \
	if [ -n "$(PYTEST_RC_FILE)" ]; then echo $$rc > "$(PYTEST_RC_FILE)"; fi; \
	case $$rc in \
	  0) ;; \
	  5) echo "[make] pytest collected no tests (exit 5)" >&2 ;; \
	  124|137) echo "[make] pytest killed after TEST_TIMEOUT=$(TEST_TIMEOUT)s (exit $$rc)" >&2 ;; \
	  *) echo "[make] pytest failed (exit $$rc)" >&2 ;; \
	esac; \
	exit $$rc

# The slow tier alone, and both tiers in one run (CI runs `make test` then `make test-slow`).
test-slow:
	@$(MAKE) --no-print-directory test TEST_MARKS=slow

test-all:
	@$(MAKE) --no-print-directory test TEST_MARKS=

bench: $(STAMP_BENCH)
	$(PY) benchmarks/run.py $(BENCH_ARGS)

# Playout speed of this checkout against revision REV, alternating in fresh processes (e.g. REV=HEAD~3).
bench-against: $(STAMP_BASE)
	$(PY) benchmarks/against.py $(REV) $(BENCH_ARGS)

# The explorer's figures: server-side step/move handling, click-to-update and first load in Chromium.
bench-ui: $(STAMP_TEST) chromium
	$(PY) benchmarks/ui.py $(BENCH_ARGS)

# Paired-comparison sweeps: local processes (1 and 2 workers) and a Dask LocalCluster, same statistics; a random-bot
# sweep's same statistics in this process, on local processes and on Dask, and every Dask process's peak memory.
bench-sweep: $(STAMP_TEST)
	$(PY) benchmarks/sweep.py $(BENCH_ARGS)

# Playtest tables: 40 browser sessions on one server (move-to-update latency, memory), 100 SIGKILL restarts.
bench-tables: $(STAMP_TEST) chromium
	$(PY) benchmarks/tables.py $(BENCH_ARGS)

golden: $(STAMP_BASE)
	$(PY) -m play.playthrough --write tests/golden

tour: $(STAMP_TEST) chromium
	$(PY) tools/tour.py $(TOUR_ARGS)

clean:
	rm -rf build dist *.egg-info .pytest_cache .hypothesis test-results ci-*.log \
	  benchmarks/results dask-worker-space tour
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
